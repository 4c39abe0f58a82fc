"""An imported running game (its seed not known here) is listed and its chain verifiable, and
never breaks another command (the reading side)."""

from __future__ import annotations

import json

from tests.clirun import SEATS, run as _run


def test_imported_running_game_is_listed_verified_and_breaks_nothing(tmp_path):
    gm, archive, db = str(tmp_path / "gm.db"), str(tmp_path / "w1.json"), str(tmp_path / "a.db")
    _run("--db", gm, "new", "w1", "--game", "wallenstein", *SEATS, "--seed", "secret", "--weak-seed")
    _run("--db", gm, "bots", "w1", "--seat", "red", "--seat", "blue", "--seat", "yellow")
    _run("--db", gm, "adjudicate", "w1")
    _run("--db", gm, "export", "w1", "-o", archive)
    _run("--db", db, "new", "w2", "--game", "wallenstein", *SEATS)
    _run("--db", db, "import", archive)

    rows = {r["game"]: r for r in json.loads(_run("--db", db, "status", "--json"))}
    assert set(rows) == {"w1", "w2"}
    w1 = rows["w1"]
    assert w1["seed_known"] is False and w1["turns_recorded"] == 1 and w1["last_turn"] == "1618-spring"
    assert rows["w2"]["turn"] == "1618-spring" and rows["w2"]["awaiting"] == ["red", "blue", "yellow"]
    assert "seed is not known here" in _run("--db", db, "status")
    assert json.loads(_run("--db", db, "status", "w1", "--json"))["seed_known"] is False

    verified = json.loads(_run("--db", db, "replay", "w1", "--verify", "--json"))
    assert verified["replayed"] is False and verified["checked"] and verified["not_checked"]
    assert "not checked:" in _run("--db", db, "replay", "w1", "--verify")
    assert "--verify" in _run("--db", db, "replay", "w1", code=1)
    assert "seed is not known" in _run("--db", db, "report", "w1", "--out", str(tmp_path / "r"), code=1)
    assert "w1" in _run("--db", db, "games") and "w2" in _run("--db", db, "games")
    _run("--db", db, "bots", "w2", "--seat", "red", "--seat", "blue", "--seat", "yellow")
    assert "adjudicated 1618-spring" in _run("--db", db, "adjudicate", "w2")
