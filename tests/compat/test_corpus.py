"""The compatibility corpus: what earlier states of main made opens, verifies and continues here.

Each release of ``corpus/releases.json`` left a database of running games, one of finished
games, and the archives and readable records it exported (tests/compat/make_corpus.py made them
with that release's own code). Today's pbem must, without the GM doing anything:

- open each database (migrating its schema) and list every game in ``pbem status``;
- ``replay --verify`` every game under the rules version it was played with;
- continue every running game: by mail (a real order mail into a Maildir, with the seat's
  password) and by ``pbem bots``, adjudicate, and verify again;
- import every archive and record into a new database and verify it.

A change that breaks an old game fails here.
"""

from __future__ import annotations

import json
import lzma
import mailbox
import sqlite3
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from tests.clirun import run
from tests.compat.make_corpus import CORPUS, releases

RELEASES = releases()
DATABASES = [pytest.param(name, kind, id=f"{name}-{kind}") for name in RELEASES
             for kind in ("running", "finished") if (CORPUS / name / f"{kind}.db.xz").exists()]
EXPORTS = [pytest.param(path, id=f"{path.parent.parent.name}-{path.parent.name}-{path.name}")
           for name in RELEASES for path in sorted((CORPUS / name).glob("*/*"))
           if path.name.endswith((".pbem.json", ".record.txt"))]


def unpack(name: str, kind: str, where: Path) -> str:
    """A copy of the release's database (the fixture itself is never changed)."""
    db = where / f"{name}-{kind}.db"
    db.write_bytes(lzma.decompress((CORPUS / name / f"{kind}.db.xz").read_bytes()))
    return str(db)


def game_ids(db: str) -> list[str]:
    """The games of ``db``, read from its event log without pbem."""
    with sqlite3.connect(db) as conn:
        return sorted(r[0] for r in conn.execute("select distinct game_id from events"))


def status(db: str, game: str) -> dict[str, Any]:
    """``pbem status GAME --json``."""
    return json.loads(run("--db", db, "status", game, "--json"))


def verify(db: str, game: str) -> str:
    """``pbem replay GAME --verify``, which must report every check passed."""
    out = run("--db", db, "replay", game, "--verify")
    assert "verified" in out, out
    return out


@pytest.mark.parametrize("name,kind", DATABASES)
def test_an_old_database_opens_and_every_game_verifies(name: str, kind: str, tmp_path: Path) -> None:
    db = unpack(name, kind, tmp_path)
    ids = game_ids(db)
    rows = json.loads(run("--db", db, "status", "--json"))
    assert sorted(r["game"] for r in rows) == ids
    for row in rows:
        assert row["engine_version"] in RELEASE_VERSIONS[row["engine"]], row
        assert (row["over"] is True) == (kind == "finished" and row["game"] != "court"), row
        verify(db, row["game"])


RELEASE_VERSIONS = {"wallenstein": ("1.0", "1.1", "1.2"), "havoc": ("1", "2", "3"), "gods-playground": ("1", "2", "3")}


def _mail_orders(db: str, game: str, seat: str, password: str, where: Path) -> None:
    """The bot's orders for ``seat`` mailed as the player would: a real MIME mail into a Maildir."""
    from pbem.cli.app import App
    from pbem.loop.demo import bot_texts

    app = App(db)
    loaded = app.service.load(game)
    text = bot_texts(loaded, [seat], "heuristic", [seat])[seat]
    text = text.replace(f"GAME {game} {seat}\n", f"GAME {game} {seat} {password}\n", 1)
    message = EmailMessage()
    message["From"], message["To"] = loaded.seats[seat]["email"], "gm@example.org"
    message["Subject"], message["Message-ID"] = f"orders {game}", f"<{game}.{seat}.{loaded.last_seq}@corpus.test>"
    message["Date"] = "Wed, 02 Dec 2026 10:00:00 +0000"
    message.set_content(text)
    box = mailbox.Maildir(where / "Maildir", create=True)
    box.add(message)
    app.store.close()


@pytest.mark.parametrize("name", [n for n in RELEASES if (CORPUS / n / "running.db.xz").exists()])
def test_every_running_game_of_an_old_database_continues_by_mail_and_by_bots(name: str, tmp_path: Path) -> None:
    db = unpack(name, "running", tmp_path)
    passwords = json.loads((CORPUS / name / "running" / "passwords.json").read_text(encoding="utf-8"))
    for game in game_ids(db):
        first = status(db, game)
        seat = first["awaiting"][0]
        _mail_orders(db, game, seat, passwords[game][seat], tmp_path)
        ingested = json.loads(run("--db", db, "ingest", str(tmp_path / "Maildir"), "--json"))
        assert [m["outcome"] for m in ingested if m["blocks"] and m["blocks"][0]["game"] == game] == ["accepted"]
        others = [s for s in status(db, game)["awaiting"] if s != seat]
        if others:  # a simultaneous turn: the bots send the other seats' orders
            run("--db", db, "bots", game, *[f"--seat={s}" for s in others])
        run("--db", db, "adjudicate", game)  # the mailed orders (or plan line) decide the turn
        after = status(db, game)
        assert after["turn"] != first["turn"] or after["over"], (first, after)
        for _ in range(4):  # the turn mailed for, then more: the bots answer whoever is awaited
            row = status(db, game)
            if row["over"]:
                break
            if row["awaiting"]:
                run("--db", db, "bots", game, *[f"--seat={s}" for s in row["awaiting"]])
            run("--db", db, "adjudicate", game)
        assert status(db, game)["turn"] != first["turn"] or status(db, game)["over"]
        verify(db, game)


@pytest.mark.parametrize("path", EXPORTS)
def test_an_old_archive_or_record_imports_and_verifies(path: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "fresh.db")
    if path.name.endswith(".pbem.json"):
        assert "verified" in run("replay", str(path), "--verify")
    if path.name.endswith(".record.txt") and path.parent.name == "running":
        # a running game's record has no seed and no chance lines: it is refused, clearly, as always
        out = run("--db", db, "import", str(path), code=1)
        assert "no Seed header (the game is not over) and no CHANCE lines" in out, out
        return
    out = run("--db", db, "import", str(path))
    assert "imported" in out.lower(), out
    ids = game_ids(db)
    assert len(ids) == 1
    row = json.loads(run("--db", db, "status", "--json"))[0]
    assert row["engine_version"] in RELEASE_VERSIONS[row["engine"]]


@pytest.mark.parametrize("name", [n for n in RELEASES if (CORPUS / n / "finished.db.xz").exists()])
def test_an_old_database_sends_its_outbox_and_renders_its_games(name: str, tmp_path: Path) -> None:
    """The mail an old release queued goes out as it was queued; its games' reports and
    sites render from today's code."""
    db = unpack(name, "finished", tmp_path)
    with sqlite3.connect(db) as conn:
        queued = conn.execute("select count(*) from outbox where sent_at is null").fetchone()[0]
    out = run("--db", db, "send", "--maildir", str(tmp_path / "sent"))
    assert f"{queued} sent, 0 failed" in out
    assert len(list((tmp_path / "sent" / "new").iterdir())) == queued
    game = game_ids(db)[0]
    assert "verified" in run("--db", db, "site", game, "--out", str(tmp_path / "site"))
    assert (tmp_path / "site" / "index.html").exists()
    assert "wrote" in run("--db", db, "report", game, "--all", "--out", str(tmp_path / "report"))
