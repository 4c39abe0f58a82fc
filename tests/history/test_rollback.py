"""``pbem rollback`` — a turn reopened without deleting history, for every game."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem.archives.archive import export_game, verify_archive
from pbem.cli.main import cli
from pbem.mailout.deliver import message_of
from pbem.errors import DomainError
from pbem.store.events import ReplayMismatch, fold
from pbem.archives.records import record_of
from pbem.loop.reopen import rollback
from pbem.store.rollback import live_events
from pbem.store.db import StoredEvent, event_hash, verify_chain
from turns.record import write_record
from tests.history.common import SEATS, cli_game, play

SEED = "rollback-seed-" + "x" * 40
#: (engine, options, forced steps before the rollback, index of the turn reopened)
GAMES = [("wallenstein", {}, 3, 1), ("wallenstein", {"expansion": "court"}, 3, 1), ("havoc", {}, 5, 2),
         ("gods-playground", {}, 3, 1)]


def _play(service, game_id, engine, options, steps):
    return play(service, game_id, engine, options, steps, SEED)


def _text(row) -> str:
    return message_of(row).get_body(preferencelist=("plain",)).get_content()


@pytest.mark.parametrize("engine,options,steps,at", GAMES, ids=lambda v: str(v))
def test_rollback_reopens_a_turn_and_keeps_every_byte(quiet, service, engine, options, steps, at):
    game = _play(service, "g1", engine, options, steps)
    first = {t["turn"]: t["state_hash"] for t in game.turns}
    to = game.turns[at]["turn"]
    before = service.store.events("g1")
    done = rollback(service, "g1", to, "a wrong order was recorded", deadline="+3d")
    assert done["turn"] == to and done["undone"] == [t["turn"] for t in game.turns[at:]]
    after = service.store.events("g1")
    assert [e.as_dict() for e in after[:len(before)]] == [e.as_dict() for e in before]  # nothing deleted
    assert after[len(before)].type == "RolledBack" and service.store.verify("g1") == []
    reopened = service.load("g1")
    assert reopened.pending.turn == to and [t["turn"] for t in reopened.turns] == [t["turn"] for t in game.turns[:at]]
    assert reopened.state_hash == (game.turns[at - 1]["state_hash"])  # the state before the turn, exactly
    assert reopened.deadline == done["deadline"] and reopened.deadline
    mails = [r for r in service.store.outbox() if r["kind"] == "rollback"]
    assert sorted(r["to_addr"] for r in mails) == sorted(a for _, a in SEATS)
    assert all(f"Turn {to} is open again" in " ".join(_text(r).split()) and "a wrong order was recorded" in _text(r)
               for r in mails)
    service.adjudicate("g1", force=True)  # the same (default) orders again: the same result
    again = service.load("g1", verify=True)  # verify re-runs the set-aside turns too
    assert again.turns[at]["turn"] == to and again.turns[at]["state_hash"] == first[to]
    record = write_record(record_of(again, service.store.events("g1")))
    assert f'[Rollback "event {after[len(before)].seq}: turn {to} reopened' in record
    assert "reason: a wrong order was recorded" in record
    archive = export_game(service.store, "g1")
    assert archive["rollbacks"][0]["reason"] == "a wrong order was recorded"
    assert verify_archive(archive).ok


def test_orders_of_the_reopened_turn_are_set_aside_unless_kept(quiet, service):
    game = _play(service, "w1", "wallenstein", {}, 1)
    for seat in game.seats:
        service.submit("w1", seat, game.engine.default_orders(game.state, seat), "", {"kind": "gm"})
    service.adjudicate("w1")
    rollback(service, "w1", "1618-summer", "fix")
    assert service.load("w1").submitted == {}
    service.adjudicate("w1", force=True)
    game = service.load("w1")
    for seat in game.seats:
        service.submit("w1", seat, game.engine.default_orders(game.state, seat), "", {"kind": "gm"})
    service.adjudicate("w1")
    rollback(service, "w1", "1618-autumn", "fix", keep_orders=True)
    reopened = service.load("w1")
    assert sorted(reopened.submitted) == sorted(reopened.seats) and reopened.pending.turn == "1618-autumn"


def test_refusals_are_clear_and_record_nothing(quiet, service):
    _play(service, "w1", "wallenstein", {}, 1)
    count = len(service.store.events("w1"))
    with pytest.raises(DomainError, match="has not been adjudicated"):
        rollback(service, "w1", "1619-spring", "no")
    with pytest.raises(DomainError, match="reason"):
        rollback(service, "w1", "1618-spring", "  ")
    service.set_deadline("w1", "2020-01-01T00:00+00:00", turn="*")
    with pytest.raises(DomainError, match="give --deadline"):
        rollback(service, "w1", "1618-spring", "past")
    assert len(service.store.events("w1")) == count + 1  # only the DeadlineSet
    service.abandon("w1", "gone")
    with pytest.raises(DomainError, match="branch it instead"):
        rollback(service, "w1", "1618-spring", "late", deadline="+1d")


def _rechained(events: list[StoredEvent]) -> list[StoredEvent]:
    out: list[StoredEvent] = []
    for e in events:
        prev_hash = out[-1].hash if out else events[0].prev_hash
        digest = event_hash(e.game_id, e.seq, e.type, e.version, e.payload, e.recorded_at, prev_hash)
        out.append(StoredEvent(e.game_id, e.seq, e.type, e.version, e.payload, e.recorded_at, prev_hash, digest))
    return out


def test_verify_checks_the_set_aside_turns(quiet, service):
    _play(service, "w1", "wallenstein", {}, 3)
    rollback(service, "w1", "1618-spring", "replay it")
    events = service.store.events("w1")
    forged = [StoredEvent(e.game_id, e.seq, e.type, e.version,
                          {**e.payload, "state_hash": "0" * 64} if e.seq == 4 else e.payload,
                          e.recorded_at, e.prev_hash, e.hash) for e in events]
    forged = _rechained(forged)  # a consistent chain: only the replay can tell
    assert verify_chain(forged, "w1") == []
    assert events[3].type == "TurnAdjudicated" and events[3].seq not in {e.seq for e in live_events(events)}
    fold("w1", events, service.store.secrets("w1")[0], verify=True)
    with pytest.raises(ReplayMismatch, match="state hash"):
        fold("w1", forged, service.store.secrets("w1")[0], verify=True)


def test_replayed_turn_reports_get_new_message_ids(service):
    _play(service, "w1", "wallenstein", {}, 1)
    rollback(service, "w1", "1618-spring", "again")
    service.adjudicate("w1", force=True)
    ids = [r["message_id"] for r in service.store.outbox() if r["kind"] == "report" and r["to_addr"] == "r@x.org"]
    assert len(ids) == 2 and ids[0] != ids[1]


def test_cli_rollback_json(tmp_path):
    run = cli_game(tmp_path)
    out = run("rollback", "w1", "--to", "1618-spring", "--reason", "typo", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert set(data) == {"game", "to", "reason", "undone", "turn", "keep_orders", "event", "state_hash",
                         "deadline", "mailed"}
    assert data["turn"] == "1618-spring" and data["undone"] == ["1618-spring"]
    bad = run("rollback", "w1", "--to", "1700-spring", "--reason", "x")
    assert bad.exit_code == 1 and "has not been adjudicated" in bad.output
    verified = run("replay", "w1", "--verify", "--json")
    assert verified.exit_code == 0 and json.loads(verified.output)["verified"]["ok"]


def test_a_set_aside_turn_is_rendered_as_it_was_with_set_aside(tmp_path):
    """``pbem report --turn T`` of a turn a rollback set aside says why there is no
    report and what to do; ``--set-aside`` renders it byte for byte as it was adjudicated."""
    runner, db = CliRunner(), str(tmp_path / "r.db")
    seats = [a for s, e in SEATS for a in ("--seat", f"{s}={e}")]
    assert runner.invoke(cli, ["--db", db, "new", "h1", "--game", "havoc", "--seed", SEED, *seats]).exit_code == 0
    turn = json.loads(runner.invoke(cli, ["--db", db, "status", "h1", "--json"]).output)["turn"]
    for _ in range(2):
        assert runner.invoke(cli, ["--db", db, "adjudicate", "h1", "--force"]).exit_code == 0
    first = runner.invoke(cli, ["--db", db, "report", "h1", "--turn", turn, "--public", "--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    assert runner.invoke(cli, ["--db", db, "rollback", "h1", "--to", turn, "--reason", "wrong card"]).exit_code == 0
    gone = runner.invoke(cli, ["--db", db, "report", "h1", "--turn", turn, "--out", str(tmp_path / "b")])
    assert gone.exit_code != 0 and "was set aside by the rollback at event" in gone.output
    assert "reason: wrong card" in gone.output and "--set-aside" in gone.output
    log = runner.invoke(cli, ["--db", db, "log", "h1"]).output  # the message sends the GM there
    assert f"RolledBack to {turn}; set aside {turn}, " in log and "reason: wrong card" in log
    again = runner.invoke(cli, ["--db", db, "report", "h1", "--turn", turn, "--public", "--set-aside", "--json",
                                "--out", str(tmp_path / "b")])
    assert again.exit_code == 0, again.output
    [folder] = (tmp_path / "b").iterdir()
    assert folder.name.startswith(turn.replace("/", "-") + "~set-aside-")
    old = {p.name: p.read_bytes() for p in (tmp_path / "a").glob("*/public/*")}
    assert old and {p.name: p.read_bytes() for p in folder.glob("public/*")} == old
    wrong = runner.invoke(cli, ["--db", db, "report", "h1", "--turn", "start", "--set-aside", "--out", "x"])
    assert wrong.exit_code != 0 and "no rollback of h1 set turn 'start' aside" in wrong.output


def test_your_move_after_a_rollback_compares_with_the_rebuilt_position(service):
    """The "what changed since your last mail" part of a "your move" mail after a
    rollback starts from the position the rollback mail announced, not from the set-aside one."""
    from pbem.mailout.turnmail import announce

    game = _play(service, "h1", "havoc", {}, 4)
    rollback(service, "h1", game.turns[1]["turn"], "wrong card")
    after = service.load("h1")
    seat = after.pending.seats[0]
    rolled = service.store.events("h1")[-1].seq
    [mail] = announce(service.store, after, [seat], service.sender, rolled, set())
    body = mail.message.get_body(preferencelist=("plain",)).get_content()
    assert f"your move, {seat}" in body
    assert "What changed for you since your last mail" not in body  # nothing changed since the rollback
