"""What-if branches: ``pbem branch G --at TURN --as G2 [--same-seed]``.

A branch is a new game whose log starts with G's history up to and including TURN: its
``GameCreated`` copies G's game, options and seats and carries ``branch`` = {of, at,
turns, same_seed, parent_commitment, parent_seq, parent_hash} (where in G it starts: the
event and its chain hash); then G's adjudications (and standing orders) up to TURN
follow, re-hashed in the branch's own chain and state digest. G is only read, never written.

Chance: with ``--same-seed`` the branch draws from G's seed, so it is G up to TURN and the
same orders after it give the same results as in G. Otherwise the branch has its own new
seed (:func:`pbem.loop.seeds.new_seed`) for everything after TURN; the turns up to TURN were drawn
from G's seed, so the branch's secret seed is the JSON list ``[G's seed, own seed]`` and its
commitment the SHA-256 of that text (:func:`pbem.store.events.chance_seed`).

Seats: the same seat names and addresses as G, each with a new password (printed once by
``--json``, and mailed in a welcome mail with the seat's position unless ``--no-mail``).
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.chance import commitment
from pbem.store.auth import check_game_id, hash_password, new_password
from pbem.errors import DomainError
from adjudicator.versions import upgraded_state
from pbem.store.events import KEYED_DIGEST, Game, engine_for, fold, state_digest
from pbem.store.rollback import cut_index, live_events
from pbem.loop.seeds import new_seed
from pbem.mailout.branchmark import banner, with_banner  # noqa: F401 (the branch's mark, kept importable here)
from pbem.store.db import NewEvent, StoredEvent

#: The events of G up to TURN that a branch copies (the others are not part of the state).
COPIED = ("TurnAdjudicated", "StandingOrders", "EngineUpgraded")


def branch(service: Any, game_id: str, at: str, new_id: str, same_seed: bool = False,
           mail: bool = True) -> dict[str, Any]:
    """Create the branch ``new_id`` of ``game_id`` at turn ``at``; returns what ``--json`` prints."""
    from pbem.mailout import notify

    check_game_id(new_id)
    parent = service.load(game_id)
    events = service.store.events(game_id)
    if parent.created.get("branch"):
        raise DomainError(f"{game_id} is itself a branch of {parent.created['branch']['of']}: branch that game")
    live = live_events(events)
    cut = cut_index(live, at)
    if cut is None:
        done = [t["turn"] for t in parent.turns]
        raise DomainError(f"turn {at!r} of {game_id} has not been adjudicated, so there is no history to branch "
                          f"at; turns so far: {', '.join(done[-8:]) or 'none'}")
    if live[cut].payload.get("over"):
        raise DomainError(f"the game ended at turn {at}: branch at an earlier turn")
    seed = parent.seed if same_seed else json.dumps([parent.seed, new_seed()])
    moment = parent.created.get("rules_as_of", events[0].recorded_at)
    engine = _original(parent, moment)
    created = _created(parent, engine, moment, new_id, at, live[cut], seed, same_seed)
    new = [NewEvent("GameCreated", created), *_copied(parent, engine, live[1:cut + 1], created, seed)]
    passwords = {s: new_password() for s in parent.seats}
    credentials = {}
    for seat, password in passwords.items():
        salt, digest = hash_password(password)
        credentials[seat] = {"salt": salt, "password_hash": digest}
    with service.store.transaction():
        if service.store.game_row(new_id) is not None:
            raise DomainError(f"game {new_id!r} already exists")
        service.store.append(new_id, new, expected_seq=0)
        service.store.put_secrets(new_id, seed, credentials)
        game = fold(new_id, service.store.events(new_id), seed)
        service._project(game, created=True)
        if mail:
            for seat in game.seats:
                notify.queue(service.store, game, notify.welcome(game, seat, passwords[seat], service.sender, at))
    pending = game.pending
    return {"game": new_id, "branch_of": game_id, "at": at, "turns": created["branch"]["turns"],
            "same_seed": same_seed, "commitment": created["commitment"], "turn": pending.turn if pending else None,
            "state_hash": game.state_hash, "mailed": mail,
            "seats": {s: {"email": game.seats[s]["email"], "password": passwords[s]} for s in game.seats}}


def _created(parent: Game, engine: Any, moment: str, new_id: str, at: str, cut: StoredEvent, seed: str,
             same_seed: bool) -> dict[str, Any]:
    """The branch's ``GameCreated`` payload (setup re-run with G's seed, hashed with the branch's).

    The branch begins under the rules G began with (its upgrades up to TURN are copied), read as
    of G's creation (``rules_as_of``, when that moment reads a rule point otherwise)."""
    p = parent.created
    turns = sum(1 for t in parent.turns if t["seq"] <= cut.seq)
    state, setup = engine.create([s["name"] for s in p["seats"]], p["options"], parent.seed)
    created = {key: value for key, value in p.items() if key not in ("deadlines",)}
    created.update({
        "game": new_id, "engine_version": engine.version, "commitment": commitment(seed),
        "data_files": engine.data_files(), "setup_events": setup, "state_digest": KEYED_DIGEST,
        "state_hash": state_digest(state, seed, KEYED_DIGEST), "deadlines": {},
        "seats": [{k: v for k, v in s.items() if k not in ("salt", "password_hash")} for s in p["seats"]],
        "branch": {"of": parent.game_id, "at": at, "turns": turns, "same_seed": same_seed,
                   "parent_commitment": p["commitment"], "parent_seq": cut.seq, "parent_hash": cut.hash},
    })
    release = getattr(engine, "release", None)
    if release is not None and release.window_readings(moment):
        created["rules_as_of"] = moment
    return created


def _original(parent: Game, moment: str) -> Any:
    """The engine G was created with (before any upgrade), read as of ``moment``."""
    return engine_for(parent.game_id, parent.created, created_at=moment)


def _copied(parent: Game, engine: Any, events: list[StoredEvent], created: dict[str, Any],
            seed: str) -> list[NewEvent]:
    """G's adjudications (and standing orders) up to the cut, re-run with G's seed and
    re-hashed in the branch's digest; the engine must reproduce G's derived events."""
    state, _ = engine.create([s["name"] for s in created["seats"]], created["options"], parent.seed)
    out = []
    for ev in events:
        if ev.type not in COPIED:
            continue
        if ev.type == "EngineUpgraded":  # G moved to newer rules here: so does the branch
            state = upgraded_state(engine, ev.payload["to"], state)
            engine = engine_for(parent.game_id, parent.created, ev.payload["to"], ev.payload.get("data_files"))
            out.append(NewEvent(ev.type, {**ev.payload, "state_hash": state_digest(state, seed, KEYED_DIGEST)}))
            continue
        if ev.type == "StandingOrders":
            state = engine.apply_standing(state, ev.payload["seat"], ev.payload["orders"])
            out.append(NewEvent(ev.type, dict(ev.payload)))
            continue
        state, derived = engine.advance(state, ev.payload["orders"], parent.seed)
        if json.dumps(derived, sort_keys=True) != json.dumps(ev.payload["events"], sort_keys=True):
            raise DomainError(f"turn {ev.payload['turn']} of {parent.game_id} does not replay: not branched")
        out.append(NewEvent(ev.type, {**ev.payload, "state_hash": state_digest(state, seed, KEYED_DIGEST)}))
    return out
