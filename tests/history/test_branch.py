"""``pbem branch`` — a what-if game from another game's history, for every game."""

from __future__ import annotations

import json

import pytest

from pbem.archives.archive import export_game, import_archive, verify_archive
from pbem.loop.branch import branch
from pbem.mailout.deliver import message_of
from pbem.errors import DomainError
from pbem.archives.records import import_record, record_of
from pbem.loop.service import Service
from pbem.store.db import Store
from turns.record import write_record
from tests.history.common import SEATS, cli_game, play

SEED = "branch-seed-" + "x" * 40
GAMES = [("wallenstein", {}, 3, 1), ("wallenstein", {"expansion": "court"}, 3, 1), ("havoc", {}, 4, 2),
         ("gods-playground", {}, 3, 1)]


def _play(service, game_id, engine, options, steps):
    return play(service, game_id, engine, options, steps, SEED)


@pytest.mark.parametrize("engine,options,steps,at", GAMES, ids=lambda v: str(v))
def test_a_branch_keeps_the_history_and_never_touches_the_game(quiet, service, engine, options, steps, at):
    game = _play(service, "g1", engine, options, steps)
    before = [e.as_dict() for e in service.store.events("g1")]
    outbox = len(service.store.outbox())
    to = game.turns[at]["turn"]
    same = branch(service, "g1", to, "same", same_seed=True)
    own = branch(service, "g1", to, "own")
    assert [e.as_dict() for e in service.store.events("g1")] == before  # G is never touched
    for gid in ("same", "own"):
        b = service.load(gid, verify=True)
        assert [t["turn"] for t in b.turns] == [t["turn"] for t in game.turns[:at + 1]]
        assert [t["orders"] for t in b.turns] == [t["orders"] for t in game.turns[:at + 1]]
        assert b.created["branch"]["of"] == "g1" and b.created["branch"]["at"] == to
        assert b.pending.turn == game.turns[at + 1]["turn"]
    assert same["commitment"] == game.created["commitment"] and own["commitment"] != same["commitment"]
    service.adjudicate("same", force=True)
    service.adjudicate("own", force=True)
    assert service.load("same").turns[at + 1]["events"] == game.turns[at + 1]["events"]  # same seed, same draws
    welcome = [r for r in service.store.outbox()[outbox:] if r["kind"] == "welcome"]
    assert len(welcome) == 2 * len(SEATS)  # new passwords, mailed to the same addresses
    assert {r["to_addr"] for r in welcome} == {a for _, a in SEATS}
    assert {same["seats"][s]["password"] for s, _ in SEATS}.isdisjoint({own["seats"][s]["password"] for s, _ in SEATS})
    record = write_record(record_of(service.load("own"), service.store.events("own")))
    assert '[BranchOf "g1"]' in record and f'[BranchAt "{to}"]' in record and '[BranchSeed "own"]' in record
    assert verify_archive(export_game(service.store, "own")).ok


def test_a_branch_with_its_own_seed_draws_differently(quiet, service):
    game = _play(service, "w1", "wallenstein", {}, 3)
    branch(service, "w1", "1618-spring", "b1", mail=False)
    for _ in range(2):
        service.adjudicate("b1", force=True)
    b = service.load("b1")
    assert [t["turn"] for t in b.turns] == [t["turn"] for t in game.turns]
    assert b.turns[0]["events"] == game.turns[0]["events"]  # the kept turn is G's
    assert [t["events"] for t in b.turns[1:]] != [t["events"] for t in game.turns[1:]]  # the rest: new chance


def test_branch_reports_say_they_are_branches(service):
    _play(service, "w1", "wallenstein", {}, 2)
    branch(service, "w1", "1618-spring", "b1", same_seed=True)
    service.adjudicate("b1", force=True)
    reports = [r for r in service.store.outbox() if r["kind"] == "report" and "[b1]" in r["subject"]]
    assert reports
    for row in reports:
        msg = message_of(row)
        assert msg.get_body(preferencelist=("plain",)).get_content().startswith("This game is a branch of w1 at turn")
        assert "This game is a branch of w1" in msg.get_body(preferencelist=("html",)).get_content()
    plain = [r for r in service.store.outbox() if r["kind"] == "report" and "[w1]" in r["subject"]]
    assert all("branch" not in message_of(r).get_body(preferencelist=("plain",)).get_content()[:200] for r in plain)


def test_a_finished_branch_imports_from_its_archive(quiet, service, tmp_path):
    game = _play(service, "w1", "wallenstein", {}, 2)
    branch(service, "w1", "1618-spring", "b1", mail=False)
    while service.load("b1").pending is not None:
        service.adjudicate("b1", force=True)
    b = service.load("b1")
    other = Store(tmp_path / "other.db")
    assert import_archive(other, export_game(service.store, "b1")).ok  # replayed with both seeds
    imported = Service(other).load("b1", verify=True)
    assert imported.state_hash == b.state_hash and imported.created["branch"]["of"] == "w1"
    assert game.turns[0]["events"] == imported.turns[0]["events"]
    with pytest.raises(DomainError, match="import the branch's archive"):  # a clear answer, nothing made
        import_record(Store(tmp_path / "third.db"), write_record(record_of(b, service.store.events("b1"))))


def test_refusals(quiet, service):
    _play(service, "w1", "wallenstein", {}, 1)
    with pytest.raises(DomainError, match="has not been adjudicated"):
        branch(service, "w1", "1618-summer", "b1")
    branch(service, "w1", "1618-spring", "b1")
    with pytest.raises(DomainError, match="already exists"):
        branch(service, "w1", "1618-spring", "b1")
    with pytest.raises(DomainError, match="itself a branch"):
        branch(service, "b1", "1618-spring", "b2")


def test_cli_branch_json(tmp_path):
    run = cli_game(tmp_path)
    out = run("branch", "w1", "--at", "1618-spring", "--as", "w2", "--no-mail", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output[out.output.index("{"):])
    assert set(data) == {"game", "branch_of", "at", "turns", "same_seed", "commitment", "turn", "state_hash",
                         "mailed", "seats"}
    assert data["turn"] == "1618-summer" and data["mailed"] is False and data["seats"]["red"]["password"]
    bad = run("branch", "w1", "--at", "1700-spring", "--as", "w3")
    assert bad.exit_code == 1 and "has not been adjudicated" in bad.output


def test_a_branch_without_mail_says_how_to_play_it_and_give_passwords(tmp_path):
    """``--no-mail`` without ``--json`` printed "passwords: --json" after the
    passwords were already lost; it now says how the GM plays the branch and gives passwords."""
    run = cli_game(tmp_path, "b.db")
    out = run("branch", "w1", "--at", "1618-spring", "--as", "w2", "--no-mail")
    assert out.exit_code == 0, out.output
    assert "'pbem seat w2 SEAT --new-password'" in out.output and "pbem bots" in out.output
    assert run("bots", "w2", "--seat", "red").exit_code == 0


def test_cli_branch_text_and_the_note_on_a_running_games_seed(tmp_path):
    run = cli_game(tmp_path, "t.db")
    out = run("branch", "w1", "--at", "1618-spring", "--as", "w2")
    assert out.exit_code == 0, out.output
    assert out.stdout == ("branched w1 at 1618-spring as w2 (1 turn(s) kept, new seed); now awaiting 1618-summer; "
                          "welcome mails with new passwords queued\n")
    assert out.stderr == ("note: w1 is still running; w2's seed holds w1's and is revealed when w2 ends "
                          "(docs/archivist-guide.md, Branches)\n")
    same = run("branch", "w1", "--at", "1618-spring", "--as", "w3", "--same-seed")
    assert same.exit_code == 0 and same.stderr == ""  # the same seed: nothing of w1's is held back
    assert same.stdout.startswith("branched w1 at 1618-spring as w3 (1 turn(s) kept, same seed)")
    assert "note:" not in run("branch", "w1", "--at", "1618-spring", "--as", "w4", "--json").stdout
