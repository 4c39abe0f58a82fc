"""Fuzz campaign: one malformed or hostile mail never stops ingest.

Thousands of generated and mutated mails (tests/mail/fuzzmail.py) go into one Maildir,
followed by a valid order mail, and ``pbem ingest`` reads the folder as a GM runs it.
It must exit 0 with no traceback, give every mail exactly one outcome, keep every mail's
raw bytes with a final status, and still accept the valid mail at the end.

Counts: ``PBEM_FUZZ_MAILS`` (default 2000 in ``make test``); with ``PBEM_SLOW=1`` the slow
test runs ``PBEM_FUZZ_MAILS_SLOW`` (default 10000) more with another seed. Re-measure with
``PBEM_FUZZ_MAILS=5000 .venv/bin/python -m pytest tests/mail/test_fuzz_ingest.py -q``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.mailout.deliver import message_of
from pbem.loop.service import Service
from pbem.store.db import Store
from tests.mail import fuzzmail
from tests.mail.conftest import PASSWORDS, create

VALID = (b"From: Ben Miller <ben@example.org>\nMessage-ID: <final-valid-mail@example.org>\n"
         b"Subject: orders\nDate: Mon, 30 Nov 2026 09:15:02 +0100\n\n"
         b"GAME duel blue " + PASSWORDS["blue"].encode() + b"\nBID 3  # the last word\nEND\n")


def maildir(root: Path, mails: list[bytes]) -> Path:
    """A Maildir whose ``new/`` holds ``mails`` in this order, then the valid mail."""
    for sub in ("new", "cur", "tmp"):
        (root / sub).mkdir(parents=True)
    for n, raw in enumerate(mails):
        (root / "new" / f"{n:07d}.fuzz").write_bytes(raw)
    (root / "new" / "9999999.valid").write_bytes(VALID)
    return root


def campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, count: int) -> None:
    db = str(tmp_path / "fuzz.db")
    service = Service(Store(db), sender="gm@pbem.example")
    create(service, monkeypatch, "duel", ["red", "blue", "green", "yellow"])
    service.store.close()
    box = maildir(tmp_path / "box", fuzzmail.make(seed, count))
    result = CliRunner().invoke(cli, ["--db", db, "ingest", "--json", str(box)])
    assert result.exit_code == 0, result.output[-3000:]
    assert result.exception is None and "Traceback" not in result.stderr
    outcomes = json.loads(result.stdout)
    assert len(outcomes) == count + 1  # exactly one outcome per mail
    errors = [(n, o["note"]) for n, o in enumerate(outcomes) if o["outcome"] == "error"]
    assert errors == [], f"seed {seed}: {errors[:5]}"
    assert outcomes[-1]["outcome"] == "accepted", outcomes[-1]
    store = Store(db)
    try:
        rows = dict(store.db.execute("select key, status from mails").fetchall())
        assert {o["key"] for o in outcomes} <= set(rows)  # every mail kept
        assert "new" not in rows.values()  # and every kept mail got its outcome
        raws = {r[0] for r in store.db.execute("select raw from mails")}
        assert VALID in raws
        for row in store.outbox():  # every reply queued (as headers and text) builds and reads
            assert message_of(row)["Message-ID"] == row["message_id"], row["id"]
    finally:
        store.close()


def test_fuzzed_maildir_never_stops_ingest(tmp_path, monkeypatch):
    campaign(tmp_path, monkeypatch, seed=17, count=int(os.environ.get("PBEM_FUZZ_MAILS", "2000")))


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("PBEM_SLOW") != "1", reason="set PBEM_SLOW=1 (runs for minutes)")
def test_fuzzed_maildir_never_stops_ingest_many(tmp_path, monkeypatch):
    campaign(tmp_path, monkeypatch, seed=1701, count=int(os.environ.get("PBEM_FUZZ_MAILS_SLOW", "10000")))


@pytest.mark.parametrize("header", fuzzmail.HOSTILE_HEADERS, ids=range(len(fuzzmail.HOSTILE_HEADERS)))
def test_each_hostile_header_then_a_valid_mail(tmp_path, monkeypatch, header):
    """Every hostile header line alone, above a plain mail, then the valid mail."""
    campaign_one(tmp_path, monkeypatch, [header + b"From: x@y\nSubject: s\n\nhello\n"])


def test_message_id_empty_then_non_utf8_byte(tmp_path, monkeypatch):
    """The mail of the report: ``Message-ID: <>`` followed by one non-UTF-8 byte."""
    outcomes = campaign_one(tmp_path, monkeypatch, [b"From: a@b.example\nMessage-ID: <>\xff\n\nhi\n"])
    # recorded with an outcome; a stranger's mail without a GAME block is not answered
    assert outcomes[0]["outcome"] == "ignored"


def test_mime_nested_1000_deep_is_a_recorded_outcome(tmp_path, monkeypatch):
    """MIME nested 1,000 deep is refused unread (counted before it is parsed),
    never a traceback."""
    outcomes = campaign_one(tmp_path, monkeypatch, [fuzzmail.nested(1000), fuzzmail.nested(1000, "rfc822")])
    for outcome in outcomes[:2]:
        assert outcome["outcome"] == "refused" and "1000 MIME containers" in outcome["note"], outcome


def campaign_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mails: list[bytes]) -> list[dict]:
    db = str(tmp_path / "one.db")
    service = Service(Store(db), sender="gm@pbem.example")
    create(service, monkeypatch, "duel", ["red", "blue", "green", "yellow"])
    service.store.close()
    box = maildir(tmp_path / "box", mails)
    result = CliRunner().invoke(cli, ["--db", db, "ingest", "--json", str(box)])
    assert result.exit_code == 0 and result.exception is None, result.output[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    outcomes = json.loads(result.stdout)
    assert len(outcomes) == len(mails) + 1
    assert all(o["outcome"] != "error" for o in outcomes), outcomes
    assert outcomes[-1]["outcome"] == "accepted"
    return outcomes


def test_a_failure_while_keeping_a_failed_mail_does_not_stop_ingest(games, monkeypatch):
    """Processing fails, and keeping the mail under its own key fails too: the mail is kept
    under the hash of its bytes with status ``error``, and the next mail is accepted."""
    from pbem.loop.ingest import Ingestor
    from pbem.mailin.parse import RawMail

    ingestor = Ingestor(games)
    real_process, real_put = Ingestor._process, games.store.put_mail

    def broken_process(self, mail, origin):
        if b"<broken@x>" in mail.raw:
            raise RuntimeError("boom")
        return real_process(self, mail, origin)

    def put(key, raw, message_id, sender):
        if key.startswith("<broken@x>"):
            raise UnicodeEncodeError("utf-8", "x", 0, 1, "surrogates not allowed")
        return real_put(key, raw, message_id, sender)

    monkeypatch.setattr(Ingestor, "_process", broken_process)
    monkeypatch.setattr(games.store, "put_mail", put)
    bad = b"From: ben@example.org\nMessage-ID: <broken@x>\n\nhello\n"
    out = ingestor.ingest(RawMail(bad, "bad"))
    assert out.outcome == "error" and out.key.startswith("raw:")
    row = games.store.db.execute("select raw, status from mails where key = ?", [out.key]).fetchone()
    assert row == (bad, "error")
    assert ingestor.ingest(RawMail(VALID, "valid")).outcome == "accepted"
