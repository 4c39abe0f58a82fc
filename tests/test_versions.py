"""Rules versions side by side (adjudicator/versions.py): the release tables, the data files
pinned by hash, the orders a later version brought, and the changelogs written from the tables."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from adjudicator.base import GameError
from adjudicator.registry import get_engine
from adjudicator.versions import Releases, data_bytes, pin, released_name, upgraded_state
from pbem.loop.upgrade import changes

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("wallenstein", "havoc", "gods-playground")


def releases(name: str) -> Releases:
    return get_engine(name).releases


@pytest.mark.parametrize("name", GAMES)
def test_the_newest_release_reads_the_packaged_data_files(name: str) -> None:
    """A change of a data file is a new rules version: the newest release pins today's files."""
    table = releases(name)
    for file, sha in table.newest.data.items():
        assert hashlib.sha256((Path(table.data_dir) / file).read_bytes()).hexdigest() == sha, (
            f"{name} {file} changed but rules {table.newest.version} pins another version of it: "
            "a change of data is a new release (docs/architecture.md, Engine versions)")
    assert get_engine(name).data_files() == dict(table.newest.data)


@pytest.mark.parametrize("name", GAMES)
def test_every_data_file_of_every_release_is_kept_byte_for_byte(name: str) -> None:
    table = releases(name)
    for release in table.all:
        for file, sha in release.data.items():
            assert hashlib.sha256(data_bytes(table.data_dir, file, sha)).hexdigest() == sha
    for kept in (Path(table.data_dir) / "released").glob("*.gz"):
        raw = gzip.decompress(kept.read_bytes())
        stem = kept.name.rsplit("-", 1)[0]
        sha = hashlib.sha256(raw).hexdigest()
        assert kept.name == released_name(stem + ".json", sha), kept


def test_a_data_file_that_is_not_kept_is_refused_by_name() -> None:
    with pytest.raises(GameError, match="rules.json with SHA-256 0000000000000000... is not kept"):
        data_bytes(releases("wallenstein").data_dir, "rules.json", "0" * 64)


@pytest.mark.parametrize("name", GAMES)
def test_pinning_an_unknown_version_names_the_known_ones(name: str) -> None:
    table = releases(name)
    with pytest.raises(GameError, match=f"no rules version '9.9'.*it knows {', '.join(table.versions)}"):
        pin(get_engine(name), "9.9")


def test_constants_read_at_import_come_from_files_no_release_changed() -> None:
    """Module constants are read from today's files once: only figures no release changed."""
    from adjudicator.wallenstein import data

    table = releases("wallenstein")
    for release in table.all:
        with table.pinned(release):
            rules = data.load("rules.json")
            assert tuple(rules["actions"]["order"]) == data.ACTIONS
            assert tuple(rules["bonus_tiles"]["value"]) == data.BONUS_TILES
            assert tuple(rules["buildings"]["value"]) == data.BUILDINGS
            assert tuple(rules["money_cards"]["value"]) == data.MONEY_CARDS
    havoc = releases("havoc")
    assert len({r.data["setup.json"] for r in havoc.all}) == 1  # adjudicator.havoc.tables.SETUP


def test_a_pinned_engine_reads_its_own_data_and_rules() -> None:
    engine = get_engine("wallenstein")
    old, new = pin(engine, "1.0"), pin(engine, "1.1")
    assert old.version == "1.0" and new.version == "1.1" and engine.version == releases("wallenstein").newest.version
    assert old.data_files()["rules.json"] == releases("wallenstein").get("1.0").data["rules.json"]
    assert "FAMINE" not in old.pending(old.create(["a", "b", "c"], {}, "pin")[0]).forms
    assert "FAMINE" in new.pending(new.create(["a", "b", "c"], {}, "pin")[0]).forms
    assert releases("wallenstein").rule("box_pieces") is True  # outside a pinned call: the newest


def test_wallenstein_1_0_refuses_the_orders_1_1_brought() -> None:
    engine = pin(get_engine("wallenstein"), "1.0")
    state, _ = engine.create(["a", "b", "c"], {}, "later-words")
    mine = sorted(n for n, c in state["counties"].items() if c["owner"] == "a")
    famine = engine.validate(state, "a", [{"kind": "famine", "counties": mine[:1]}])
    assert any("FAMINE order came with wallenstein rules version 1.1; this game plays version 1.0" in p.message
               for p in famine)
    attack = {"kind": "action", "action": "attacka", "county": mine[0], "to": mine[1], "armies": 1, "leave": 2}
    assert any("ELSE, LEAVE and IF came with wallenstein rules version 1.1" in p.message
               for p in engine.validate(state, "a", [attack]))
    newest = get_engine("wallenstein")
    assert not any("came with" in p.message for p in newest.validate(state, "a", [attack]))


def test_wallenstein_1_1_refuses_the_words_and_options_1_2_brought() -> None:
    engine = pin(get_engine("wallenstein"), "1.1")
    with pytest.raises(GameError, match="The option bank came with wallenstein rules version 1.2"):
        engine.create(["a", "b", "c"], {"bank": "unlimited"}, "later-words")
    state, _ = engine.create(["a", "b", "c"], {"setup": "draft"}, "later-words")
    newest, _ = get_engine("wallenstein").create(["a", "b", "c"], {"setup": "draft"}, "later-words")
    assert "REFRESH" not in engine.pending(state).forms and "REFRESH" in get_engine("wallenstein").pending(newest).forms
    lines = [{"kind": "refresh"}, {"kind": "draft", "counties": [], "deck": True}]
    problems = engine.validate(state, "a", lines)
    assert any("REFRESH came with wallenstein rules version 1.2; this game plays version 1.1" in p.message
               for p in problems)
    assert any("DRAFT ... DECK came with wallenstein rules version 1.2" in p.message for p in problems)
    assert engine.pending(state).seats == ("a", "b", "c") and get_engine("wallenstein").pending(newest).seats == ("a",)
    assert not get_engine("wallenstein").validate(newest, "a", lines)


def test_havoc_1_refuses_dogs_out_and_loot_look() -> None:
    engine = pin(get_engine("havoc"), "1")
    state, _ = engine.create(["a", "b", "c"], {}, "later-words")
    seat = engine.pending(state).seats[0]
    look = engine.validate(state, seat, [{"kind": "loot", "look": True}, {"kind": "recruit", "card": "deck"},
                                         {"kind": "lay", "card": "lowest"}])
    assert any("LOOT LOOK came with havoc rules version 2" in p.message for p in look)
    dogs = engine.validate(state, seat, [{"kind": "dogsout", "count": 1}])
    assert any("DOGS OUT came with havoc rules version 2" in p.message for p in dogs)


def test_havoc_2_refuses_what_3_brought() -> None:
    """Version 3's orders and options (a recruiting a part at a time, STANDING DOGSOUT, the GM's
    readings) are refused under version 2 with what it takes instead."""
    engine = pin(get_engine("havoc"), "2")
    state, _ = engine.create(["a", "b", "c"], {}, "later-words")
    seat = engine.pending(state).seats[0]
    lone = engine.validate(state, seat, [{"kind": "recruit", "card": "deck"}])
    assert any("recruiting draws exactly two cards: two RECRUIT lines" in p.message for p in lone)
    assert not get_engine("havoc").validate(state, seat, [{"kind": "recruit", "card": "deck"}])
    standing = [{"kind": "standing", "when": "dogsout", "then": [{"kind": "dogsout", "count": 0}]}]
    assert any("STANDING DOGSOUT came with havoc rules version 3" in p.message
               for p in engine.validate_standing(state, seat, standing))
    assert not get_engine("havoc").validate_standing(state, seat, standing)
    with pytest.raises(GameError, match="unknown option 'sic' \\(it came with havoc rules version 3\\)"):
        engine.create(["a", "b", "c"], {"sic": "once"}, "later-words")
    assert get_engine("havoc").create(["a", "b", "c"], {"sic": "once"}, "x")[0]["options"]["sic"] == "once"
    assert "sic" not in state["options"]  # a version 2 game's state is as version 2 made it


def test_havoc_3_upgrade_sets_the_readings_to_version_2s() -> None:
    engine = pin(get_engine("havoc"), "2")
    state, _ = engine.create(["a", "b", "c"], {}, "upgrade-3")
    new = upgraded_state(engine, "3", state)
    assert new["options"]["sic"] == "twice" and new["options"]["small_third"] == "shift"
    assert "sic" not in state["options"]


def test_gods_playground_1_refuses_a_named_estate_in_a_plan() -> None:
    engine = pin(get_engine("gods-playground"), "1")
    state, _ = engine.create(["white", "blue", "red"], {}, "later-words")
    plan = [{"kind": "action", "alts": [{"action": "steward", "province": "lithuania", "value": 2}]}]
    assert any("ON <value> came with gods-playground rules version 2" in p.message
               for p in engine.validate_standing(state, "white", plan))
    assert not get_engine("gods-playground").validate_standing(state, "white", plan)


def test_an_upgraded_god_s_playground_state_carries_version_2_s_flags() -> None:
    old = pin(get_engine("gods-playground"), "1")
    state, _ = old.create(["white", "blue", "red"], {}, "upgrade")
    assert "turks_overran" not in state
    up = upgraded_state(old, "2", state)
    assert up["turks_overran"] is False and up["turkish_habsburgs"] is False and "turks_overran" not in state
    with pytest.raises(GameError, match="not newer"):
        upgraded_state(pin(get_engine("gods-playground"), "2"), "1", up)


@pytest.mark.parametrize("name", GAMES)
def test_the_changelog_in_docs_is_the_release_table(name: str) -> None:
    """docs/changelog-<game>.md lists every version with the players' entries, newest first."""
    text = (ROOT / "docs" / f"changelog-{name}.md").read_text(encoding="utf-8")
    table = releases(name)
    for release in table.all:
        assert f"## Version {release.version} ({release.released})" in text, release.version
        for entry in release.changes:
            assert f"- {entry}" in text, entry
    assert text.index(f"## Version {table.newest.version}") < text.index(f"## Version {table.all[0].version}")


def test_upgrade_mail_lines_stay_within_72_columns() -> None:
    for name in GAMES:
        assert all(len(line) <= 72 for line in changes(list(releases(name).all)))


def test_a_window_reads_its_rule_points_only_for_games_created_in_it() -> None:
    """Games of Wallenstein 1.0 created before 03:20:36 on 2026-11-30 (main read recruit-and-move
    1 as all or nothing then) read that rule point so; later ones and 1.1 do not."""
    table = releases("wallenstein")
    old = table.get("1.0")
    assert old.as_created("2026-11-30T03:00:00+00:00").rules["recruit1_always_recruits"] is False
    assert old.as_created("2026-11-30T03:20:36+00:00").rules["recruit1_always_recruits"] is True
    assert old.as_created("2026-11-30T03:22:00Z").rules["recruit_tile_sets_six"] is False
    assert old.as_created(None) is old and old.as_created("2026-12-01T00:00:00+00:00") is old
    assert table.get("1.1").as_created("2026-11-30T03:00:00+00:00").rules["recruit1_always_recruits"] is True
    engine = get_engine("wallenstein")
    with table.pinned(pin(engine, "1.0", None, "2026-11-30T02:50:00+00:00").release):
        assert table.rule("favour_none_refuses_at") is False
    with table.pinned(pin(engine, "1.0", None, "2026-11-30T02:54:00+00:00").release):
        assert table.rule("favour_none_refuses_at") is True


def test_havoc_1_games_of_the_review_minutes_read_the_review() -> None:
    """Havoc games recorded as version 1 between the review's first commit and version 2's name
    read the review's first three rule points as version 2; before and after, version 1's."""
    old = releases("havoc").get("1")
    inside = old.as_created("2026-11-30T03:25:00+00:00").rules
    assert inside["full_recruits_any_take"] and inside["small_variant_shift"] and inside["peace_fresh_five_seats"]
    assert not inside["dogs_out"]
    for moment in ("2026-11-30T03:22:56+00:00", "2026-11-30T03:32:14+00:00"):
        assert old.as_created(moment) is old


def test_a_window_naming_an_unknown_rule_point_is_refused() -> None:
    from adjudicator.versions import Release

    with pytest.raises(ValueError, match="unknown rule points"):
        Releases("toy", ".", [Release("1", "2026-12-02", {"a": True}, {}, windows=((None, "2026-12-02", {"b": 1}),))])
