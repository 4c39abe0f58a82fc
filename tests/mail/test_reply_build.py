"""Building a queued reply is cheap and changes nothing: the policy keeps each
header's class and folded form (pbem/store/mailmime.py), and a reply comes out byte for byte as the
email package's ``policy.default`` builds it, reads back to the same headers and text, and
folds afresh under any other policy."""

from __future__ import annotations

import json
from email import message_from_bytes, policy
from email.message import EmailMessage

import pbem.loop.ingest
import pbem.loop.replying
from pbem.store import mailpack
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from pbem.store.mailmime import MAIL_POLICY, text_message
from tests.mail import fuzzmail

LONG = "Árvíztűrő tükörfúrógép, Wallenstein és Havoc " * 6


def _plain(headers: list[tuple[str, str]], body: str, pol: policy.EmailPolicy = policy.default) -> EmailMessage:
    """The reply as it was built before: the stdlib's own policy and header classes (the
    reader's language said after the content's headers, which ``set_content`` writes)."""
    msg = EmailMessage(policy=pol)
    for name, value in headers:
        if name != "Content-Language":
            msg[name] = value
    msg.set_content(body)
    for name, value in headers:
        if name == "Content-Language":
            msg[name] = value
    return msg


def _check(headers: list[tuple[str, str]], body: str) -> None:
    expected = bytes(_plain(headers, body))
    for _ in range(3):  # the second and third time from remembered headers and folds
        built = bytes(text_message(headers, body))
        assert built == expected
        back = message_from_bytes(built, policy=policy.default)
        # each header reads back as the value the stdlib gives the header we set
        ours = [(k, v) for k, v in headers if k != "Content-Language"]
        assert [(k, str(v)) for k, v in back.items()][:len(ours)] == \
            [(k, str(policy.default.header_factory(k, v))) for k, v in ours]
        assert back.get_all("Content-Language") == ([v for k, v in headers if k == "Content-Language"] or None)
        assert back.get_content() == "".join(line + "\n" for line in body.splitlines())
        head = built[:built.index(b"\n\n")].split(b"\n")
        assert all(len(line) <= 78 or b" " not in line.strip() for line in head)  # folded (RFC 5322 2.2.3)
        assert built.isascii() or b"Content-Transfer-Encoding: 8bit" in head


def _reply_headers(n: int, name: str, subject: str) -> list[tuple[str, str]]:
    return [("From", "Spielleiter Ödön <gm@example.org>"), ("To", f"{name} <p{n}@example.org>"),
            ("Subject", subject), ("Message-ID", f"<{n}.reply@example.org>"), ("X-PBEM-Loop", "reply"),
            ("Auto-Submitted", "auto-replied"), ("In-Reply-To", f"<orders-{n}@example.org>"),
            ("References", f"<orders-{n}@example.org>")]


def test_replies_with_non_ascii_names_subjects_and_long_lines_build_as_the_stdlib_builds_them():
    names = ["Anna", "Łukasz Żółć", "\"Zoë \\\"the duke\\\" Ärger\"", "李雷", "x" * 90, "Ödön, Tóth"]
    subjects = ["Re: orders w1 1618-spring", "Re: Befehle für w1 — Árvíztűrő", LONG, "Re: " + "y" * 200, ""]
    bodies = ["ACCEPTED: orders.\n", "Türme und Städte\n" * 30, "z" * 2000 + "\n", "a\r\nb\rc\n\nd",
              "café ⚔ " * 40 + "\nend", "From the start\n.\n"]
    n = 0
    for name in names:
        for subject in subjects:
            for body in bodies:
                n += 1
                _check(_reply_headers(n, name, subject), body)


def test_the_replies_to_fuzzed_mails_build_as_the_stdlib_builds_them(games, monkeypatch):
    monkeypatch.setattr(pbem.loop.replying, "NO_BLOCK_REPLIES", 10**6)  # every reply is built, however many
    monkeypatch.setattr(pbem.loop.replying, "UNAUTHENTICATED_REPLIES", 10**6)
    Ingestor(games).ingest_all([RawMail(raw, f"fuzz/{i}") for i, raw in enumerate(fuzzmail.make(1414, 300))])
    rows = games.store.db.execute("select message from outbox").fetchall()
    stored = [bytes(m) for (m,) in rows if bytes(m).startswith(mailpack.TEXT_MAGIC)]
    assert len(stored) > 100
    threaded = 0
    for raw in stored:
        parts = json.loads(raw[len(mailpack.TEXT_MAGIC):])
        headers = [(k, v) for k, v in parts["headers"]]
        assert mailpack.unpack(games.store.conn, raw) == bytes(_plain(headers, parts["body"]))
        _check(headers, parts["body"])
        back = message_from_bytes(mailpack.unpack(games.store.conn, raw), policy=policy.default)
        if "In-Reply-To" in dict(headers):  # threading kept (a mail without a Message-ID has none)
            threaded += 1
            assert str(back["In-Reply-To"]) == str(policy.default.header_factory("In-Reply-To",
                                                                                 dict(headers)["In-Reply-To"]))
            assert "References" in back
    assert threaded > 50


def test_a_header_folded_under_the_mail_policy_folds_afresh_under_another_policy():
    headers = _reply_headers(1, "Łukasz Żółć", LONG)
    msg = text_message(headers, "text\n")
    bytes(msg)  # folded (and kept) under MAIL_POLICY
    for other in (MAIL_POLICY.clone(max_line_length=40), MAIL_POLICY.clone(utf8=True), policy.SMTP):
        assert msg.as_bytes(policy=other) == _plain(headers, "text\n").as_bytes(policy=other)
    assert bytes(msg) == bytes(_plain(headers, "text\n"))


def test_a_reply_built_again_folds_no_header_again(monkeypatch):
    """The cut itself: a header set before is neither parsed nor folded again."""
    import email._header_value_parser as parser

    headers = _reply_headers(7, "Łukasz Żółć", LONG)
    first = bytes(text_message(headers, "text\n"))
    folds = []
    real = parser._refold_parse_tree
    monkeypatch.setattr(parser, "_refold_parse_tree", lambda *a, **k: folds.append(a) or real(*a, **k))
    assert bytes(text_message(headers, "text\n")) == first
    assert folds == []
    bytes(_plain(headers, "text\n"))
    assert len(folds) >= 11  # the stdlib's policy folds all eleven headers every time


def test_message_ids_of_every_shape_are_written_as_the_stdlib_writes_them():
    """Plain ids on a short line are kept as given (``set_raw``); everything else is parsed
    and folded: either way the bytes of a ``policy.default`` build."""
    import pytest

    ids = ["<1.2.3.reply@example.org>", "<a@b>", "<" + "x" * 62 + "@e.org>", "<" + "x" * 63 + "@e.org>",
           "<" + "x" * 64 + "@e.org>", "<" + "y" * 100 + "@e.org>", "<.a@b>", "<a..b@c>", "<a.@b>",
           "<=?utf-8?q?x?=@b>", "<a=?b@c>", "<\"quoted id\"@x.org>", "<a@[127.0.0.1]>", "<a@bücher.de>",
           "<Ödön@x.org>", "a@b", "<a@b> <c@d>", "<a@b>(comment)", " <a@b>", "<>", "<a b@c>",
           "<!#$%&'*+/^_`{|}~-@x>", "<a@b>\t", "=?utf-8?b?PGFAYj4=?="]
    for n, msg_id in enumerate(ids):
        for name in ("Message-ID", "In-Reply-To", "References"):
            headers = [(k, msg_id if k == name else v) for k, v in _reply_headers(n, "Anna", "Re: orders")]
            try:
                expected = bytes(_plain(headers, "text\n"))
            except Exception as error:  # the stdlib cannot write it (a non-ASCII id...): nor can we
                with pytest.raises(type(error)):
                    bytes(text_message(headers, "text\n"))
                continue
            assert bytes(text_message(headers, "text\n")) == expected, (name, msg_id)
    twice = _reply_headers(1, "Anna", "Re: orders") + [("Message-ID", "<2@example.org>")]
    with pytest.raises(ValueError):  # one Message-ID only, as the stdlib says
        _plain(twice, "text\n")
    with pytest.raises(ValueError):
        text_message(twice, "text\n")
