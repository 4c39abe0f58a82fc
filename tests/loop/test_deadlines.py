"""Deadlines as instants, relative clocks,
`pbem deadline +3d`, reminders once per seat and turn, the mails around a deadline, and
adjudication keyed by the turn that was looked at."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.cli.app import App
from pbem.cli.main import cli
from pbem.loop.deadlines import instant, is_due, parse_duration, resolve
from pbem.errors import DomainError
from pbem.loop.service import Service
from pbem.store.db import Store
from pbem.loop.tick import adjudicate_due, send_reminders
from tests.conftest import FakeClock

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org")]

zones = st.integers(min_value=-12 * 60, max_value=14 * 60).map(lambda m: timezone(timedelta(minutes=m)))


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=-48 * 3600, max_value=48 * 3600), zones, zones)
def test_deadlines_compare_as_instants_across_zones(offset, deadline_zone, now_zone):
    now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    moment = (now + timedelta(seconds=offset)).astimezone(deadline_zone)
    text = moment.isoformat()
    assert is_due(text, now.astimezone(now_zone)) == (offset <= 0)
    assert instant(text) == now + timedelta(seconds=offset)


def test_the_examples_of_the_campaign():
    now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    assert not is_due("2026-12-01T05:00:00-10:00", now)  # 15:00 UTC: three hours ahead
    assert is_due("2026-12-02T01:00:00+14:00", now)  # 11:00 UTC: an hour past


def test_durations_and_relative_deadlines():
    assert parse_duration("72h") == timedelta(hours=72) == parse_duration("3d")
    assert parse_duration("1d12h") == timedelta(hours=36) and parse_duration("90m") == timedelta(minutes=90)
    for bad in ("", "3", "h", "3x", "0h", "-3d", "3d x"):
        with pytest.raises(DomainError):
            parse_duration(bad)
    now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    assert resolve("+3d", "2026-12-07T18:00:00+01:00", now) == "2026-12-10T18:00:00+01:00"
    assert instant(resolve("+12h", None, now)) == now + timedelta(hours=12)
    with pytest.raises(DomainError, match="time zone"):
        resolve("2026-12-07T18:00", None, now)


def _game(store: Store, **clocks: str) -> Service:
    service = Service(store, sender="gm@pbem.example")
    service.new_game("d1", "toy-dice-duel", SEATS, {}, seed="deadline-" + "x" * 40, **clocks)  # type: ignore[arg-type]
    return service


def _kinds(service: Service) -> list[str]:
    return [r["kind"] for r in service.store.outbox()]


def test_relative_deadline_restarts_at_each_adjudication(store, clock):
    service = _game(store, deadline_every="72h")
    game = service.load("d1")
    first = instant(game.deadline)
    assert first - clock.now < timedelta(hours=72, seconds=5) and first > clock.now + timedelta(hours=71)
    clock.now += timedelta(hours=80)  # the deadline passes: the turn is forced, the clock restarts
    done = adjudicate_due(service, clock())
    assert [d.data["defaulted"] for d in done] == [["red", "blue"]]
    after = service.load("d1")
    assert after.pending.turn != game.pending.turn
    assert instant(after.deadline) > clock.now + timedelta(hours=71)
    assert _kinds(service).count("late") == 2  # each seat is told what was played for it
    assert service.status("d1")[0]["overdue"] is False


def test_reminders_once_per_seat_and_turn(store, clock):
    service = _game(store, deadline_every="72h", remind_before="24h")
    assert send_reminders(service, clock()) == []  # too early
    clock.now += timedelta(hours=50)
    first = send_reminders(service, clock())
    assert sorted(d.text for d in first) == ["reminded d1 blue (turn round-1)", "reminded d1 red (turn round-1)"] \
        or len(first) == 2
    assert send_reminders(service, clock()) == []  # once per seat and turn
    assert _kinds(service).count("reminder") == 2


def test_no_reminder_right_after_the_turn_opens(store, clock):
    """A 24-hour clock with the default 24 hours' reminder: the reminder comes halfway, not
    in the same run as the "your move" mail."""
    service = _game(store, deadline_every="24h")
    assert send_reminders(service, clock()) == []  # the turn just opened
    clock.now += timedelta(hours=11, minutes=59)
    assert send_reminders(service, clock()) == []
    clock.now += timedelta(minutes=2)
    assert len(send_reminders(service, clock())) == 2


def test_deadline_command_plus_and_past_warning_and_mail_to_every_seat(tmp_path):
    db = str(tmp_path / "p.db")
    clock = FakeClock()
    app = lambda: App(db, _store=Store(db, clock=clock))  # noqa: E731
    run = lambda *a: CliRunner().invoke(cli, ["--db", db, *a], obj=app())  # noqa: E731
    assert run("new", "d1", "--game", "toy-dice-duel", "--seat", "red=a@x.org", "--seat", "blue=b@x.org",
               "--deadline", "2026-01-02T12:00+01:00").exit_code == 0
    result = run("deadline", "d1", "+3d")
    assert result.exit_code == 0 and "2026-01-05T12:00:00+01:00" in result.stdout and not result.stderr
    past = run("deadline", "d1", "2025-12-31T10:00-10:00")
    assert past.exit_code == 0 and "in the past" in past.stderr
    rows = Store(db).outbox()
    assert sorted(r["to_addr"] for r in rows if r["kind"] == "deadline") == ["a@x.org", "a@x.org", "b@x.org",
                                                                                "b@x.org"]
    status = run("status")
    assert "OVERDUE" in status.stdout


def test_adjudicate_never_resolves_a_turn_it_did_not_look_at(store, clock):
    service = _game(store, deadline_every="1h")
    seen = service.load("d1").pending.turn
    clock.now += timedelta(hours=2)
    first = service.adjudicate("d1", force=True, force_turn=seen)  # run A: the deadline passed
    assert [d["turn"] for d in first] == [seen]
    clock.now += timedelta(hours=2)  # (even once the next turn's own deadline has passed)
    second = service.adjudicate("d1", force=True, force_turn=seen)  # run B waited for A's lock: saw `seen` too
    assert second == []
    assert len(service.load("d1").turns) == 1


def test_two_processes_adjudicate_one_overdue_turn_once(tmp_path):
    import subprocess
    import sys

    db = str(tmp_path / "p.db")
    service = Service(Store(db), sender="gm@pbem.example")
    service.new_game("d1", "toy-dice-duel", SEATS, {}, seed="race-" + "x" * 40)
    service.set_deadline("d1", "2020-01-01T00:00+00:00")  # this turn only: the next one has none
    code = ("import sys, tests.toy; from pbem.cli.main import main; sys.argv=['pbem','--db',sys.argv[1],"
            "'adjudicate','d1']; main()")
    procs = [subprocess.Popen([sys.executable, "-c", code, db], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(3)]
    for p in procs:
        p.wait(timeout=120)
    assert len(Service(Store(db)).load("d1").turns) == 1


def test_one_broken_game_does_not_stop_the_tick(store, clock, monkeypatch):
    from pbem.loop.tick import tick

    service = _game(store)
    service.new_game("d2", "toy-dice-duel", SEATS, {}, seed="deadline-" + "y" * 40)
    for gid in ("d1", "d2"):
        game = service.load(gid)
        for seat in game.seats:
            service.submit(gid, seat, [{"kind": "bid", "value": 0}], "", {"kind": "gm"})
    real = service.adjudicate

    def broken(game_id, **kwargs):
        if game_id == "d1":
            raise RuntimeError("engine bug")
        return real(game_id, **kwargs)

    monkeypatch.setattr(service, "adjudicate", broken)
    done = tick(service)
    assert [d.failed for d in done] == [True, False]
    assert "FAILED d1" in done[0].text and done[1].text.startswith("adjudicated d2")


def test_tick_is_quiet_when_idle_and_exits_1_when_delivery_fails(tmp_path):
    import socket

    db = str(tmp_path / "p.db")
    clock = FakeClock()
    run = lambda *a: CliRunner().invoke(cli, ["--db", db, *a], obj=App(db, _store=Store(db, clock=clock)))  # noqa: E731
    Service(Store(db, clock=clock)).new_game("d1", "toy-dice-duel", SEATS, {}, seed="tick-" + "x" * 40)
    idle = run("tick", "--no-send")
    assert idle.exit_code == 0 and idle.output == ""
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    failed = run("tick", "--smtp", f"127.0.0.1:{port}")
    assert failed.exit_code == 1 and "FAILED to send" in failed.output
    assert len(Store(db).outbox(unsent_only=True)) == 2  # the welcome mails stay queued
    sent = run("tick", "--maildir", str(tmp_path / "out"), "--json")
    assert sent.exit_code == 0 and json.loads(sent.output)[-1]["sent"] == 2
