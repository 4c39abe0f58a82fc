"""``pbem replay`` as a program calls it (pbem.archives.replaying): a game of the database or
an archive file rebuilt and verified, with no command line."""

from __future__ import annotations

import json

import pytest

from pbem.archives.archive import export_game
from pbem.archives.replaying import replay
from pbem.errors import DomainError

SEED = "replay-api-" + "x" * 50


def _played(service, rounds: int = 2) -> None:
    service.new_game("g1", "toy-dice-duel", [("red", "a@x.org"), ("blue", "b@x.org")], {"rounds": str(rounds)}, SEED)
    for _ in range(rounds):
        service.adjudicate("g1", force=True)


def test_a_game_of_the_database_is_rebuilt_verified_and_its_progress_told_per_turn(service, store):
    _played(service)
    told: list[tuple[str, int, int]] = []

    def progress(game_id, turns):
        from contextlib import nullcontext

        return nullcontext(lambda n: told.append((game_id, turns, n)))

    done = replay(lambda: store, "g1", verify=True, progress=progress)
    assert done.game is not None and done.game.over and done.chain.ok and done.chain.replayed
    assert told and {(g, t) for g, t, _ in told} == {("g1", 2)}
    first = replay(lambda: store, "g1", until="round-1")
    assert [t["turn"] for t in first.game.turns] == ["round-1"] and first.chain is None
    with pytest.raises(DomainError, match="no adjudicated turn 'round-9'"):
        replay(lambda: store, "g1", until="round-9")


def test_an_archive_file_needs_no_database_and_a_tampered_one_does_not_verify(service, store, tmp_path):
    _played(service)
    path = tmp_path / "g1.json"
    archive = export_game(store, "g1")
    path.write_text(json.dumps(archive), encoding="utf-8")

    def no_database():
        raise AssertionError("an archive file is replayed without a database")

    done = replay(no_database, str(path), verify=True)
    assert done.game is not None and done.game_id == "g1" and done.chain.ok
    archive["events"][1]["payload"]["turn"] = "round-7"
    path.write_text(json.dumps(archive), encoding="utf-8")
    with pytest.raises(DomainError, match="g1 does not verify"):
        replay(no_database, str(path), verify=True)


def test_an_archive_is_imported_verified_and_a_bad_file_or_option_is_refused(service, store, tmp_path):
    from pbem.archives.importing import import_file
    from pbem.store.db import Store

    _played(service)
    path = tmp_path / "g1.json"
    path.write_text(json.dumps(export_game(store, "g1")), encoding="utf-8")
    other = Store(tmp_path / "other.db")
    with pytest.raises(DomainError, match="--until goes with a record"):
        import_file(other, str(path), until="round-1")
    done = import_file(other, str(path))
    assert done.kind == "archive" and done.verification.ok and done.rules["engine"] == "toy-dice-duel"
    assert other.game_ids() == ["g1"]
    bad = tmp_path / "bad.txt"
    bad.write_text("this is no record\n", encoding="utf-8")
    with pytest.raises(DomainError, match=str(bad)):
        import_file(other, str(bad))
    assert other.game_ids() == ["g1"]


def test_a_game_is_exported_as_an_archive_or_a_record_and_chance_waits_for_the_end(service, store, tmp_path):
    from pbem.archives.exporting import export_file

    service.new_game("g1", "toy-dice-duel", [("red", "a@x.org"), ("blue", "b@x.org")], {"rounds": "2"}, SEED)
    service.adjudicate("g1", force=True)
    with pytest.raises(DomainError, match="is running"):
        export_file(service, "g1", str(tmp_path / "g1.txt"), "record", chance=True)
    with pytest.raises(DomainError, match="--chance goes with --format record"):
        export_file(service, "g1", str(tmp_path / "g1.json"), chance=True)
    size = export_file(service, "g1", str(tmp_path / "g1.json"))
    assert size == (tmp_path / "g1.json").stat().st_size and json.loads((tmp_path / "g1.json").read_text())["game"] == "g1"
    assert export_file(service, "g1", str(tmp_path / "g1.txt"), "record") > 0
    assert "g1" in (tmp_path / "g1.txt").read_text(encoding="utf-8")
