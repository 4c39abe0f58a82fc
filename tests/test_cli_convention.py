"""One CLI convention: --db after the command too, --json wherever something is
reported, games vs engines, outbox show ID, send --dry-run wording, adjudicate --json."""

from __future__ import annotations

import json

import click

from pbem.cli.main import cli
from tests.clirun import SEATS, run as _run


def test_db_after_the_command_as_well(tmp_path):
    db = str(tmp_path / "after.db")
    _run("new", "w1", "--game", "wallenstein", *SEATS, "--db", db)
    assert "w1 (wallenstein)" in _run("status", "--db", db)
    assert json.loads(_run("status", "w1", "--json", "--db", db))["game"] == "w1"
    assert "w1 (wallenstein)" in _run("--db", db, "status")  # the old place still works
    other = _run("--db", db, "status", "--db", str(tmp_path / "other.db"), code=1)  # after wins: no such db
    assert "other.db" in other and "nothing was created" in other


def test_every_command_takes_db_and_every_reporting_command_json():
    def walk(group: click.Group, prefix: str = ""):
        for name, command in group.commands.items():
            yield prefix + name, command
            if isinstance(command, click.Group):
                yield from walk(command, prefix + name + " ")

    silent = {"demo"}  # writes a folder and prints a summary; has --json too
    for name, command in walk(cli):
        opts = {o for p in command.params for o in p.opts}
        assert "--db" in opts, name
        if name not in silent:
            assert "--json" in opts, f"pbem {name} has no --json"


def test_games_lists_games_and_engines_the_game_types(tmp_path):
    db = str(tmp_path / "g.db")
    assert "wallenstein" in json.loads(_run("engines", "--json"))
    assert _run("--db", db, "games").strip() == "no games"
    _run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS)
    rows = json.loads(_run("--db", db, "games", "--json"))
    assert rows == [{"game": "w1", "engine": "wallenstein", "turn": "1618-spring", "over": False, "winner": None,
                     "abandoned": None}]
    assert "wallenstein" in _run("--db", db, "games", "--engines")  # the old meaning, kept hidden


def test_show_is_readable_and_json_is_json(tmp_path):
    db = str(tmp_path / "s.db")
    _run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS)
    text = _run("--db", db, "show", "w1", "--seat", "red")
    assert not text.lstrip().startswith("{") and "seats:" in text and "  red: " in text
    assert json.loads(_run("--db", db, "show", "w1", "--seat", "red", "--json"))["seats"]["red"]


def test_outbox_show_id_and_send_dry_run_wording(tmp_path):
    db = str(tmp_path / "o.db")
    _run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS)
    shown = _run("--db", db, "outbox", "show", "1")
    assert "Subject: [w1] Welcome" in shown and "******" in shown
    assert json.loads(_run("--db", db, "outbox", "show", "1", "--json"))["id"] == 1
    assert _run("--db", db, "outbox", "--show", "1") == shown  # the old spelling, kept hidden
    dry = _run("--db", db, "send", "--dry-run")
    assert dry.rstrip().endswith("dry run: 3 message(s) would be sent; nothing was sent")
    assert "failed" not in dry


def test_adjudicate_json_reports_missing_orders_with_exit_status_1(tmp_path):
    db = str(tmp_path / "a.db")
    _run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS)
    data = json.loads(_run("--db", db, "adjudicate", "w1", "--json", code=1))
    assert data["adjudicated"] == [] and data["awaiting"] == ["red", "blue", "yellow"]
    assert data["turn"] == "1618-spring" and "awaiting" in data["error"]
    assert "Error:" in _run("--db", db, "adjudicate", "w1", code=1)


def test_json_of_corrections(tmp_path):
    db = str(tmp_path / "c.db")
    _run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS)
    assert json.loads(_run("--db", db, "deadline", "w1", "2099-12-07T18:00+01:00", "--json"))["game"] == "w1"
    assert json.loads(_run("--db", db, "seat", "w1", "red", "--allow", "r2@example.org", "--json"))["seat"] == "red"
    out = str(tmp_path / "w1.json")
    assert json.loads(_run("--db", db, "export", "w1", "-o", out, "--json"))["output"] == out
    assert json.loads(_run("--db", db, "abandon", "w1", "--reason", "test", "--json"))["abandoned"] == "test"


def test_db_after_the_command_when_a_command_module_was_imported_directly(tmp_path):
    """A command's run may import another command module itself (``pbem demo`` reads the
    options of ``pbem new``): the commands that module adds take ``--db`` after their name too,
    and a later listing of every command still finds it on each (a fresh process, so the
    command modules are imported in that order)."""
    import subprocess
    import sys

    script = f"""
import json
from click.testing import CliRunner
from pbem.cli.main import cli
import pbem.cli.commands.games  # not through the group
r = CliRunner().invoke(cli, ["new", "w1", "--game", "wallenstein", "--seat", "a=a@x.invalid", "--seat",
                             "b=b@x.invalid", "--seat", "c=c@x.invalid", "--db", {str(tmp_path / 'd.db')!r}])
assert r.exit_code == 0, r.output
missing = [n for n, c in cli.commands.items() if not any("--db" in p.opts for p in c.params)]
assert not missing, missing
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
