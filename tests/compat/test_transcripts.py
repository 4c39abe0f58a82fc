"""Random games played by the engines of earlier states of main replay here step for step.

``corpus/<release>/transcripts.jsonl.gz`` holds seeded random games each release's engines
played on their own (tests/compat/transcript.py, run by make_corpus.py against the release's
code): the orders of every step and the hash of the state and of the derived events after it.
Today's engine, held to the rules version and data files each game recorded, must accept the
same orders and reach the same hashes at every step. This is the rule-by-rule check that a
released version never changed behaviour; tests/compat/test_corpus.py checks the shell.
Each game is read as created at its release's date (the clock its pbem ran with), so a
release of a window (adjudicator/versions.py, ``Release.windows``) reads the window's rules.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from adjudicator.registry import get_engine
from adjudicator.versions import pin
from tests.compat.make_corpus import CORPUS, releases
from tests.compat.transcript import digest
from tests.ownership import Owned

FILES = [pytest.param(name, id=name) for name in releases() if (CORPUS / name / "transcripts.jsonl.gz").exists()]


def replay(game: dict[str, Any], created_at: str | None = None, owned: bool = False) -> str | None:
    """Where today's pinned engine first departs from the transcript (None: nowhere). With
    ``owned`` each state is handed to ``advance_owned`` (changed in place, as a replay's fold
    does) after checking that it shares nothing with the orders or what the engine keeps."""
    engine = pin(get_engine(game["engine"]), game["version"], game.get("data_files"), created_at)
    state, events = engine.create(game["seats"], game["options"], game["seed"])
    if [digest(state), digest(events)] != game["setup"]:
        return "the setup"
    guard = Owned([orders for orders, _, _ in game["steps"]])
    advance = engine.advance_owned if owned else engine.advance
    for i, (orders, state_hash, events_hash) in enumerate(game["steps"]):
        for seat, given in orders.items():
            problems = engine.validate(state, seat, given)
            if problems:
                return f"step {i}: {seat}'s orders are refused: {problems[0].message}"
        if owned:
            guard.check(state, f"the state before step {i}")
        state, events = advance(state, orders, game["seed"])
        if digest(events) != events_hash:
            return f"step {i}: the derived events differ"
        if digest(state) != state_hash:
            return f"step {i}: the state differs"
    return None


@pytest.mark.parametrize("name", FILES)
def test_old_random_games_replay_step_for_step(name: str) -> None:
    path, created = CORPUS / name / "transcripts.jsonl.gz", releases()[name]["date"]
    games = [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines() if line]
    assert games
    bad = [f"{g['engine']} {g['version']} {g['seats']} {g['options']} seed {g['seed']}: {why}"
           for g in games for why in [replay(g, created)] if why]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", FILES)
def test_old_random_games_replay_in_place_step_for_step(name: str) -> None:
    """The same games with every state handed over to ``advance_owned`` (a replay's fold):
    the same states and events under every released version, and no state sharing a part
    with the orders or the engines' tables (tests/ownership.py)."""
    path, created = CORPUS / name / "transcripts.jsonl.gz", releases()[name]["date"]
    games = [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines() if line]
    bad = [f"{g['engine']} {g['version']} {g['seats']} {g['options']} seed {g['seed']}: {why}"
           for g in games for why in [replay(g, created, owned=True)] if why]
    assert not bad, "\n".join(bad)
