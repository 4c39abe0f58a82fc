"""The CLI core, driven as a GM would (CliRunner), on the toy engine."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.loop.service import Service
from pbem.store.db import Store


@pytest.fixture
def run(tmp_path):
    db = str(tmp_path / "cli.db")

    def invoke(*args, ok=True):
        result = CliRunner().invoke(cli, ["--db", db, *args])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    invoke.db = db
    return invoke


def _new(run, game="t1"):
    out = run("new", game, "--game", "toy-dice-duel", "--seat", "red=r@example.org",
              "--seat", "blue=b@example.org", "--seed", "s3cret", "--weak-seed", "--json")
    return json.loads(out.output)


def test_every_command_has_help_with_an_example():
    for name, command in cli.commands.items():
        result = CliRunner().invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Example" in result.output, f"{name} --help has no example"


def test_new_prints_passwords_once_and_status(run):
    data = _new(run)
    assert set(data["seats"]) == {"red", "blue"}
    assert all(len(s["password"]) >= 12 for s in data["seats"].values())
    assert data["commitment"] != "s3cret"
    st = json.loads(run("status", "t1", "--json").output)
    assert st["turn"] == "round-1" and st["awaiting"] == ["red", "blue"] and st["submitted"] == []
    assert not st["over"] and st["winner"] is None and st["deadline"] is None
    log = run("log", "t1", "--json").output
    assert data["seats"]["red"]["password"] not in log and "password_hash" not in log
    assert "s3cret" not in log  # the seed is revealed only when the game ends
    shown = run("show", "t1", "--seat", "red", "--json").output
    assert "s3cret" not in shown


def test_duplicate_game_and_bad_ids_are_domain_errors(run):
    _new(run)
    result = run("new", "t1", "--game", "toy-dice-duel", "--seat", "a=a@x", "--seat", "b=b@x", ok=False)
    assert result.exit_code == 1 and "already exists" in result.output
    result = run("new", "../etc", "--game", "toy-dice-duel", "--seat", "a=a@x", "--seat", "b=b@x", ok=False)
    assert result.exit_code == 1 and "invalid game id" in result.output
    result = run("status", "nope", ok=False)
    assert result.exit_code == 1 and "no game" in result.output
    result = run("new", "x", "--game", "chess", "--seat", "a=a@x", "--seat", "b=b@x", ok=False)
    assert result.exit_code == 1 and "unknown game" in result.output


def test_usage_error_exits_2(run):
    result = run("new", "x", ok=False)
    assert result.exit_code == 2


def test_adjudicate_waits_then_forces(run):
    _new(run)
    result = run("adjudicate", "t1", ok=False)
    assert result.exit_code == 1 and "awaiting orders from red, blue" in result.output
    service = Service(Store(run.db))
    service.submit("t1", "red", [{"kind": "bid", "value": 2}], "BID 2", {"kind": "gm"})
    st = json.loads(run("status", "t1", "--json").output)
    assert st["submitted"] == ["red"] and st["awaiting"] == ["blue"]
    out = json.loads(run("adjudicate", "t1", "--force", "--json").output)
    assert out[0]["turn"] == "round-1" and out[0]["defaulted"] == ["blue"]
    assert json.loads(run("status", "t1", "--json").output)["turn"] == "round-2"


def test_deadline_void_and_seat_corrections(run):
    _new(run)
    result = run("deadline", "t1", "2026-12-07T18:00", ok=False)
    assert result.exit_code == 1 and "no time zone" in result.output
    run("deadline", "t1", "2026-12-07T18:00+01:00")
    assert json.loads(run("status", "t1", "--json").output)["deadline"] == "2026-12-07T18:00:00+01:00"
    service = Service(Store(run.db))
    service.submit("t1", "red", [{"kind": "bid", "value": 1}], "BID 1", {"kind": "gm"})
    run("void", "t1", "red", "--reason", "mistake")
    assert json.loads(run("status", "t1", "--json").output)["submitted"] == []
    run("seat", "t1", "red", "--allow", "anna@work.example")
    assert Service(Store(run.db)).load("t1").seats["red"]["addresses"] == ["anna@work.example", "r@example.org"]


def test_past_deadline_applies_policy(run):
    _new(run)
    run("deadline", "t1", "2000-01-01T00:00Z")
    out = json.loads(run("adjudicate", "t1", "--json").output)
    assert out[0]["defaulted"] == ["red", "blue"]


def test_whole_toy_game_to_the_end(run):
    _new(run)
    for _ in range(3):
        run("adjudicate", "t1", "--force")
    st = json.loads(run("status", "t1", "--json").output)
    assert st["over"] and st["turn"] is None
    assert json.loads(run("log", "t1", "--json").output)["events"][-1]["payload"] == {"seed": "s3cret"}
    result = run("adjudicate", "t1", ok=False)
    assert result.exit_code == 1 and "is over" in result.output
    assert "chain: intact" in run("log", "t1").output
