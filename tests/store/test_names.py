"""One rule for game ids and seat names on every path in (new, import,
record), and report paths that cannot leave ``--out``."""

from __future__ import annotations

import copy

import pytest
from click.testing import CliRunner

import pbem.loop.creating
from pbem.archives.archive import export_game, import_archive, verify_archive
from pbem.cli.main import cli
from pbem.errors import DomainError
from pbem.archives.records import import_record, record_of
from pbem.loop.service import Service
from pbem.store.db import Store, event_hash
from tests.store.helpers import SEATS
from turns.record import write_record

BAD_IDS = ["../../evil", "", "x'; DROP TABLE games; --", "g" * 300, "w1\n", "a/b", "-w1"]
BAD_SEATS = ["../../../../x/PWNED", "", "red\n", "r" * 300, "a b", "../red"]


def _played(service: Service) -> None:
    service.new_game("g1", "toy-dice-duel", [("red", "r@x.org"), ("blue", "b@x.org")], {"rounds": "1"},
                     "names-seed")
    service.adjudicate("g1", force=True)


def _rechain(archive, game_id):
    prev = "0" * 64
    for e in archive["events"]:
        e["game"], e["prev_hash"] = game_id, prev
        e["hash"] = prev = event_hash(game_id, e["seq"], e["type"], e["version"], e["payload"],
                                      e["recorded_at"], e["prev_hash"])


@pytest.mark.parametrize("bad", BAD_IDS, ids=range(len(BAD_IDS)))
def test_archive_with_a_bad_game_id_is_refused(tmp_path, service, bad):
    _played(service)
    archive = copy.deepcopy(export_game(service.store, "g1"))
    archive["game"] = bad
    archive["events"][0]["payload"]["game"] = bad
    _rechain(archive, bad)  # a forger recomputes the whole chain
    with pytest.raises(DomainError, match="invalid game id"):
        import_archive(Store(tmp_path / "x.db"), archive)
    with pytest.raises(DomainError, match="invalid game id"):
        verify_archive(archive)


@pytest.mark.parametrize("bad", BAD_SEATS, ids=range(len(BAD_SEATS)))
def test_archive_with_a_bad_seat_is_refused(tmp_path, service, bad):
    _played(service)
    archive = copy.deepcopy(export_game(service.store, "g1"))
    archive["seats"][0] = bad
    archive["events"][0]["payload"]["seats"][0]["name"] = bad
    _rechain(archive, "g1")
    with pytest.raises(DomainError, match="invalid seat name"):
        import_archive(Store(tmp_path / "x.db"), archive)


@pytest.mark.parametrize("bad", ["../../../../x/PWNED", "r" * 300, "../red", "1red"], ids=range(4))
def test_record_with_a_bad_seat_is_refused(tmp_path, service, bad):
    _played(service)
    text = write_record(record_of(service.load("g1"), service.store.events("g1")))
    forged = text.replace('[Seat "red"]', f'[Seat "{bad}"]').replace("- red", f"- {bad}")
    fresh = Store(tmp_path / "x.db")
    with pytest.raises(DomainError, match="invalid seat name"):
        import_record(fresh, forged, "g2")
    assert fresh.game_ids() == []


@pytest.mark.parametrize("bad", BAD_IDS, ids=range(len(BAD_IDS)))
def test_record_with_a_bad_game_id_is_refused(tmp_path, service, bad):
    _played(service)
    text = write_record(record_of(service.load("g1"), service.store.events("g1")))
    with pytest.raises(DomainError, match="invalid game id"):
        import_record(Store(tmp_path / "x.db"), text, bad or "\n")


def test_report_cannot_write_outside_out(tmp_path, monkeypatch):
    """A database that already holds a hostile seat name (from before this rule)."""
    monkeypatch.setattr(pbem.loop.creating, "check_seat_name", lambda s: s)
    store = Store(tmp_path / "p.db")
    service = Service(store)
    service.new_game("w1", "wallenstein", [("../../PWNED", "a@x.org"), *SEATS[1:]], {}, "names-seed-0123456789")
    service.adjudicate("w1", force=True)
    out = tmp_path / "deep" / "out"
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "report", "w1", "--out", str(out)])
    assert result.exit_code == 1 and "refusing to write" in result.output
    assert not (tmp_path / "deep" / "PWNED").exists() and not (tmp_path / "PWNED").exists()
    written = [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix in (".txt", ".html", ".png")]
    assert all(out in p.parents for p in written)


def test_trailing_newline_in_a_game_id_is_refused(service):
    with pytest.raises(DomainError, match="invalid game id"):
        service.new_game("w1\n", "toy-dice-duel", [("red", "r@x.org"), ("blue", "b@x.org")], {}, "s")
