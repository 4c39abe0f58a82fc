"""Property: arbitrary bytes as a mail never crash ingest, and every mail ends in exactly
one reply (in the outbox, or printed for a GM's text) or a logged refusal."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from tests.mail.conftest import PASSWORDS, fixture

HEADERS = st.sampled_from([b"From: ben@example.org\n", b"From: =?utf-8?b?w6k=?= <x@y>\n", b"Subject: ",
                           b"Message-ID: <a@b>\n", b"Auto-Submitted: no\n", b"Content-Type: multipart/mixed; boundary=x\n",
                           b"Content-Transfer-Encoding: base64\n", b"Content-Type: text/plain; charset=bogus\n",
                           b"\n", b"--x\n", b"GAME duel blue " + PASSWORDS["blue"].encode() + b"\n", b"BID 1\n",
                           b"END\n", b"TURN round-1\n", b"> ", b"-- \n"])
MAILS = st.one_of(st.binary(max_size=400), st.lists(st.one_of(HEADERS, st.binary(max_size=20)), max_size=20).map(b"".join),
                  st.binary(max_size=60).map(lambda b: fixture("plain.eml").replace(b"BID 2", b"BID " + b)))


@settings(max_examples=int(os.environ.get("PBEM_FUZZ_EXAMPLES", "150")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=MAILS)
def test_arbitrary_bytes_one_reply_or_logged_refusal(games, raw):
    store = games.store
    before = len(store.outbox())
    out = Ingestor(games).ingest(RawMail(raw, "<hypothesis>"))
    added = store.outbox()[before:]
    row = store.db.execute("select status, note from mails where key = ?", [out.key]).fetchone()
    assert row is not None and row[0] != "new"
    if out.outcome == "duplicate":
        assert added == []
    elif out.outcome in ("ignored", "error"):
        assert added == [] and row[1]
    elif out.reply is not None:
        assert added == [] and row[0] == out.outcome
    elif "not answered" in (row[1] or ""):  # an address that proved nothing, answered its few times today
        silenced = store.db.execute("select count(*) from guard_log where kind = 'silenced' and mail_key = ?",
                                    [out.key]).fetchone()[0]
        assert added == [] and silenced == 1
    else:
        assert len(added) == 1 and added[0]["kind"] == "reply" and row[0] == out.outcome
    for secret in PASSWORDS.values():
        assert all(secret.encode() not in r["message"] for r in added)
    assert out.outcome != "error", out.note
