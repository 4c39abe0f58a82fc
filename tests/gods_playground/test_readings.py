"""The GM's readings of God's Playground (rules version 3 on): ``--option turks_from_habsburgs``
recorded when the game is created, named in its record and its view, refused with a bad value
or under an earlier rules version, and played to the end by the bots."""

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
    assert view["readings"] == {"turks_from_habsburgs": "like-a-raid"}
    out = tmp_path / "reports"
    run("--db", db, "report", "g1", "--turn", "start", "--seat", "white", "--out", str(out))
    text = "\n".join(p.read_text(encoding="utf-8") for p in out.rglob("*.txt"))
    assert "The GM's readings of the rulebook: turks_from_habsburgs=like-a-raid" in text


def test_without_the_option_the_printed_sentence_is_the_reading(tmp_path):
    state, _ = ENGINE.create(SEATS, {}, "readings-2")
    assert state["readings"] == {"turks_from_habsburgs": "always"}
    assert ENGINE.view(state, "@public")["readings"] == {"turks_from_habsburgs": "always"}
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
    assert new["q"]["paid"] == {"blue": ["ukraine"]} and new["readings"] == {"turks_from_habsburgs": "always"}
    with ENGINE.releases.pinned(ENGINE.releases.get("3")):
        assert problem_recruit(new, "blue", {"province": "ukraine", "cav": 1}) is None
        assert "noble cube" in problem_recruit(new, "blue", {"province": "lithuania", "cav": 1})
