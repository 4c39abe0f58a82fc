"""Archives and records: export -> import -> replay --verify, and tamper detection."""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from pbem.archives.archive import export_game, import_archive, verify_archive
from pbem.cli.main import cli
from pbem.errors import DomainError
from pbem.store.events import EngineVersionMismatch, fold
from pbem.archives.records import import_record, record_of
from pbem.loop.service import Service
from pbem.store.db import Store, event_hash
from turns.record import Record, RecordTurn, read_record, write_record


def _play(service: Service, game_id: str, seed: str, turns: int = 3, orders=True) -> None:
    service.new_game(game_id, "toy-dice-duel", [("red", "r@x.org"), ("blue", "b@x.org"), ("green", "g@x.org")],
                     {"rounds": "3"}, seed)
    for t in range(turns):
        if orders:
            service.submit(game_id, "red", [{"kind": "bid", "value": (t + 1) % 3}], "BID", {"kind": "gm"})
            service.submit(game_id, "blue", [{"kind": "bid", "value": 1}], "BID 1", {"kind": "gm"})
        service.adjudicate(game_id, force=True)


@pytest.mark.parametrize("seed", ["alpha", "beta", "gamma"])
def test_export_import_replay_round_trip(tmp_path, service, seed):
    _play(service, "g1", seed)
    archive = export_game(service.store, "g1")
    assert archive["seed"] == seed and len(archive["turns"]) == 3
    fresh = Store(tmp_path / "other.db")
    result = import_archive(fresh, json.loads(json.dumps(archive)))
    assert result.ok and result.replayed
    assert Service(fresh).load("g1", verify=True).state_hash == service.load("g1").state_hash
    assert [e.hash for e in fresh.events("g1")] == [e["hash"] for e in archive["events"]]
    # the published file is chained again over what it holds (no seat address); the GM's backup is the log
    backup = export_game(service.store, "g1", gm_backup=True)
    assert [e["hash"] for e in backup["events"]] == [e.hash for e in service.store.events("g1")]
    assert "r@x.org" in json.dumps(backup) and "r@x.org" not in json.dumps(archive)


def test_running_game_exports_without_seed(service):
    _play(service, "g1", "secret-seed", turns=1)
    archive = export_game(service.store, "g1")
    assert archive["seed"] is None and "secret-seed" not in json.dumps(archive)
    result = verify_archive(archive)
    assert result.ok and not result.replayed and "seed is not revealed" in result.warnings[0]


def _rechain(archive):
    prev = "0" * 64
    for e in archive["events"]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(archive["game"], e["seq"], e["type"], e["version"], e["payload"],
                                      e["recorded_at"], e["prev_hash"])
    archive["last_hash"] = prev  # a forger recomputes the header too


def _tampered(service, how):
    _play(service, "g1", "tamper-seed")
    archive = copy.deepcopy(export_game(service.store, "g1"))
    events = archive["events"]
    if how == "changed order":
        order = next(e for e in events if e["type"] == "OrdersSubmitted")
        order["payload"]["orders"][0]["value"] = 0 if order["payload"]["orders"][0]["value"] else 2
    elif how == "removed event":
        events.remove(next(e for e in events if e["type"] == "OrdersSubmitted"))
    elif how == "changed chance outcome, chain recomputed":
        turn = next(e for e in events if e["type"] == "TurnAdjudicated")
        turn["payload"]["events"][0]["die"] = turn["payload"]["events"][0]["die"] % 6 + 1
        _rechain(archive)
    elif how == "changed adjudicated order, chain recomputed":
        turn = next(e for e in events if e["type"] == "TurnAdjudicated")
        turn["payload"]["orders"]["blue"] = [{"kind": "bid", "value": 0 if turn["payload"]["orders"]["blue"][0].get("value") else 2}]
        _rechain(archive)
    elif how == "wrong seed":
        archive["seed"] = "not-the-seed"
        for e in events:
            if e["type"] == "SeedRevealed":
                e["payload"]["seed"] = "not-the-seed"
        _rechain(archive)
    return archive


@pytest.mark.parametrize("how,named", [
    ("changed order", "tampered"),
    ("removed event", "missing"),
    ("changed chance outcome, chain recomputed", "derived events differ"),
    ("changed adjudicated order, chain recomputed", "turn round-1"),
    ("wrong seed", "commitment"),
])
def test_tampering_is_detected_and_named(tmp_path, service, how, named):
    archive = _tampered(service, how)
    result = verify_archive(archive)
    assert not result.ok and any(named in p for p in result.problems), result.problems
    with pytest.raises(DomainError, match="not genuine"):
        import_archive(Store(tmp_path / "x.db"), archive)


def test_record_round_trip_and_import(tmp_path, service):
    _play(service, "g1", "record-seed")
    game = service.load("g1")
    record = record_of(game, service.store.events("g1"))
    text = write_record(record)
    assert read_record(text) == record
    assert '[Seed "record-seed"]' in text and "- green missed" in text and "  BID 1" in text
    imported = import_record(Store(tmp_path / "r.db"), text, "g1-copy")
    assert imported.state_hash == game.state_hash
    bad = text.replace("  BID 1", "  BID 2", 1)
    with pytest.raises(DomainError, match="replay gives state"):
        import_record(Store(tmp_path / "r2.db"), bad, "g1-bad")


_line = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1).map(str.strip).filter(bool)


@given(st.lists(st.tuples(st.sampled_from(["Game", "Seat", "Option"]), _line), max_size=4),
       st.lists(st.tuples(st.from_regex(r"[a-z0-9-]{1,10}", fullmatch=True),
                          st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True),
                                          st.one_of(st.none(), st.lists(_line, max_size=3).map("\n".join))),
                          st.lists(_line, max_size=3), st.from_regex(r"[0-9a-f]{0,64}", fullmatch=True)),
                max_size=3))
def test_record_text_round_trips(headers, turns):
    record = Record(headers, [RecordTurn(t, o, n, h) for t, o, n, h in turns])
    assert read_record(write_record(record)) == record


def test_cli_export_import_replay(tmp_path, service):
    _play(service, "g1", "cli-seed")
    db, other = service.store.path, str(tmp_path / "o.db")
    runner = CliRunner()
    out = tmp_path / "g1.json"
    assert runner.invoke(cli, ["--db", db, "export", "g1", "-o", str(out)]).exit_code == 0
    result = runner.invoke(cli, ["--db", other, "import", str(out)])
    assert result.exit_code == 0 and "genuine" in result.output
    result = runner.invoke(cli, ["--db", other, "replay", "g1", "--verify"])
    assert result.exit_code == 0 and "reproduced" in result.output
    result = runner.invoke(cli, ["--db", db, "replay", str(out), "--until", "round-2", "--json"])
    data = json.loads(result.output)
    assert data["turn"] == "round-2" and data["state_hash"] == service.load("g1", until_turn="round-2").state_hash
    rec = tmp_path / "g1.txt"
    assert runner.invoke(cli, ["--db", db, "export", "g1", "--format", "record", "-o", str(rec)]).exit_code == 0
    result = runner.invoke(cli, ["--db", str(tmp_path / "r.db"), "import", str(rec)])
    assert result.exit_code == 0 and "every hash reproduced" in result.output
    tampered = json.loads(out.read_text())
    tampered["events"][1]["payload"]["text"] = "BID 3"
    out.write_text(json.dumps(tampered))
    result = runner.invoke(cli, ["--db", str(tmp_path / "t.db"), "import", str(out)])
    assert result.exit_code == 1 and "event 2" in result.output and "tampered" in result.output


def test_unknown_engine_version_is_refused_by_name(service):
    _play(service, "g1", "version-seed")
    archive = copy.deepcopy(export_game(service.store, "g1"))
    archive["engine_version"] = archive["events"][0]["payload"]["engine_version"] = "0"
    _rechain(archive)
    result = verify_archive(archive)
    assert not result.ok and any("no rules version '0'" in p and "it knows 1" in p
                                 for p in result.problems)


def test_unknown_engine_version_is_refused_on_replay(service):
    _play(service, "g1", "version-seed")
    events = [copy.deepcopy(e) for e in service.store.events("g1")]
    events[0].payload["engine_version"] = "0"
    with pytest.raises(EngineVersionMismatch, match="no rules version '0'.*it knows 1"):
        fold("g1", events, service.store.secrets("g1")[0])
