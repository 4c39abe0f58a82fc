"""The GM's readings of God's Playground (rules version 3 on): ``--option turks_from_habsburgs``
and ``--option habsburg_influence`` recorded when the game is created, named in its record and
its view, refused with a bad value or under an earlier rules version, and played to the end by
the bots."""

from __future__ import annotations

import json

import pytest

from adjudicator.base import GameError
from adjudicator.gods_playground import ENGINE
from adjudicator.versions import pin
from tests.clirun import run
from tests.gods_playground import invariants
from tests.gods_playground.test_contract import SEATS, play_fast

GP_SEATS = [a for s in SEATS for a in ("--seat", f"{s}={s}@example.org")]


def test_the_option_is_recorded_named_in_the_record_and_shown_in_every_view(tmp_path):
    db = str(tmp_path / "p.db")
    run("--db", db, "new", "g1", "--game", "gods-playground", *GP_SEATS, "--seed", "readings-1", "--weak-seed",
        "--option", "turks_from_habsburgs=like-a-raid")
    record = tmp_path / "g1.txt"
    run("--db", db, "export", "g1", "--format", "record", "-o", str(record))
    assert '[Option "turks_from_habsburgs=like-a-raid"]' in record.read_text(encoding="utf-8")
    archive = tmp_path / "g1.json"
    run("--db", db, "export", "g1", "-o", str(archive))
    assert json.loads(archive.read_text(encoding="utf-8"))["options"] == {"turks_from_habsburgs": "like-a-raid"}
    view = json.loads(run("--db", db, "show", "g1", "--seat", "white", "--json"))
    assert view["readings"] == {"turks_from_habsburgs": "like-a-raid", "habsburg_influence": "track"}
    out = tmp_path / "reports"
    run("--db", db, "report", "g1", "--turn", "start", "--seat", "white", "--out", str(out))
    text = "\n".join(p.read_text(encoding="utf-8") for p in out.rglob("*.txt"))
    assert "The GM's readings of the rulebook: turks_from_habsburgs=like-a-raid" in text


def test_without_the_option_the_printed_sentence_is_the_reading(tmp_path):
    state, _ = ENGINE.create(SEATS, {}, "readings-2")
    defaults = {"turks_from_habsburgs": "always", "habsburg_influence": "track"}
    assert state["readings"] == defaults
    assert ENGINE.view(state, "@public")["readings"] == defaults
    from reports.gods_playground.content import READING_DEFAULTS
    from adjudicator.gods_playground.state import READINGS

    assert READING_DEFAULTS == {k: v[0] for k, v in READINGS.items()}  # the reports name only a chosen one


def test_a_bad_value_is_refused_before_the_game_exists(tmp_path):
    db = str(tmp_path / "p.db")
    out = run("--db", db, "new", "g1", "--game", "gods-playground", *GP_SEATS,
              "--option", "turks_from_habsburgs=sometimes", code=1)
    assert "choose one of always, like-a-raid" in out
    assert '"g1"' not in run("--db", db, "status", "--json")
    with pytest.raises(GameError, match="choose one of always, like-a-raid"):
        ENGINE.create(SEATS, {"turks_from_habsburgs": "sometimes"}, "s")


def test_rules_version_2_knows_no_such_option():
    with pytest.raises(GameError, match="came with gods-playground rules version 3"):
        pin(ENGINE, "2").create(SEATS, {"turks_from_habsburgs": "always"}, "s")
    state, _ = pin(ENGINE, "2").create(SEATS, {}, "s")
    assert "readings" not in state and "readings" not in pin(ENGINE, "2").view(state, "@public")


def test_games_with_each_reading_keep_every_invariant():
    for value in ("always", "like-a-raid"):
        for i in range(15):
            final = play_fast(f"readings-{value}-{i}", options={"turks_from_habsburgs": value})
            invariants.check(final)
            assert final["over"] and final["readings"]["turks_from_habsburgs"] == value


def test_a_version_2_game_upgraded_during_recruitment_keeps_the_cubes_it_paid():
    """Upgraded to version 3 in the middle of a recruitment phase, a seat that recruited in a
    province under version 2 (and paid its cube) recruits there again without a cube."""
    from adjudicator.gods_playground.decisions import problem_recruit
    from adjudicator.versions import upgraded_state

    old = pin(ENGINE, "2")
    state, _ = old.create(SEATS, {}, "upgrade-recruit")
    state["phase"], state["round"] = "recruit", 2
    state["q"] = {"order": list(SEATS), "out": [], "i": 0}
    state["money"]["blue"] = 20
    state["prov"]["ukraine"]["units"]["blue"]["inf"] = 1  # recruited there, its one cube spent
    new = upgraded_state(old, "3", state)
    assert new["q"]["paid"] == {"blue": ["ukraine"]}
    assert new["readings"] == {"turks_from_habsburgs": "always", "habsburg_influence": "track"}
    with ENGINE.releases.pinned(ENGINE.releases.get("3")):
        assert problem_recruit(new, "blue", {"province": "ukraine", "cav": 1}) is None
        assert "noble cube" in problem_recruit(new, "blue", {"province": "lithuania", "cav": 1})


def test_habsburg_influence_is_recorded_named_and_changes_the_game(tmp_path):
    """``--option habsburg_influence=dice`` (the 5s alone) is recorded, named in the record and
    the reports, and leaves the Habsburgs' box empty at the start of the round; the default,
    ``track``, puts the round's markers there (Phase 11 Example 2) and names them provisional."""
    db = str(tmp_path / "p.db")
    run("--db", db, "new", "g1", "--game", "gods-playground", *GP_SEATS, "--seed", "readings-3", "--weak-seed",
        "--option", "habsburg_influence=dice")
    record = tmp_path / "g1.txt"
    run("--db", db, "export", "g1", "--format", "record", "-o", str(record))
    assert '[Option "habsburg_influence=dice"]' in record.read_text(encoding="utf-8")
    out = tmp_path / "reports"
    run("--db", db, "report", "g1", "--turn", "start", "--seat", "white", "--out", str(out))
    text = "\n".join(p.read_text(encoding="utf-8") for p in out.rglob("*.txt"))
    assert "The GM's readings of the rulebook: habsburg_influence=dice" in text
    for options, markers in (({"habsburg_influence": "dice"}, 0), ({}, 3)):
        state, events = ENGINE.create(SEATS, options, "readings-4")
        while state["phase"] == "estate":  # the setup's three passes of estates, then the round begins
            seat = ENGINE.pending(state).seats[0]
            state, _ = ENGINE.advance(state, {seat: ENGINE.default_orders(state, seat)}, "readings-4")
        assert state["box"]["habsburgs"]["influence"] == markers
        named = [x for x in ENGINE.view(state, "@public")["provisional"] if "habsburgs.strength[0] = 3" in x]
        assert len(named) == (1 if markers else 0)
        assert [x for x in events[0]["provisional"] if "habsburgs.strength[0] = 3" in x] == named


def test_habsburg_influence_needs_the_board_file_s_track(tmp_path):
    """A GM's board file without the Habsburgs' figures for rounds 1-3 is refused by ``pbem new``
    under ``track`` (naming the field and the other choice), and accepted under ``dice``."""
    from adjudicator.gods_playground.board import BOARD_FILE

    raw = json.loads(open(BOARD_FILE, encoding="utf-8").read())
    for fig in raw["enemies"]["habsburgs"]["strength"][:3]:
        fig["value"] = None
    problems = ENGINE.check_options({"board_json": json.dumps(raw)})
    assert problems == ["board_json: enemies.habsburgs.strength[0-2]: give the Habsburgs' influence markers of "
                        "rounds 1-3 (habsburg_influence=track, the default), or choose --option "
                        "habsburg_influence=dice"]
    assert ENGINE.check_options({"board_json": json.dumps(raw), "habsburg_influence": "dice"}) == []
    raw["enemies"]["habsburgs"]["strength"][1]["value"] = 11
    assert "board_json: enemies.habsburgs.strength[1] must be a whole number 0-10, not 11" in \
        ENGINE.check_options({"board_json": json.dumps(raw), "habsburg_influence": "dice"})


def test_games_with_the_dice_reading_keep_every_invariant():
    for i in range(10):
        final = play_fast(f"readings-dice-{i}", options={"habsburg_influence": "dice"})
        assert final["over"] and final["readings"]["habsburg_influence"] == "dice"
