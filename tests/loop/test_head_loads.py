"""A game whose every load reads its head, as each cron ``tick`` and mail hook (a new process)
reads it, plays to its end and verifies: the head must hand the engine the same state, key
order included, that a replay from the first event gives (pbem.store.heads.FORMAT)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli


@pytest.mark.slow  # whole games
@pytest.mark.parametrize("game, seats", [("havoc", "4"), ("wallenstein", "4")])
def test_a_game_whose_every_load_reads_its_head_verifies(tmp_path, monkeypatch, game, seats):
    import pbem.loop.reading
    from pbem.store import heads

    monkeypatch.setattr(pbem.loop.reading, "CACHE_GAMES", 0)  # no process cache: every load from the head
    read = heads.read_with_text
    used = []
    monkeypatch.setattr(heads, "read_with_text", lambda *a: (lambda got: (used.append(got is not None), got)[1])(read(*a)))
    db = str(tmp_path / "demo.db")
    result = CliRunner().invoke(cli, ["--db", db, "demo", "--game", game, "--seats", seats,
                                      "--out", str(tmp_path / "demo"), "--no-reports", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verified"] and sum(used) > len(data["turns"])  # the game came from its head, turn after turn
    replay = CliRunner().invoke(cli, ["--db", db, "replay", f"demo-{game}", "--verify"])
    assert replay.exit_code == 0 and "reproduced" in replay.output
