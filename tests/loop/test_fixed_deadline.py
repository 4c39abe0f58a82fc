"""A fixed deadline (``pbem new --deadline ...``, the README's first example) is one instant:
once it has passed it must not resolve every later turn the moment it opens (three seasons
in three cron ticks, every seat missed). And a game is never created with a deadline that
has passed already."""

from __future__ import annotations

import json
from datetime import timedelta

from click.testing import CliRunner

from pbem.cli.app import App
from pbem.cli.main import cli
from pbem.store.db import Store
from tests.conftest import FakeClock

SEATS = ["--seat", "red=anna@example.org", "--seat", "blue=ben@example.org", "--seat", "green=cis@example.org"]


def _runner(tmp_path):
    db = str(tmp_path / "pbem.db")
    clock = FakeClock()  # 2026-01-01T12:00Z
    return clock, lambda *a: CliRunner().invoke(cli, ["--db", db, *a], obj=App(db, _store=Store(db, clock=clock)))


def test_a_passed_fixed_deadline_resolves_one_turn_not_one_per_tick(tmp_path):
    clock, run = _runner(tmp_path)
    assert run("new", "w1", "--game", "wallenstein", *SEATS, "--weak-seed", "--seed", "fixed",
               "--deadline", "2026-01-03T18:00+01:00").exit_code == 0
    clock.now += timedelta(days=3)  # the deadline has passed: the first turn is forced
    first = run("tick", "--no-send")
    assert first.exit_code == 0 and "adjudicated w1 1618-spring" in first.output, first.output
    for _ in range(3):  # cron goes on: the next season waits for orders (or a new deadline)
        clock.now += timedelta(minutes=10)
        later = run("tick", "--no-send")
        assert later.exit_code == 0 and "adjudicated" not in later.output, later.output
    status = run("status", "w1")
    assert "turn 1618-summer" in status.output and "deadline: none" in status.output
    assert "passed before this turn opened" in status.output and "OVERDUE" not in status.output
    assert json.loads(run("status", "w1", "--json").output)["deadline_passed_before_turn"] == "2026-01-03T18:00:00+01:00"
    # a deadline the GM sets for every turn now applies again
    assert run("deadline", "w1", "2026-01-10T18:00+01:00", "--turn", "*").exit_code == 0
    assert "deadline: 2026-01-10T18:00:00+01:00" in run("status", "w1").output


def test_a_deadline_the_gm_sets_for_every_turn_while_the_turn_is_open_still_counts(tmp_path):
    clock, run = _runner(tmp_path)
    assert run("new", "w1", "--game", "wallenstein", *SEATS, "--weak-seed", "--seed", "fixed").exit_code == 0
    clock.now += timedelta(days=1)
    past = run("deadline", "w1", "2026-01-01T18:00+01:00", "--turn", "*")
    assert past.exit_code == 0 and "in the past" in past.stderr
    assert "adjudicated w1 1618-spring" in run("tick", "--no-send").output  # as the warning says
    assert "adjudicated" not in run("tick", "--no-send").output


def test_new_refuses_a_deadline_that_has_passed(tmp_path):
    _, run = _runner(tmp_path)
    result = run("new", "w1", "--game", "wallenstein", *SEATS, "--weak-seed", "--seed", "fixed",
                 "--deadline", "2025-12-07T18:00+01:00")
    assert result.exit_code == 1 and "already passed" in result.output and "Traceback" not in result.output
    assert "--deadline-every" in result.output
    assert "no games" in run("status").output


def test_the_first_examples_of_the_readme_and_the_gm_guide_use_a_relative_clock():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for doc in ("README.md", "docs/gm-guide.md"):
        text = (root / doc).read_text(encoding="utf-8")
        block = text[text.index("pbem new w1"):]
        block = block[:block.index("```")]
        assert "--deadline-every" in block and "--deadline 20" not in block, doc
