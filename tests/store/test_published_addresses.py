"""No published file carries a seat's mail address, while the game runs or after it ended
(all three games); only the GM's own backup does.

A game is played through the CLI, one seat's orders arriving by a real mail (its From with
the player's name, a Cc to another seat, the address again in the signature) and a seat
allowed a second sender address (``pbem seat --allow``). Then everything a GM may hand out
is made (archive with and without mails, record, site, ``--json`` outputs, and the same from a
database the archive was imported into), once while the game runs and once after it ended.
"""

from __future__ import annotations

import json
import re
import sqlite3
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone
from pathlib import Path

import pytest

from tests.clirun import run
from tests.store.test_running_leaks import SEATS

#: Every address of the test game is at one of these domains (and nothing else is).
ADDRESS = re.compile(r"[\w.+-]+@(?:players|alt|elsewhere)\.example", re.IGNORECASE)


def _mail_orders(tmp_path: Path, db: str, seat: str, password: str, seats: list[str]) -> None:
    """``seat``'s orders (as a bot would write them) sent by mail from its address."""
    scratch = str(tmp_path / "scratch.db")
    with sqlite3.connect(db) as source, sqlite3.connect(scratch) as copy:  # the WAL too
        source.backup(copy)
    run("--db", scratch, "bots", "g1", "--seat", seat, "--out", str(tmp_path / "bot"))
    text = next((tmp_path / "bot").glob(f"*.{seat}.txt")).read_text(encoding="utf-8")
    other = next(s for s in seats if s != seat)
    msg = EmailMessage()
    msg["From"] = f"Player {seat.title()} <{seat.upper()}@Players.Example>"
    msg["To"], msg["Cc"] = "gm@pbem.example", f"{other}@players.example"
    msg["Subject"], msg["Message-ID"] = "orders", "<orders-1@mua.example>"
    msg["Date"] = format_datetime(datetime.now(timezone.utc))
    body = text.replace(f"GAME g1 {seat}", f"GAME g1 {seat} {password}", 1)
    msg.set_content(body + f"\n-- \n{seat}, {seat}@players.example, or {seat}@elsewhere.example\n")
    eml = tmp_path / "orders.eml"
    eml.write_bytes(bytes(msg))
    assert "accepted" in run("--db", db, "ingest", str(eml)), "the mailed orders should be accepted"


def _game(tmp_path: Path, game: str) -> str:
    db = str(tmp_path / "gm.db")
    seats = [a for s in SEATS[game] for a in ("--seat", f"{s}={s}@players.example")]
    created = json.loads(run("--db", db, "new", "g1", "--game", game, *seats, "--seed", f"addr-{game}-0123456789",
                             "--weak-seed", "--json"))
    seat = json.loads(run("--db", db, "status", "g1", "--json"))["awaiting"][0]
    _mail_orders(tmp_path, db, seat, created["seats"][seat]["password"], SEATS[game])
    run("--db", db, "adjudicate", "g1", "--force")  # the mailed orders are applied
    run("--db", db, "seat", "g1", SEATS[game][0], "--allow", f"{SEATS[game][0]}@alt.example")
    return db


def _outputs(out: Path, db: str, over: bool) -> dict[str, str]:
    """Every file and output a GM may hand out (as test_running_leaks, for a running or finished game)."""
    out.mkdir()
    found: dict[str, str] = {}
    archive, bare, record = out / "g1.pbem.json", out / "bare.json", out / "g1.txt"
    found["export --json"] = run("--db", db, "export", "g1", "-o", str(archive), "--json")
    run("--db", db, "export", "g1", "-o", str(bare), "--no-mail")
    run("--db", db, "export", "g1", "--format", "record", "-o", str(record))
    if over:
        run("--db", db, "export", "g1", "--format", "record", "--chance", "-o", str(out / "chance.txt"))
    run("--db", db, "site", "g1", "--out", str(out / "site"))
    run("--db", db, "report", "g1", "--public", "--out", str(out / "public"))
    found["replay FILE --verify --json"] = run("replay", str(archive), "--verify", "--json")
    other = str(out / "other.db")
    found["import --json"] = run("--db", other, "import", str(archive), "--json")
    for args in (["log", "g1", "--json"], ["status", "g1", "--json"], ["replay", "g1", "--verify", "--json"]):
        found["imported: " + " ".join(args)] = run("--db", other, *args)
    run("--db", other, "export", "g1", "-o", str(out / "again.json"))
    for path in sorted(out.rglob("*")):
        if path.is_file() and path.suffix in (".html", ".txt", ".json"):
            found[str(path.relative_to(out))] = path.read_text(encoding="utf-8")
    return found


def _found(outputs: dict[str, str]) -> list[str]:
    return [f"{name}: {m}" for name, text in outputs.items() for m in sorted(set(ADDRESS.findall(text)))]


@pytest.mark.parametrize("game", ["havoc", "gods-playground", "wallenstein"])
def test_no_published_file_holds_a_seat_address_while_running_or_after(tmp_path, game):
    db = _game(tmp_path, game)
    backup = tmp_path / "backup.json"
    run("--db", db, "export", "g1", "--gm-backup", "-o", str(backup))
    assert len(set(ADDRESS.findall(backup.read_text(encoding="utf-8")))) >= 4, "the GM's backup keeps them"
    running = _outputs(tmp_path / "running", db, over=False)
    assert json.loads(running["g1.pbem.json"])["mails"], "the mailed orders are in the archive"
    found = _found(running)
    assert not found, f"{len(found)} addresses published while the game runs, e.g. " + "; ".join(found[:6])
    verified = json.loads(running["replay FILE --verify --json"])
    assert "withheld from a published file" in json.dumps(verified), verified
    run("--db", db, "abandon", "g1", "--reason", f"ended; mail {SEATS[game][1]}@players.example for the scores")
    over = _outputs(tmp_path / "over", db, over=True)
    found = _found(over)
    assert not found, f"{len(found)} addresses published after the game ended, e.g. " + "; ".join(found[:6])
    assert json.loads(over["replay FILE --verify --json"])["verified"]["ok"]
