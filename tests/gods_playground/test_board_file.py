"""A GM's board file (``pbem new ... --option board_json=@FILE``) is checked against the
rulebook's shape at game creation, every problem named at once; a game made before with a
board the check now refuses still opens."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import adjudicator.gods_playground.engine as gp_engine
from adjudicator.gods_playground.board import BOARD_FILE
from adjudicator.gods_playground.boardcheck import board_problems
from pbem.errors import DomainError
from tests.clirun import run

RAW = json.loads(Path(BOARD_FILE).read_text(encoding="utf-8"))
SEATS = ["--seat", "white=w@example.org", "--seat", "blue=b@example.org", "--seat", "red=r@example.org"]


def _broken(change) -> dict:
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


def _no_zero_row(raw):
    raw["royal_army_table"]["value"] = [r for r in raw["royal_army_table"]["value"] if r["min"] != 0]


def _sejm_short(raw):
    raw["sejm_spaces"]["value"] = raw["sejm_spaces"]["value"][:-1]


def _two_on_a_province(raw):
    raw["enemies"]["tatars"]["province"]["value"] = "lithuania"


def _two_on_a_die(raw):
    raw["enemies"]["turks"]["die"]["value"] = 2


def _track_start_high(raw):
    raw["estate_track"]["start"]["value"] = 7


BROKEN = {
    "royal army table without a 0 row": (_no_zero_row, "royal_army_table has no row for a total of 0"),
    "Sejm spaces missing a province": (_sejm_short, "sejm_spaces must list a Sejm space for each province"),
    "two enemies on one province": (_two_on_a_province, "enemies russians, tatars all border lithuania"),
    "two enemies on one die face": (_two_on_a_die, "enemies russians, turks all have die face 2"),
    "an estate track starting above its maximum": (_track_start_high, "estate_track.start (7) must lie within"),
}


def test_the_packaged_board_has_the_rulebooks_shape():
    assert board_problems(json.dumps(RAW)) == []


@pytest.mark.parametrize("name", list(BROKEN))
def test_pbem_new_refuses_a_board_file_naming_the_problem(tmp_path, name):
    change, message = BROKEN[name]
    board = tmp_path / "board.json"
    board.write_text(json.dumps(_broken(change)))
    db = str(tmp_path / "g.db")
    out = run("--db", db, "new", "g1", "--game", "gods-playground", *SEATS, "--option", f"board_json=@{board}", code=1)
    assert message in out and "nothing was created" in out
    assert "Traceback" not in out
    assert "no games" in run("--db", db, "games")


def test_every_problem_of_a_board_file_is_named_at_once(tmp_path):
    def everything(raw):
        for change, _ in BROKEN.values():
            change(raw)
        raw["unit_costs"]["value"]["inf"] = "two"

    board = tmp_path / "board.json"
    board.write_text(json.dumps(_broken(everything)))
    out = run("--db", str(tmp_path / "g.db"), "new", "g1", "--game", "gods-playground", *SEATS,
              "--option", f"board_json=@{board}", code=1)
    for _, message in BROKEN.values():
        assert message in out
    assert "unit_costs.inf must be a whole number" in out
    assert out.count("\n  - board_json: ") == len(BROKEN) + 1  # one line per problem


def test_a_game_made_with_such_a_board_before_the_check_still_opens(service, monkeypatch):
    text = json.dumps(_broken(_two_on_a_die))  # accepted silently before: it plays (die 2 picks the first)
    monkeypatch.setattr(gp_engine.GodsPlaygroundEngine, "check_options", lambda self, options: [])
    service.new_game("g1", "gods-playground", [("white", "w@x.org"), ("blue", "b@x.org"), ("red", "r@x.org")],
                     {"board_json": text}, seed="b" * 40)
    monkeypatch.undo()
    with pytest.raises(DomainError, match="die face 2"):
        service.new_game("g2", "gods-playground", [("white", "w@x.org"), ("blue", "b@x.org"), ("red", "r@x.org")],
                         {"board_json": text}, seed="b" * 40)
    game = service.load("g1", verify=True)
    assert game.pending is not None
