"""``pbem bots``: a bot takes over a seat's pending orders through the GM order-text path."""

import json

from click.testing import CliRunner

from pbem.cli.main import cli


def test_bots_fill_a_dropped_seat(tmp_path):
    db = str(tmp_path / "b.db")
    run = CliRunner()
    seats = ["--seat", "red=r@x.org", "--seat", "blue=b@x.org", "--seat", "green=g@x.org"]
    assert run.invoke(cli, ["--db", db, "new", "w1", "--game", "wallenstein", *seats, "--seed", "bots", "--weak-seed"]).exit_code == 0
    result = run.invoke(cli, ["--db", db, "bots", "w1", "--seat", "red", "--seat", "blue", "--out", str(tmp_path / "o"),
                              "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [d["seat"] for d in data] == ["red", "blue"] and all(d["outcome"] == "accepted" for d in data)
    assert data[0]["orders"].startswith("GAME w1 red\n") and "BID" in data[0]["orders"]
    assert (tmp_path / "o" / "w1.1618-spring.red.txt").exists()
    status = json.loads(run.invoke(cli, ["--db", db, "status", "w1", "--json"]).output)
    assert status["submitted"] == ["blue", "red"] and status["awaiting"] == ["green"]
    again = run.invoke(cli, ["--db", db, "bots", "w1", "--seat", "green", "--bot", "random"])
    assert again.exit_code == 0
    assert run.invoke(cli, ["--db", db, "adjudicate", "w1"]).exit_code == 0
    result = run.invoke(cli, ["--db", db, "bots", "w1", "--seat", "nobody"])
    assert result.exit_code == 1 and "no seat" in result.output


def test_bots_play_a_turn_again_after_a_rollback(tmp_path):
    """After ``pbem rollback`` the bots' orders for the reopened turn (the same
    text as before) are accepted, not refused as a duplicate of the set-aside ones; a GM's
    own text typed again is answered with what to do."""
    db, run = str(tmp_path / "b.db"), CliRunner()
    seats = ["--seat", "red=r@x.org", "--seat", "blue=b@x.org", "--seat", "green=g@x.org"]
    assert run.invoke(cli, ["--db", db, "new", "w1", "--game", "wallenstein", *seats, "--seed", "bots", "--weak-seed"]).exit_code == 0
    bots = ["--db", db, "bots", "w1", "--seat", "red", "--seat", "blue", "--seat", "green"]
    assert run.invoke(cli, bots).exit_code == 0
    assert run.invoke(cli, ["--db", db, "adjudicate", "w1"]).exit_code == 0
    assert run.invoke(cli, ["--db", db, "rollback", "w1", "--to", "1618-spring", "--reason", "test"]).exit_code == 0
    again = run.invoke(cli, [*bots, "--out", str(tmp_path / "o")])
    assert again.exit_code == 0, again.output
    dup = run.invoke(cli, ["--db", db, "ingest", str(tmp_path / "o" / "w1.1618-spring.red.txt")])
    assert "duplicate" in dup.output and "add any line above its GAME line" in " ".join(dup.output.split())
    assert run.invoke(cli, ["--db", db, "adjudicate", "w1"]).exit_code == 0
