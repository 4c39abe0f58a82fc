"""Outbox messages stored packed (pictures once, the rest compressed) and sent byte for byte."""

from __future__ import annotations

import pytest

from pbem.store import mailpack
from pbem.store.db import Store
from reports.message import to_message
from reports.render import render_report
from tests.reports.sample import sample_input


@pytest.fixture(scope="module")
def rendered():
    return {v: render_report(sample_input(v)) for v in ("red", "blue")}


def _mail(rendered, viewer: str, n: int = 1) -> bytes:
    msg = to_message(rendered[viewer], to=f"{viewer}@example.org", sender="gm@example.org",
                     subject=f"report {n} for {viewer}", message_id=f"report.{n}.{viewer}@example.org",
                     in_reply_to=None, references=[])
    return bytes(msg)


def test_queued_bytes_come_back_exactly_and_pictures_are_stored_once(tmp_path, rendered):
    store = Store(tmp_path / "p.db")
    mails = [_mail(rendered, v, n) for n in (1, 2) for v in ("red", "blue")]
    with store.transaction():
        ids = [store.enqueue("g", f"x{i}@example.org", "s", m, "report", f"<m{i}@x>") for i, m in enumerate(mails)]
    assert [r["message"] for r in store.outbox()] == mails
    assert [r["id"] for r in store.outbox()] == ids
    # red and blue see the same public map and chart: two pictures stored, not eight
    assert store.db.execute("select count(*) from blobs").fetchone()[0] == 2
    stored = store.db.execute("select sum(length(message)) from outbox").fetchone()[0]
    assert stored < sum(len(m) for m in mails) / 5
    assert all(r[0].startswith(mailpack.MAGIC) for r in store.db.execute("select message from outbox"))


def test_a_message_that_would_not_come_back_identical_is_kept_verbatim(tmp_path, rendered, monkeypatch):
    store = Store(tmp_path / "v.db")
    mail = _mail(rendered, "red")
    real = mailpack._rebuild
    monkeypatch.setattr(mailpack, "_rebuild", lambda skeleton, blob: real(skeleton, blob)[:-1])  # a rebuild that differs
    with store.transaction():
        store.enqueue("g", "red@example.org", "s", mail, "report", "<m@x>")
    assert store.db.execute("select message from outbox").fetchone()[0] == mail
    assert store.db.execute("select count(*) from blobs").fetchone()[0] == 0
    monkeypatch.setattr(mailpack, "_rebuild", real)
    assert store.outbox()[0]["message"] == mail


def test_plain_messages_and_old_rows_read_as_they_are(tmp_path):
    store = Store(tmp_path / "o.db")
    plain = b"From: a@example.org\nTo: b@example.org\nSubject: hi\n\nhello\n"
    with store.transaction():
        store.enqueue("g", "b@example.org", "hi", plain, "reply", "<r@x>")
        store.db.execute("insert into outbox (game_id, to_addr, subject, message, kind, message_id, attempts) "
                         "values ('g', 'b@example.org', 'old', ?, 'reply', '<o@x>', 0)", [plain])
    assert [r["message"] for r in store.outbox()] == [plain, plain]


def test_a_missing_picture_is_an_error_not_a_different_mail(tmp_path, rendered):
    store = Store(tmp_path / "m.db")
    with store.transaction():
        store.enqueue("g", "red@example.org", "s", _mail(rendered, "red"), "report", "<m@x>")
        store.db.execute("delete from blobs")
    with pytest.raises(LookupError):
        store.outbox()


def test_the_send_path_delivers_what_was_queued(tmp_path, rendered):
    """``pbem send`` claims a packed message and delivers the queued message (its Date added)."""
    from email import policy
    from email.parser import BytesParser

    from pbem.mailout.deliver import send_outbox

    class Recorder:
        def __init__(self):
            self.got = []

        def deliver(self, message, to):
            self.got.append((to, message))

        def close(self):
            pass

    store = Store(tmp_path / "s.db")
    mails = [_mail(rendered, v) for v in ("red", "blue")]
    with store.transaction():
        for i, mail in enumerate(mails):
            store.enqueue("g", f"x{i}@example.org", "s", mail, "report", f"<m{i}@x>")
    transport = Recorder()
    assert all(s.ok for s in send_outbox(store, transport))
    assert [to for to, _ in transport.got] == ["x0@example.org", "x1@example.org"]
    for mail, (_, sent) in zip(mails, transport.got):
        queued = BytesParser(policy=policy.default).parsebytes(mail)
        queued["Date"] = sent["Date"]
        assert sent.as_bytes() == queued.as_bytes()
        assert [p.get_content() for p in sent.walk() if p.get_content_maintype() == "image"] == \
               [p.get_content() for p in queued.walk() if p.get_content_maintype() == "image"]


def test_picture_bodies_are_found_as_the_regular_expression_finds_them(rendered):
    """The fast scan for base64 bodies finds exactly what ``_base64_body()`` finds,
    in report mails and in mangled ones (a stray character, a missing blank line, cut short)."""
    import random

    def by_regex(message: bytes) -> list[bytes]:
        return [m.group(1) for m in mailpack._base64_body().finditer(message)]

    rng = random.Random(14)
    mails = [_mail(rendered, v, n) for n in (1, 2) for v in ("red", "blue")]
    cases = list(mails)
    for mail in mails[:2]:
        for _ in range(60):
            i = rng.randrange(len(mail))
            cases.append(mail[:i] + rng.choice([b"\n", b"-", b"A", b"\n\n", b"*", b""]) + mail[i + 1:])
        cases += [mail.replace(b"\n\n--", b"\n--"), mail[:len(mail) // 2], mail.lower()]
    cases += [b"Content-Transfer-Encoding: base64\n\n", b"content-transfer-encoding: BASE64\n\n\nQUJD\n\n",
              b"Content-Transfer-Encoding: base64\nX: y\n\nQUJD\nQUJD"]
    assert any(by_regex(c) for c in cases)
    for case in cases:
        assert mailpack._base64_bodies(case) == by_regex(case)
