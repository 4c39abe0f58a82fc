"""``pbem demo --game gods-playground`` plays a whole game by mail with the bots, and
``pbem bots`` can play a seat."""

from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

from pbem.cli.main import cli


@pytest.mark.slow  # a whole game: the long campaigns' marker (CI runs them)
def test_demo_plays_a_whole_game_by_mail(tmp_path):
    out = tmp_path / "demo"
    db = str(tmp_path / "demo.db")
    result = CliRunner().invoke(cli, ["--db", db, "demo", "--game", "gods-playground", "--seats", "3",
                                      "--out", str(out), "--no-reports", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verified"] and data["winner"] in ("white", "blue", "red")
    assert data["turns"][0].startswith("r1/estate/") and data["turns"][-1].startswith("r4/")
    assert data["mails"] >= len(data["turns"])
    shown = CliRunner().invoke(cli, ["--db", db, "show", "demo-gods-playground", "--public", "--json"])
    view = json.loads(shown.output)
    assert view["over"] and view["winner"] == data["winner"] and view["provisional"]
    replay = CliRunner().invoke(cli, ["--db", db, "replay", "demo-gods-playground", "--verify"])
    assert replay.exit_code == 0 and "reproduced" in replay.output


@pytest.mark.slow  # a whole game
def test_a_game_whose_every_load_reads_its_head_verifies(tmp_path, monkeypatch):
    """The demo with the process cache off, so that every load reads the game's head as a new
    process (cron's ``tick``, a mail hook) does: the archive still verifies. A head that kept
    the canonical text (sorted keys) made a decision record a victory-point box's seats in
    another order than a replay from the first event (round 2 of this game)."""
    import pbem.loop.reading

    monkeypatch.setattr(pbem.loop.reading, "CACHE_GAMES", 0)
    db = str(tmp_path / "demo.db")
    result = CliRunner().invoke(cli, ["--db", db, "demo", "--game", "gods-playground", "--seats", "3",
                                      "--out", str(tmp_path / "demo"), "--no-reports", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["verified"]
    replay = CliRunner().invoke(cli, ["--db", db, "replay", "demo-gods-playground", "--verify"])
    assert replay.exit_code == 0 and "reproduced" in replay.output
