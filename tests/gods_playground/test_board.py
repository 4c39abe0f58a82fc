"""The board data file against every figure the rules state (the rules translation's fact
list), its labels, and the GM's ``board_json`` option."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.base import GameError
from adjudicator.gods_playground import ENGINE
from adjudicator.gods_playground.board import BOARD_FILE, compile_board, default_board

RAW = json.loads(Path(BOARD_FILE).read_text(encoding="utf-8"))
B = default_board()


def _figures(node, where=""):
    if isinstance(node, dict) and "value" in node and "status" in node:
        yield where, node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from _figures(v, f"{where}.{k}" if where else k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _figures(v, f"{where}[{i}]")


def test_every_figure_is_labelled_and_sourced():
    figures = list(_figures(RAW))
    assert len(figures) > 40
    for where, fig in figures:
        assert fig["status"] in ("verified", "consistent", "provisional"), where
        assert fig.get("source"), where


def test_strength_tracks_agree_with_the_stated_facts():
    assert B["enemies"]["tatars"]["strength"][1] == 7          # fact 35
    assert B["enemies"]["turks"]["strength"][2] == 12          # fact 36
    assert B["enemies"]["turks"]["strength"][3] == 3           # fact 37
    assert B["turks_round4_with_box"] == 10                    # fact 37, main text
    assert B["enemies"]["habsburgs"]["strength"][:3] == [None, None, None]


def test_round_one_and_two_strengths_agree_with_the_examples_and_the_publisher():
    s = {e: B["enemies"][e]["strength"] for e in ("black", "russians", "tatars", "turks")}
    # Treefrog page: "In the first turn the major threats are ... the Teutonic Knights and the Tatars"
    assert min(s["black"][0], s["tatars"][0]) > max(s["russians"][0], s["turks"][0])
    # fact 38: the Turks' total in the round-2 examples is 5 (red's 2 + 2 + 1 hit cubes, exactly
    # their strength); the Events example adds at most one Turkish cube (dice 2, 2, 4, 6)
    assert s["turks"][1] in (4, 5)


def test_box_vp_agree_with_the_stated_facts():
    assert B["enemies"]["turks"]["vp"] == 5                    # fact 71
    assert B["enemies"]["tatars"]["vp"] // 2 == 1              # fact 72: a tie of two gives 1 each


def test_royal_army_table_and_court_troops():
    row = [r for r in B["royal_table"] if r["min"] <= 8][-1]
    assert (row["inf"], row["cav"], row["can"]) == (2, 1, 1)   # fact 26
    assert B["court"][0] == {"inf": 2, "cav": 2, "can": 0}     # fact 25
    assert B["royal_max"] == {"inf": 4, "cav": 4, "can": 1}    # fact 28


def test_estate_rows_and_tracks():
    assert (B["track"]["start"], B["track"]["min"], B["track"]["max"]) == (3, 1, 5)  # facts 15, 20
    for p, prov in B["provinces"].items():
        assert prov["estates"] == sorted(prov["estates"]), p  # fact 48
    row = B["provinces"]["lithuania"]["estates"]
    assert len(row) >= 4 and 3 in row and 4 in row


def test_the_end_game_example_fits_lithuania():
    """Fact 75: red 9 (a town on a printed 3) + 4 = 13, blue 10, white 4, from one row."""
    row = B["provinces"]["lithuania"]["estates"]
    idx = range(len(row))
    found = False
    for r3, r4, w in itertools.permutations(idx, 3):
        if (row[r3], row[r4], row[w]) != (3, 4, 4):
            continue
        rest = [i for i in idx if i not in (r3, r4, w)]
        for k in range(1, len(rest) + 1):
            if any(sum(row[i] for i in c) == 10 for c in itertools.combinations(rest, k)):
                found = True
    assert found


def test_geography_and_dice():
    assert B["province_order"][:2] == ["royal_prussia", "lithuania"]            # fact 46
    assert set(B["enemies"]["black"]["raids"]) == {"lithuania", "greater_poland"}  # fact 44
    dice = {e: B["enemies"][e]["die"] for e in B["enemies"]}
    assert dice == {"black": 1, "russians": 2, "tatars": 3, "turks": 4, "habsburgs": 5}  # fact 33
    assert B["enemies"]["russians"]["province"] == "lithuania"                  # fact 32
    assert B["enemies"]["turks"]["province"] == "little_poland"
    assert B["costs"] == {"inf": 2, "cav": 4, "can": 6, "cossack": 2}           # fact 58


def test_every_view_lists_the_provisional_figures():
    state, _ = ENGINE.create(["white", "blue", "red"], {}, "s")
    view = ENGINE.view(state, "@public")
    assert view["provisional"] and len(view["provisional"]) == len(B["provisional"])
    assert any("lithuania.estates" in p for p in view["provisional"])


def test_a_gm_board_file_is_used_and_a_bad_one_refused_naming_the_field():
    raw = json.loads(json.dumps(RAW))
    raw["enemies"]["russians"]["vp"] = {"value": 6, "status": "verified", "source": "printed board"}
    state, _ = ENGINE.create(["white", "blue", "red"], {"board_json": json.dumps(raw)}, "s")
    assert ENGINE.view(state, "@gm")["enemies"]["russians"]["vp"] == 6
    raw["enemies"]["tatars"]["strength"][1]["value"] = "seven"
    with pytest.raises(GameError, match=r"enemies\.tatars\.strength\[1\]"):
        compile_board(raw)
    del raw["provinces"]["ukraine"]["estates"]
    with pytest.raises(GameError, match=r"provinces\.ukraine\.estates"):
        compile_board(raw)


def test_province_order_may_be_any_order_the_enemy_order_only_the_printed_one():
    raw = json.loads(json.dumps(RAW))
    raw["province_order"]["value"] = list(reversed(raw["province_order"]["value"]))
    assert compile_board(raw)["province_order"] == raw["province_order"]["value"]
    raw["province_order"]["value"] = raw["province_order"]["value"][1:]
    with pytest.raises(GameError, match="province_order must list royal_prussia, lithuania"):
        compile_board(raw)
    raw = json.loads(json.dumps(RAW))
    raw["enemy_order"]["value"] = list(reversed(raw["enemy_order"]["value"]))
    with pytest.raises(GameError, match=r"enemy_order must be black, russians, .*habsburgs \(fact 31\)"):
        compile_board(raw)


def test_cli_refuses_a_bad_board_before_creating_anything(tmp_path):
    bad = tmp_path / "board.json"
    raw = json.loads(json.dumps(RAW))
    raw["estate_track"]["max"] = {"value": 50, "status": "verified", "source": "x"}
    bad.write_text(json.dumps(raw))
    db = tmp_path / "p.db"
    cmd = [sys.executable, "-m", "pbem", "--db", str(db), "new", "g", "--game", "gods-playground",
           "--seat", "white=w@x.org", "--seat", "blue=b@x.org", "--seat", "red=r@x.org",
           "--option", f"board_json=@{bad}"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 1 and "estate_track.max" in out.stderr
    status = subprocess.run([sys.executable, "-m", "pbem", "--db", str(db), "status", "--json"],
                            capture_output=True, text=True)
    assert '"g"' not in status.stdout
