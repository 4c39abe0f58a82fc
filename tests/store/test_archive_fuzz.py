"""Tampered and malformed archives through ``pbem replay FILE --verify`` and ``pbem import``:
each is refused with a one-line error naming the problem (never a traceback), and none that
says something other than the genuine archive is taken as genuine. (The slow campaign,
tests/test_campaign.py, runs many more of them.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.tamper import check, mutants
from tests.clirun import run

SEATS = {"havoc": ["yellow", "red", "black"], "wallenstein": ["red", "blue", "yellow"]}


def _archive(tmp_path: Path, game: str, over: bool) -> str:
    db = str(tmp_path / f"{game}.db")
    seats = [a for s in SEATS[game] for a in ("--seat", f"{s}={s}@players.example")]
    run("--db", db, "new", "g1", "--game", game, *seats, "--seed", f"fuzz-{game}-0123456789", "--weak-seed")
    for _ in range(2):
        awaiting = json.loads(run("--db", db, "status", "g1", "--json"))["awaiting"]
        run("--db", db, "bots", "g1", *[a for s in awaiting for a in ("--seat", s)])
        run("--db", db, "adjudicate", "g1")
    if over:
        run("--db", db, "abandon", "g1", "--reason", "enough for the test")
    path = tmp_path / f"{game}.json"
    run("--db", db, "export", "g1", "-o", str(path))
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("game,over", [("havoc", False), ("wallenstein", True)])
def test_tampered_and_malformed_archives_get_one_line_errors_and_no_forgery_is_accepted(tmp_path, game, over):
    genuine = _archive(tmp_path, game, over)
    assert "Error" not in run("replay", str(tmp_path / f"{game}.json"), "--verify")
    problems, kinds = [], set()
    for n, (name, text) in enumerate(mutants(genuine, 40, seed=f"fuzz-{game}")):
        path = tmp_path / f"m{n}.json"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        done = check(path, name, json.loads(genuine), tmp_path / f"m{n}.db")
        kinds.add(name.split(" at ")[0].split(":")[0])
        problems += [f"{name}: {t}" for t in done.tracebacks]
        if done.forgery_accepted:
            problems.append(f"{name}: a changed archive imported as genuine")
    assert not problems, f"{len(problems)} problems, e.g. " + "; ".join(problems[:5])
    assert {"events an object", "a duplicate key", "a 5,001-digit integer", "truncated"} <= kinds


@pytest.mark.parametrize("change", ["removed", "another game"])
def test_an_event_that_names_no_game_or_another_game_is_refused(tmp_path, change):
    """Every event of an archive carries its game; one without it, or naming another game, is
    refused in one line by verification and import (the import would otherwise file it under
    the header's game, saying something the archive does not)."""
    archive = json.loads(_archive(tmp_path, "wallenstein", True))
    event = archive["events"][3]
    if change == "removed":
        del event["game"]
    else:
        event["game"] = "g2"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    verified = run("replay", str(path), "--verify", code=1)
    imported = run("--db", str(tmp_path / "other.db"), "import", str(path), code=1)
    for out in (verified, imported):
        assert out.startswith("Error: ") and len(out.strip().splitlines()) == 1, out
        assert "event 4" in out
