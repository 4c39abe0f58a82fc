"""A bad import is a one-line error with exit
status 1, never a traceback; imports are bounded in size and keep only referenced mails."""

from __future__ import annotations

import base64
import copy
import hashlib
import json

import pytest
from click.testing import CliRunner

from pbem.archives.archive import export_game, import_archive
from pbem.cli.main import cli
from pbem.archives.records import record_of
from pbem.loop.service import Service
from pbem.store.db import Store, event_hash
from turns.record import write_record

RAW = b"From: r@x.org\r\nMessage-ID: <m1@x.org>\r\n\r\nGAME g1 red pw\r\nBID 1\r\n"


def _game(service: Service) -> None:
    service.new_game("g1", "toy-dice-duel", [("red", "r@x.org"), ("blue", "b@x.org")], {"rounds": "2"},
                     "bad-imports-seed")
    digest = hashlib.sha256(RAW).hexdigest()
    service.store.put_mail("m1", RAW, "<m1@x.org>", "r@x.org")
    service.submit("g1", "red", [{"kind": "bid", "value": 1}], "BID 1", {"kind": "mail", "raw_sha256": digest})
    for _ in range(2):
        service.adjudicate("g1", force=True)


@pytest.fixture
def archive(service):
    _game(service)
    return copy.deepcopy(export_game(service.store, "g1", raw_mail=True))


def _rechain(a):
    prev = "0" * 64
    for e in a["events"]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(a["game"], e["seq"], e["type"], e["version"], e["payload"], e["recorded_at"],
                                      prev)
    a["last_hash"] = prev


def _import(tmp_path, data: bytes, db="x.db", env=None):
    path = tmp_path / "in.json"
    path.write_bytes(data)
    return CliRunner().invoke(cli, ["--db", str(tmp_path / db), "import", str(path)], env=env)


def _one_line_error(result):
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    return lines[0]


def _without(path):
    def cut(a):
        obj = a
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]
    return cut


BREAKS = {
    "no events key": _without(["events"]),
    "no game key": _without(["game"]),
    "event without payload": _without(["events", 1, "payload"]),
    "GameCreated without commitment": _without(["events", 0, "payload", "commitment"]),
    "TurnAdjudicated without turn": _without(["events", 2, "payload", "turn"]),
    "seed as an integer": lambda a: a.update(seed=1),
    "seq as text": lambda a: a["events"][1].update(seq="2"),
    "colliding event keys": lambda a: [e.update(key="same") for e in a["events"][:2]],
    "mail not base64": lambda a: a["mails"][0].update(raw="***"),
    "orders not a list": lambda a: a["events"][1]["payload"].update(orders={"x": 1}),
    "events not a list": lambda a: a.update(events="many"),
}


@pytest.mark.parametrize("name", list(BREAKS))
def test_malformed_archive_is_a_one_line_error(tmp_path, archive, name):
    BREAKS[name](archive)
    if isinstance(archive.get("events"), list) and all(isinstance(e, dict) and "payload" in e for e in archive["events"]):
        try:
            _rechain(archive)  # a forger keeps the chain right; the shape is what is wrong
        except (KeyError, TypeError):
            pass
    _one_line_error(_import(tmp_path, json.dumps(archive).encode()))


@pytest.mark.parametrize("data", [b"\xff\xfe{}", b'{"format": "pbem-archive/2", "game": "\xe9"}', b"{" * 200_000,
                                  b'{"a":' * 5000 + b"1" + b"}" * 5000, b"[1, 2]", b"{}", b"{\"format\": 3}"],
                         ids=["utf16-bom", "latin1", "deep-open", "deep-valid", "json-list", "empty-object", "int-format"])
def test_unreadable_files_are_one_line_errors(tmp_path, data):
    _one_line_error(_import(tmp_path, data))


def _rename(archive: dict, game_id: str) -> None:
    """The same archive as the game ``game_id`` (its header, its creation and every event)."""
    archive["game"] = archive["events"][0]["payload"]["game"] = game_id
    for event in archive["events"]:
        event["game"] = game_id


def test_event_keys_colliding_with_the_database(tmp_path, archive):
    db = Store(tmp_path / "x.db")
    import_archive(db, copy.deepcopy(archive))
    db.close()
    _rename(archive, "g2")
    archive["events"][1]["key"] = "mail-key-1"
    _rechain(archive)
    first = tmp_path / "first.json"
    first.write_text(json.dumps(archive))
    assert CliRunner().invoke(cli, ["--db", str(tmp_path / "x.db"), "import", str(first)]).exit_code == 0
    _rename(archive, "g3")
    _rechain(archive)
    line = _one_line_error(_import(tmp_path, json.dumps(archive).encode()))
    assert "key" in line


def test_record_option_without_equals(tmp_path, service):
    _game(service)
    text = write_record(record_of(service.load("g1"), service.store.events("g1")))
    text = text.replace('[Option "rounds=2"]', '[Option "noequals"]')
    line = _one_line_error(_import(tmp_path, text.encode()))
    assert "noequals" in line


def test_import_size_is_bounded(tmp_path, archive):
    data = json.dumps(archive).encode()
    line = _one_line_error(_import(tmp_path, data, env={"PBEM_MAX_IMPORT_MB": str(len(data) / 2 / 1024 / 1024)}))
    assert "PBEM_MAX_IMPORT_MB" in line
    assert not (tmp_path / "x.db").exists() or Store(tmp_path / "x.db").game_ids() == []


def test_only_mails_the_events_refer_to_are_stored(tmp_path, archive):
    assert len(archive["mails"]) == 1
    junk = b"x" * 100_000
    archive["mails"].append({"sha256": hashlib.sha256(junk).hexdigest(), "raw": base64.b64encode(junk).decode()})
    fresh = Store(tmp_path / "x.db")
    result = import_archive(fresh, archive)
    stored = [bytes(r["raw"]) for r in fresh.db.query("select raw from mails")]
    assert stored == [RAW]
    assert any("referred to by no event" in w for w in result.warnings)
