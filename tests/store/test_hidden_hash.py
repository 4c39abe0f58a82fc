"""No hidden information through the published state hash.

A seat knows everything in the Wallenstein state but the order of the five face-down action
cards (rule 4.1.1). The attack gives it the true state for free and tries all 120 orders of
those cards against the hash it was shown: with a plain hash of the full state exactly one
order matches, so the hidden order is found. Published hashes must be keyed with the seed.
"""

from __future__ import annotations

import copy
import itertools

import pytest

from adjudicator.base import state_hash
from pbem.archives.archive import export_game, verify_archive
from pbem.store.events import KEYED_DIGEST, state_digest
from pbem.archives.records import record_of
from pbem.mailout.reporting import render_turn
from turns.record import write_record

SEATS = [("red", "r@x.org"), ("blue", "b@x.org"), ("green", "g@x.org"), ("yellow", "y@x.org")]
SEED = "hidden-hash-test-seed-0123456789abcdef"


def _brute_force(state: dict, published: str) -> list[tuple[str, ...]]:
    """Every order of the face-down action cards whose full-state hash equals ``published``."""
    hits = []
    for order in itertools.permutations(state["actions"][5:]):
        guess = copy.deepcopy(state)
        guess["actions"] = state["actions"][:5] + list(order)
        if state_hash(guess) == published:
            hits.append(order)
    return hits


@pytest.fixture
def played(service):
    service.new_game("w1", "wallenstein", SEATS, {}, SEED)
    service.adjudicate("w1", force=True)
    return service


def test_published_hashes_do_not_reveal_face_down_actions(played):
    game = played.load("w1")
    assert game.state["phase"] == "plan" and len(set(game.state["actions"][5:])) == 5
    events = played.store.events("w1")
    published = {
        "setup (GameCreated)": events[0].payload["state_hash"],
        "turn (TurnAdjudicated)": events[-1].payload["state_hash"],
        "status": played.status("w1")[0]["state_hash"],
    }
    # the hash a seat is shown in its report is the one the attack uses
    (red_report,) = render_turn(game, game.turns[-1], [], only=["red"])
    assert published["turn (TurnAdjudicated)"] in red_report.rendered.text
    for where, digest in published.items():
        state = game.state if where != "setup (GameCreated)" else _setup_state(game)
        assert _brute_force(state, digest) == [], f"the {where} hash lets a seat find the hidden action order"
    # ... and the record and the archive of the running game carry no plain hash either
    plain = state_hash(game.state)
    assert plain not in write_record(record_of(game, events))
    assert plain not in str(export_game(played.store, "w1"))


def _setup_state(game):
    state, _ = game.engine.create(list(game.seats), game.created["options"], game.seed)
    return state


def test_keyed_hashes_are_checkable_once_the_seed_is_revealed(played):
    game = played.load("w1")
    assert game.created["state_digest"] == KEYED_DIGEST
    assert game.turns[-1]["state_hash"] == state_digest(game.state, SEED, KEYED_DIGEST)
    played.abandon("w1", "test over")
    archive = export_game(played.store, "w1")
    assert archive["seed"] == SEED
    result = verify_archive(archive)
    assert result.ok and result.replayed, result.problems
    assert state_digest(game.state, "another seed", KEYED_DIGEST) != game.turns[-1]["state_hash"]
