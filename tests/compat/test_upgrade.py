"""``pbem upgrade``: an old running game moved to the newest rules, as a GM would do it.

The games are real ones: running games of earlier releases from the compatibility corpus.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from adjudicator.registry import get_engine
from tests.clirun import run
from tests.compat.test_corpus import game_ids, status, unpack, verify

#: The newest rules of each game: what ``pbem upgrade`` moves an old game to.
NEWEST = {name: get_engine(name).releases.newest.version for name in ("wallenstein", "havoc", "gods-playground")}
WALLENSTEIN_VERSIONS = ", ".join(get_engine("wallenstein").releases.versions)


def _events(db: str, game: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("select count(*) from events where game_id = ?", [game]).fetchone()[0]


def _mails(db: str, kind: str) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("select to_addr, subject from outbox where kind = ?", [kind]).fetchall()


@pytest.mark.parametrize("release,game,old,new", [
    ("r1", "demo-wallenstein", "1.0", NEWEST["wallenstein"]),
    ("havoc1", "demo-havoc", "1", NEWEST["havoc"]),
    ("r2", "demo-gods-playground", "1", NEWEST["gods-playground"]),
])
def test_an_old_running_game_moves_to_the_newest_rules_and_goes_on(release: str, game: str, old: str, new: str,
                                                                  tmp_path: Path) -> None:
    db = unpack(release, "running", tmp_path)
    before = status(db, game)
    assert before["engine_version"] == old and before["newest_version"] == new
    assert f"rules: {before['engine']} {old}; this pbem's newest is {new}" in run("--db", db, "status")
    out = json.loads(run("--db", db, "upgrade", game, "--reason", "the rules fixes, agreed by all", "--json"))
    assert (out["from"], out["to"], out["turn"]) == (old, new, before["turn"])
    after = status(db, game)
    assert after["engine_version"] == new and after["upgrades"] == [{"from": old, "to": new, "turn": before["turn"]}]
    mails = _mails(db, "upgrade")
    assert sorted(to for to, _ in mails) == sorted(f"{s}" for s in _addresses(db, game))
    assert all(f"now plays rules {new}" in subject for _, subject in mails)
    log = run("--db", db, "log", game)
    assert f"EngineUpgraded rules {old} -> {new} from turn {before['turn']}; reason: the rules fixes" in log
    assert "chain: intact" in log
    verify(db, game)  # each stretch under its own rules
    for _ in range(3):  # the game goes on under the new rules
        row = status(db, game)
        if row["over"]:
            break
        if row["awaiting"]:
            run("--db", db, "bots", game, *[f"--seat={s}" for s in row["awaiting"]])
        run("--db", db, "adjudicate", game)
    verify(db, game)
    archive = tmp_path / "after.pbem.json"
    run("--db", db, "export", game, "-o", str(archive))
    assert "verified" in run("replay", str(archive), "--verify")


def _addresses(db: str, game: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        created = json.loads(conn.execute("select payload from events where game_id = ? and seq = 1", [game]).fetchone()[0])
    return [s["email"] for s in created["seats"]]


def test_the_upgrade_mail_says_what_changes_for_the_seat(tmp_path: Path) -> None:
    db = unpack("r1", "running", tmp_path)
    run("--db", db, "upgrade", "demo-wallenstein", "--reason", "the rules fixes of 1.1")
    with sqlite3.connect(db) as conn:
        row = conn.execute("select id from outbox where kind = 'upgrade' order by id limit 1").fetchone()
    text = run("--db", db, "outbox", "show", str(row[0]))
    assert (f"the game is played with wallenstein rules version {NEWEST['wallenstein']} (it was 1.0)"
            in " ".join(text.split()))
    assert "The GM's reason: the rules fixes of 1.1" in " ".join(text.split())
    assert "Version 1.1 (2026-12-01):" in text and "FAMINE <county>" in text
    assert all(len(line) <= 76 for line in text.splitlines() if not line.startswith(("From", "To", "Subject",
                                                                                     "Message-ID", "X-", "In-Reply")))


@pytest.mark.parametrize("args,problem", [
    (["--to", "1.0"], "already plays wallenstein rules 1.0"),
    (["--to", "0.9"], f"no rules version '0.9' here (it knows {WALLENSTEIN_VERSIONS})"),
    (["--to", "1.1", "--reason", " "], "needs a reason"),
])
def test_an_upgrade_that_cannot_be_made_is_refused_and_writes_nothing(args: list[str], problem: str,
                                                                      tmp_path: Path) -> None:
    db = unpack("r1", "running", tmp_path)
    before = _events(db, "demo-wallenstein")
    reason = [] if "--reason" in args else ["--reason", "why not"]
    out = run("--db", db, "upgrade", "demo-wallenstein", *args, *reason, code=1)
    assert problem in out
    assert _events(db, "demo-wallenstein") == before and not _mails(db, "upgrade")


def test_no_way_back_to_older_rules_nor_an_upgrade_of_a_finished_game(tmp_path: Path) -> None:
    db = unpack("r1", "running", tmp_path)
    run("--db", db, "upgrade", "demo-wallenstein", "--reason", "fixes")
    out = run("--db", db, "upgrade", "demo-wallenstein", "--to", "1.0", "--reason", "back", code=1)
    assert "1.0 is older: a game is never moved back to older rules" in out
    finished = unpack("r1", "finished", tmp_path)
    out = run("--db", finished, "upgrade", "demo-wallenstein", "--reason", "late", code=1)
    assert "is over: its rules stay those it was played with" in out


def test_no_upgrade_in_the_middle_of_a_turn(tmp_path: Path) -> None:
    db = unpack("r1", "running", tmp_path)
    row = status(db, "demo-wallenstein")
    run("--db", db, "bots", "demo-wallenstein", f"--seat={row['awaiting'][0]}")
    before = _events(db, "demo-wallenstein")
    out = run("--db", db, "upgrade", "demo-wallenstein", "--reason", "fixes", code=1)
    assert f"in the middle of turn {row['turn']}: {row['awaiting'][0]} sent orders under rules 1.0" in out
    assert _events(db, "demo-wallenstein") == before


def test_a_rollback_to_before_the_upgrade_plays_the_old_rules_again(tmp_path: Path) -> None:
    db = unpack("r1", "running", tmp_path)
    with sqlite3.connect(db) as conn:  # the last turn adjudicated before the upgrade
        last = conn.execute("select payload from events where game_id = 'demo-wallenstein' and "
                            "type = 'TurnAdjudicated' order by seq desc limit 1").fetchone()[0]
    first = json.loads(last)["turn"]
    run("--db", db, "upgrade", "demo-wallenstein", "--reason", "fixes")
    row = status(db, "demo-wallenstein")
    run("--db", db, "bots", "demo-wallenstein", *[f"--seat={s}" for s in row["awaiting"]])
    run("--db", db, "adjudicate", "demo-wallenstein")
    assert status(db, "demo-wallenstein")["engine_version"] == NEWEST["wallenstein"]
    run("--db", db, "rollback", "demo-wallenstein", "--to", first, "--reason", "undo the season")
    again = status(db, "demo-wallenstein")
    assert again["turn"] == first and again["engine_version"] == "1.0" and again["upgrades"] == []
    verify(db, "demo-wallenstein")


def test_status_of_many_games_names_a_game_that_cannot_be_loaded_and_goes_on(tmp_path: Path) -> None:
    db = unpack("r2", "running", tmp_path)
    with sqlite3.connect(db) as conn:  # a game of a rules version no pbem knows (a newer pbem made it)
        row = conn.execute("select payload from events where game_id = 'demo-havoc' and seq = 1").fetchone()
        payload = json.loads(row[0])
        payload["engine_version"] = "99"
        conn.execute("update events set payload = ? where game_id = 'demo-havoc' and seq = 1", [json.dumps(payload)])
    rows = json.loads(run("--db", db, "status", "--json"))
    broken = [r for r in rows if r.get("error")]
    assert [r["game"] for r in broken] == ["demo-havoc"] and "no rules version '99'" in broken[0]["error"]
    assert sorted(r["game"] for r in rows) == game_ids(db)
    text = run("--db", db, "status")
    assert "demo-havoc (havoc): CANNOT BE LOADED:" in text and "demo-wallenstein (wallenstein): turn" in text
    assert "no rules version '99'" in run("--db", db, "status", "demo-havoc", code=1)
    tick = run("--db", db, "tick", code=1)
    assert "FAILED demo-havoc: cannot be loaded" in tick and tick.count("FAILED demo-havoc") == 1


def test_a_branch_of_an_upgraded_game_begins_under_its_first_rules_and_upgrades_where_it_did(tmp_path: Path) -> None:
    """A branch re-plays G from its start: under G's first rules (1.0) up to the upgrade, then
    under the newer ones, so both a branch before and one after the upgrade verify and go on."""
    db = unpack("r1", "running", tmp_path)
    game = "demo-wallenstein"
    before = status(db, game)["turn"]
    with sqlite3.connect(db) as conn:
        first = json.loads(conn.execute("select payload from events where game_id = ? and type = 'TurnAdjudicated' "
                                        "order by seq limit 1", [game]).fetchone()[0])["turn"]
    run("--db", db, "upgrade", game, "--reason", "fixes")
    row = status(db, game)
    run("--db", db, "bots", game, *[f"--seat={s}" for s in row["awaiting"]])
    run("--db", db, "adjudicate", game)
    for at, name, version in ((first, "early", "1.0"), (before, "late", NEWEST["wallenstein"])):
        run("--db", db, "branch", game, "--at", at, "--as", name, "--no-mail")
        shown = status(db, name)
        assert shown["engine_version"] == version, (at, shown)
        verify(db, name)
        run("--db", db, "bots", name, *[f"--seat={s}" for s in shown["awaiting"]])
        run("--db", db, "adjudicate", name)
        verify(db, name)
