"""A shortened archive must not verify, and verification says which check
found it (the header's length and final hash, or the missing end-of-game events)."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from pbem.archives.archive import export_game, import_archive, verify_archive
from pbem.cli.main import cli
from pbem.errors import DomainError
from pbem.loop.service import Service
from pbem.store.db import Store


def _finished(service: Service) -> dict:
    service.new_game("g1", "toy-dice-duel", [("red", "r@x.org"), ("blue", "b@x.org")], {"rounds": "3"},
                     "truncation-seed")
    for _ in range(3):
        service.adjudicate("g1", force=True)
    archive = export_game(service.store, "g1")
    assert archive["over"] and archive["events"][-1]["type"] == "SeedRevealed"
    assert verify_archive(archive).ok
    return copy.deepcopy(archive)


def _drop_seed_event(a):
    a["events"] = a["events"][:-1]


def _drop_seed_event_and_seed(a):
    a["events"], a["seed"] = a["events"][:-1], None


def _drop_last_turn_and_seed(a):
    a["events"], a["seed"], a["turns"] = a["events"][:-2], None, a["turns"][:-1]


def _drop_last_turn_seed_and_flag(a):
    _drop_last_turn_and_seed(a)
    a["over"] = False


@pytest.mark.parametrize("cut,named", [
    (_drop_seed_event, "does not end with the SeedRevealed"),
    (_drop_seed_event_and_seed, "does not end with the SeedRevealed"),
    (_drop_last_turn_and_seed, "header says 5 events"),
    (_drop_last_turn_seed_and_flag, "header says 5 events"),
], ids=lambda v: getattr(v, "__name__", v))
def test_shortened_archive_does_not_verify(tmp_path, service, cut, named):
    archive = _finished(service)
    cut(archive)
    result = verify_archive(archive)
    assert not result.ok and any(named in p and "shortened" in p for p in result.problems), result.problems
    with pytest.raises(DomainError, match="not genuine"):
        import_archive(Store(tmp_path / "x.db"), archive)
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(archive))
    done = CliRunner().invoke(cli, ["--db", str(tmp_path / "y.db"), "replay", str(path), "--verify"])
    assert done.exit_code == 1 and "shortened" in done.output


def test_header_says_over_but_no_end(service):
    archive = _finished(service)
    _drop_last_turn_and_seed(archive)
    archive["events_count"], archive["last_hash"] = len(archive["events"]), archive["events"][-1]["hash"]
    problems = verify_archive(archive).problems
    assert any("header says the game is over" in p for p in problems), problems


def test_older_archive_format_still_reads_with_a_warning(service):
    archive = _finished(service)
    archive["format"] = "pbem-archive/1"
    for key in ("events_count", "last_hash", "over"):
        del archive[key]
    result = verify_archive(archive)
    assert result.ok and any("no length in its header" in w for w in result.warnings)
