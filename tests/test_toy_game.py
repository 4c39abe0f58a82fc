"""A fourth game needs no shared module to name it: the toy dice race (tests/toygame/), added
to the registry at run time, is created, played by real order mails, adjudicated, reported,
exported, imported and written as a record through the command line, and every name,
colour, hint and report comes from its own registry entry."""

from __future__ import annotations

import json
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from adjudicator import games
from reports.enginetext import Template
from pbem.cli.main import cli
from tests import toygame
from tests.test_game_names import shared_files

SEATS = ("orange", "green")


@pytest.fixture
def toy():
    name = toygame.register()
    yield name
    toygame.unregister()


def pbem(db, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == code, (args, result.output)
    return result.output


def order_mail(game_id: str, seat: str, password: str, turn: str, text: str) -> bytes:
    """An order mail as a player's client sends it (plain text, UTF-8)."""
    msg = EmailMessage()
    msg["From"] = f"{seat.title()} <{seat}@example.org>"
    msg["To"] = "pbem@localhost"
    msg["Subject"] = f"orders {game_id} {turn}"
    msg["Date"] = format_datetime(datetime.now(timezone.utc))
    msg["Message-ID"] = f"<{game_id}.{turn}.{seat}@example.org>"
    msg.set_content(f"Hello,\n\nGAME {game_id} {seat} {password}\n{text}\nEND\n")
    return bytes(msg)


def test_the_toy_game_plays_end_to_end_through_its_registry_entry(toy, tmp_path):
    db, other = tmp_path / "gm.db", tmp_path / "archive.db"
    assert toy in games.names()
    created = json.loads(pbem(db, "new", "r1", "--game", toy, "--seat", "orange=orange@example.org",
                              "--seat", "green=green@example.org", "--seed", "toy-seed", "--weak-seed", "--json"))
    passwords = {seat: s["password"] for seat, s in created["seats"].items()}
    shown = json.loads(pbem(db, "show", "r1", "--json"))
    assert shown["seat_colors"] == {"orange": "orange", "green": "green"}  # the entry's palette

    bids = {"round-1": {"orange": 2, "green": 0}, "round-2": {"orange": 1, "green": 3},
            "round-3": {"orange": 0, "green": 0}}
    for turn, orders in bids.items():
        for seat, bid in orders.items():
            path = tmp_path / f"{turn}-{seat}.eml"
            path.write_bytes(order_mail("r1", seat, passwords[seat], turn, f"BID {bid}"))
            out = json.loads(pbem(db, "ingest", str(path), "--json"))
            assert out[0]["outcome"] == "accepted", json.dumps(out[0]["blocks"])
        assert json.loads(pbem(db, "status", "r1", "--json"))["submitted"] == sorted(SEATS)
        pbem(db, "adjudicate", "r1")

    outbox = json.loads(pbem(db, "outbox", "--json"))
    subjects = [m["subject"] for m in outbox]
    assert any("after race round 1: report for orange" in s for s in subjects), subjects  # its turn names
    replies = [m for m in outbox if m["kind"] == "reply"]
    assert len(replies) == 6
    status = json.loads(pbem(db, "status", "r1", "--json"))
    top = [s for s, v in status["scores"].items() if v == max(status["scores"].values())]
    assert status["over"] and status["winner"] == (top[0] if len(top) == 1 else None)

    pbem(db, "report", "r1", "--turn", "round-2", "--out", str(tmp_path / "reports"))
    text = (tmp_path / "reports" / "round-2" / "orange" / "report.txt").read_text(encoding="utf-8")
    assert "Dice Race r1: report for orange, after race round 2" in text
    assert "orange:" in text and "tokens" in text
    public = (tmp_path / "reports" / "round-2" / "public" / "report.txt").read_text(encoding="utf-8")
    assert "tokens" not in public  # a seat's tokens are its own

    pbem(db, "export", "r1", "-o", str(tmp_path / "r1.pbem.json"))
    pbem(db, "export", "r1", "--format", "record", "--chance", "-o", str(tmp_path / "r1.record.txt"))
    record = (tmp_path / "r1.record.txt").read_text(encoding="utf-8")
    assert f'[Engine "{toy}"]' in record and "BID 3" in record
    assert "CHANCE round 1 dice: " in record  # the entry's label root and prefix
    imported = json.loads(pbem(other, "import", str(tmp_path / "r1.pbem.json"), "--json"))
    assert imported.get("game", imported.get("game_id", "r1")) == "r1"
    assert json.loads(pbem(other, "status", "r1", "--json"))["scores"] == status["scores"]
    pbem(other, "import", str(tmp_path / "r1.record.txt"), "--as", "r1-record")
    assert json.loads(pbem(other, "status", "r1-record", "--json"))["scores"] == status["scores"]

    template = pbem(db, "record", "template", "--game", toy, "--seat", "orange", "--seat", "green")
    assert "round N dice: rolled 4" in template  # the entry's transcriber's hint
    assert "CHANCE round 1 dice: rolled" in template


def test_no_shared_module_names_the_toy_game(toy):
    from tests.test_game_names import ROOT

    for relative in shared_files():
        assert toy not in (ROOT / relative).read_text(encoding="utf-8", errors="replace"), relative


def test_a_game_without_an_entry_gets_the_generic_words(toy):
    from reports.gamenames import game_title, played, turn_name

    assert game_title(toy) == "Dice Race" and game_title(toy, {"rounds": "5"}) == "Dice Race, the long race"
    assert turn_name(toy, "round-2") == "race round 2" and played(toy, ["round-1"]) == "1 race rounds"
    toygame.unregister()
    assert game_title(toy) == toy and turn_name(toy, "round-2") == "round-2"
    assert played(toy, ["round-1", "round-2"]) == "2 turns"
    toygame.register()


def test_standing_orders_name_the_decision_in_the_games_own_words(toy):
    from adjudicator.base import Pending
    from pbem.mailout.turnmail import _standing_when

    first, later = (Pending(("red",), f"b2/battle/round{n}/red", "battle", False, (), {"round": n}) for n in (1, 2))
    assert [_standing_when("havoc", p) for p in (first, later)] == ["join", "round"]  # the entry's standing_when
    assert _standing_when(toy, first) == "battle"  # a game without one: the decision's kind


def test_the_toy_game_brings_its_own_problem_texts_or_none(toy):
    """The templates a problem is read against come from each game's entry (``problems``): the
    toy game's while it is registered, none of it without its entry (shown as written)."""
    from pbem.mailout import problemtext

    assert problemtext.template_of("bid must be 0-3") == Template("bid must be 0-{most}")
    assert problemtext.translate(toy, "bid must be 0-3") == "bid must be 0-3"
    toygame.unregister()
    try:
        assert problemtext.template_of("bid must be 0-3") is None
        assert problemtext.template_of("unknown seat x") is not None  # the shared ones stay
    finally:
        toygame.register()


def test_the_game_options_help_lists_a_game_added_at_run_time(toy):
    """``--game``'s help is written when it is shown, from the registry: the toy game, added
    after the command line was loaded, is listed; once it is gone, it is not."""
    import re

    def listed(*command: str) -> str:
        result = CliRunner().invoke(cli, [*command, "--help"], terminal_width=400)
        assert result.exit_code == 0, result.output
        return " ".join(re.findall(r"--game TEXT\s+(.*)", result.output))

    for command in (("new",), ("demo",), ("record", "template")):
        assert toy in listed(*command) and "havoc" in listed(*command), (command, listed(*command))
    toygame.unregister()
    try:
        assert toy not in listed("new") and "havoc" in listed("new")
    finally:
        toygame.register()
