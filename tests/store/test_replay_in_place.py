"""A replay hands each state it made to the engine's ``advance_owned`` (changed in place, not
copied: :data:`pbem.store.events.IN_PLACE`). That must give the same states, hashes and
verification results, byte for byte, as copying the state before each decision, for every game
of the compatibility corpus (every release's running and finished games, under the rules
version each was played with) and for games played here; and no state the fold hands over may
share a part with the log's payloads or what the engines keep (tests/ownership.py), which
these tests check before every handover, so an engine that began to share would fail here
even where the games played so far change nothing shared.
"""

from __future__ import annotations

import dataclasses
import lzma
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.base import canonical_json
from pbem.store import events as fold_module
from pbem.store.db import Store
from tests.compat.make_corpus import CORPUS, releases
from tests.ownership import Owned

ADVANCE = fold_module._advance  # the fold's own (each replay below wraps it anew)
DATABASES = [pytest.param(name, kind, id=f"{name}-{kind}") for name in releases()
             for kind in ("running", "finished") if (CORPUS / name / f"{kind}.db.xz").exists()]


def replayed(game_id: str, events: list[Any], seed: str, in_place: bool, monkeypatch: pytest.MonkeyPatch,
             verify: bool = True) -> dict[str, Any]:
    """The fold of ``events`` (verifying unless told) with or without handing states over: the
    text of the state and derived events after every decision, and what the fold ended with
    (the game's state, hash, turns, notes of what it could not check) or the error it raised.
    Before every handover the state is checked to share nothing (tests/ownership.py)."""
    payloads = [e.payload for e in events]
    guard = Owned(payloads)
    steps: list[str] = []
    advance = ADVANCE

    def recording(game: Any, orders: Any, owned: bool) -> Any:
        if owned:  # what is handed over belongs to the fold alone
            guard.check(game.state, f"{game_id} before turn {len(game.turns)}")
        state, derived = advance(game, orders, owned)
        steps.append(canonical_json(state) + canonical_json(derived))
        return state, derived

    monkeypatch.setattr(fold_module, "_advance", recording)
    monkeypatch.setattr(fold_module, "IN_PLACE", in_place)
    texts = [canonical_json(p) for p in payloads]
    try:
        game = fold_module.fold(game_id, events, seed, verify=verify)
        end = [canonical_json(game.state), game.state_hash, game.unverified, canonical_json(list(game.turns)),
               game.last_seq, game.over]
    except AssertionError:
        raise
    except Exception as exc:  # noqa: BLE001 - a log that does not verify must fail alike both ways
        end = [type(exc).__name__, str(exc)]
    assert [canonical_json(p) for p in payloads] == texts, "the fold changed the log's payloads"
    return {"steps": steps, "end": end}


def same_both_ways(store: Store, game_id: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """Assert the replay in place equals the replay copying; the number of decisions."""
    seed = store.secrets(game_id)[0]
    copying = replayed(game_id, store.events(game_id), seed, False, monkeypatch)
    in_place = replayed(game_id, store.events(game_id), seed, True, monkeypatch)
    assert in_place["end"] == copying["end"], game_id
    assert in_place["steps"] == copying["steps"], game_id
    return len(copying["steps"])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Games of the newest versions of all three played through the service by bots
    (bench/gamedb.py: every order recorded as an order event, a deadline each turn), and a
    Wallenstein game with the draft (its lines are orders sent in advance)."""
    from datetime import datetime, timezone

    from adjudicator.chance import Chance
    from bench.gamedb import fixed_clock, make_templates, play, quiet_mail
    from pbem.loop.service import Service

    db = tmp_path_factory.mktemp("played") / "games.db"
    start = datetime(2026, 10, 1, tzinfo=timezone.utc)
    with pytest.MonkeyPatch.context() as patch:  # no welcome mails either: their reports are not replayed
        patch.setattr("pbem.mailout.notify.welcome", lambda *a, **k: None)
        patch.setattr("pbem.mailout.notify.queue", lambda *a, **k: 0)
        make_templates(db, start, (("ww", "wallenstein", 4), ("wh", "havoc", 60), ("wg", "gods-playground", 80)))
        service = Service(Store(db, clock=fixed_clock(start)), "gm@example.org")
        with quiet_mail():
            seats = ("red", "blue", "green")
            service.new_game("wd", "wallenstein", [(s, f"{s}@example.org") for s in seats],
                             {"setup": "draft"}, "draft-game-0123456789abcdef0123456789abcdef")
            chance = Chance("draft lines")
            for step in range(8):  # the seats not on turn send their draft lines in advance
                game = service.load("wd")
                for seat in seats:
                    if seat not in game.pending.seats:
                        lines = game.engine.random_orders(game.state, seat, chance.stream(f"{step}/{seat}"))
                        service.submit_standing("wd", seat, lines, "", {"kind": "bot"})
                play(service, "wd", 1, f"wd{step}")
            play(service, "wd", 6, "wd")
        service.store.close()
    store = Store(db)
    yield store
    store.close()


@pytest.mark.parametrize("name,kind", DATABASES)
def test_the_corpus_replays_in_place_as_it_does_copying(name: str, kind: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / f"{name}-{kind}.db"
    db.write_bytes(lzma.decompress((CORPUS / name / f"{kind}.db.xz").read_bytes()))
    store = Store(db)
    games = [r[0] for r in store.db.execute("select distinct game_id from events order by game_id").fetchall()]
    assert games
    assert sum(same_both_ways(store, g, monkeypatch) for g in games) > 0
    store.close()


def test_games_of_all_three_replay_in_place_as_they_do_copying(played: Store,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    for game_id in ("ww", "wh", "wg", "wd"):
        assert same_both_ways(played, game_id, monkeypatch) > 3


def test_a_forged_log_is_refused_alike_both_ways(played: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat recorded as missing its orders though it sent them: the same refusal in place
    (that check reads the state before the decision, which the engine then changes)."""
    events, seed = played.events("wh"), played.secrets("wh")[0]
    turns = [i for i, e in enumerate(events) if e.type == "TurnAdjudicated" and not e.payload["defaulted"]]
    i = turns[5]
    payload = {**events[i].payload, "defaulted": sorted(events[i].payload["orders"])[:1], "forced": True}
    events[i] = dataclasses.replace(events[i], payload=payload)
    copying = replayed("wh", events, seed, False, monkeypatch)["end"]
    assert copying[0] == "ReplayMismatch" and "missing its orders" in copying[1], copying
    assert replayed("wh", events, seed, True, monkeypatch)["end"] == copying


class _Sharing:
    """An engine that breaks the ownership rule: its states keep a part of what it was given
    (the orders of the decision) or of what it keeps (a parsed data file)."""

    def __init__(self, engine: Any, what: str) -> None:
        self.engine, self.what = engine, what

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def advance_owned(self, state: Any, orders: Any, seed: str) -> Any:
        state, derived = self.engine.advance_owned(state, orders, seed)
        if self.what == "orders":
            state["kept"] = next(iter(orders.values()))
        else:
            from adjudicator.versions import kept_values

            state["kept"] = kept_values()[0]
        return state, derived


@pytest.mark.parametrize("what", ["orders", "data"])
def test_the_check_finds_an_engine_that_shares(what: str, played: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    events, seed = played.events("wh"), played.secrets("wh")[0]
    engine_for = fold_module.engine_for
    monkeypatch.setattr(fold_module, "engine_for", lambda *a, **k: _Sharing(engine_for(*a, **k), what))
    with pytest.raises(AssertionError, match="shares objects it does not own"):
        replayed("wh", events, seed, True, monkeypatch, verify=False)  # (the extra key fails a verifying fold)
