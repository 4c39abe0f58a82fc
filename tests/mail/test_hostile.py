"""Hostile mail: block limits, reflection, password echoes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import pbem.store.auth
import pbem.loop.ingest
import pbem.loop.replying
from pbem.cli.main import cli
from pbem.loop.ingest import MAX_BLOCKS, Ingestor
from pbem.mailin.parse import RawMail
from pbem.mailout.replies import REFUSED_SUBJECT, UNAUTHENTICATED_SUBJECT
from tests.mail.conftest import PASSWORDS, replies, reply_text

BLUE = PASSWORDS["blue"].encode()
YELLOW = PASSWORDS["yellow"]


def mail(body: bytes, sender: bytes = b"ben@example.org", subject: bytes = b"orders", mid: bytes = b"") -> bytes:
    mid = mid or b"<%d@example.org>" % abs(hash(body))
    return b"From: " + sender + b"\nMessage-ID: " + mid + b"\nSubject: " + subject + b"\n\n" + body


# -- item 13: anything that could be the password is masked everywhere -------------------
@pytest.mark.parametrize("line", [f"GAME duel {YELLOW}", f"GAME duel yellow:{YELLOW}", f"GAME {YELLOW}",
                                  f"GAME duel {YELLOW} yellow", f"GAME duel yellow {YELLOW} extra"])
def test_a_password_in_the_wrong_place_is_never_echoed(games, ingest, line):
    out = ingest(mail(line.encode() + b"\nBID 1\nEND\n", b"dan@example.org", line.encode()))
    assert out.outcome == "rejected"
    shown = [out.line(), json.dumps(out.as_dict()), reply_text(replies(games)[-1]), replies(games)[-1]["subject"]]
    shown += [str(v) for v in games.store.db.execute("select key, sender, status, note, message_id from mails").fetchone()]
    for text in shown:
        assert YELLOW not in text, text
    # (the games fixture also checks every queued message for every password)


def test_a_password_in_a_gm_text_is_never_printed(games, ingest):
    out = ingest(f"GAME duel {YELLOW}\nBID 1\nEND\n".encode())
    assert YELLOW not in out.line() and YELLOW not in (out.reply or "") and YELLOW not in json.dumps(out.as_dict())


# -- item 12: reflection -------------------------------------------------------------------
UNAUTHENTICATED = {
    "no block": b"hello GM, see https://evil.example/x\n",
    "quoted only": b"> GAME duel blue " + BLUE + b"\n> BID 1\n> END\n",
    "missing password": b"GAME duel blue\nBID 1\nEND\n",
    "unknown game": b"GAME nope blue " + BLUE + b"\nBID 1\nEND\n",
    "wrong password": b"GAME duel blue aaaa-bbbb-cccc\nBID 1\nEND\n",
    "huge game id": b"GAME " + b"https://evil.example/" * 50000 + b" blue x\nEND\n",
    "huge valid game id": b"GAME " + b"a" * 1_000_000 + b" blue " + BLUE + b"\nBID 1\nEND\n",
    "no END, bad id": b"GAME du_el blue " + BLUE + b"\nBID 1\n",
}


def test_replies_to_unauthenticated_mail_are_short_identical_and_echo_nothing(games, ingest, monkeypatch):
    monkeypatch.setattr(pbem.loop.replying, "NO_BLOCK_REPLIES", 10**6)  # every one answered (the limit: test_mail_guard)
    monkeypatch.setattr(pbem.loop.replying, "UNAUTHENTICATED_REPLIES", 10**6)
    outcomes = {name: ingest(mail(body, subject=b"see https://evil.example/" + b"x" * 5000)).outcome
                for name, body in UNAUTHENTICATED.items()}
    huge = {"huge game id", "huge valid game id"}  # over the text limit: refused unread (pbem.mailin.maillimits)
    assert outcomes == {name: "refused" if name in huge else "rejected" for name in UNAUTHENTICATED}
    rows = replies(games)
    assert len(rows) == len(UNAUTHENTICATED)
    unauthenticated = [r for r in rows if r["subject"] == UNAUTHENTICATED_SUBJECT]
    assert len(unauthenticated) == len(UNAUTHENTICATED) - len(huge)
    assert len({reply_text(r) for r in unauthenticated}) == 1
    assert {r["subject"] for r in rows} == {UNAUTHENTICATED_SUBJECT, REFUSED_SUBJECT}
    assert max(len(r["message"]) for r in rows) < 3000
    assert all(b"evil" not in r["message"] and b"duel" not in r["message"] for r in rows)
    for out in [ingest(mail(UNAUTHENTICATED["huge game id"], mid=b"<again@x>"))]:
        assert len(out.line()) < 300 and len(json.dumps(out.as_dict())) < 1000


def test_replies_to_authenticated_mail_echo_only_short_excerpts(games, ingest):
    body = b"GAME duel blue " + BLUE + b"\n" + b"BID https://evil.example/" + b"y" * 100_000 + b"\n" \
        + b"".join(b"BDI %d\n" % n for n in range(98)) + b"END\n"  # just under the limits of pbem.mailin.maillimits
    out = ingest(mail(body, subject=b"Re: " + b"z" * 50_000))
    assert out.outcome == "rejected" and out.blocks[0].authenticated
    row = replies(games)[-1]
    assert len(row["message"]) < 20_000 and len(row["subject"]) < 100
    text = reply_text(row)
    assert "y" * 200 not in text and "more problems" in text


# -- item 5: GAME blocks per mail; passwords hashed outside the write transaction -----------
def test_at_most_ten_blocks_are_read_and_the_rest_refused(games, ingest):
    blocks = b"".join(b"GAME duel blue " + BLUE + b"\nBID %d\nEND\n" % (n % 4) for n in range(MAX_BLOCKS + 2))
    out = ingest(mail(blocks))
    assert out.outcome == "partial" and len(out.blocks) == MAX_BLOCKS + 1
    assert all(b.accepted for b in out.blocks[:MAX_BLOCKS]) and not out.blocks[-1].accepted
    text = reply_text(replies(games)[-1])
    assert f"at most {MAX_BLOCKS} are read" in " ".join(text.split())
    assert "more blocks refused" in out.line()


def test_a_thousand_blocks_hash_at_most_ten_passwords_and_none_under_the_write_lock(games, monkeypatch):
    seen: list[bool] = []
    real = pbem.store.auth.hashlib.scrypt

    def scrypt(*args, **kwargs):
        seen.append(games.store.db.conn.in_transaction)
        return real(*args, **kwargs)

    monkeypatch.setattr(pbem.store.auth.hashlib, "scrypt", scrypt)
    pbem.store.auth._scrypt_hex.cache_clear()
    blocks = b"".join(b"GAME duel blue w%04d-xxxx-yyyy\nBID 1\nEND\n" % n for n in range(1000))
    out = Ingestor(games).ingest(RawMail(mail(blocks), "<test>"))
    assert out.outcome == "rejected"
    assert 0 < len(seen) <= MAX_BLOCKS and not any(seen)


def test_cli_ingest_never_prints_a_password(games, tmp_path):
    path = tmp_path / "m.eml"
    path.write_bytes(mail(f"GAME duel {YELLOW}\nBID 1\nEND\n".encode(), b"dan@example.org"))
    result = CliRunner().invoke(cli, ["--db", str(games.store.path), "ingest", str(path)])
    assert result.exit_code == 0 and YELLOW not in result.output
