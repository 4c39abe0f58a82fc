"""What the GM reads of the games (``pbem status``, ``pbem games``, ``pbem log``, ``pbem show``):
plain rows and dataclasses the command line prints as text or JSON.

The status of every game is built so that one game that cannot be loaded, or whose seed is
not known here (an imported running game), never hides the others."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adjudicator.base import GameError
from pbem.errors import DomainError
from pbem.mailout.languages import languages_of_log

if TYPE_CHECKING:
    from pbem.loop.service import Service
    from pbem.store.db import Store


def status_rows(service: Service, game_id: str | None = None) -> list[dict[str, Any]]:
    """The status of one game (a list of one row) or of all, then the open games not started
    (the lobby's rows, ``open``: their free and taken seats). A game's row also holds the mail
    its seats cannot receive (``delivery_problems``) and what mail made the service do in the
    last days (``mail_guard``). With ``game_id`` a game that cannot be loaded raises its
    one-line :class:`DomainError`; in the list of all games it is a row with ``error``."""
    from pbem.club.hooks import lobby_rows
    from pbem.mailin import guard
    from pbem.mailout import outqueue

    lobby = lobby_rows(service.store, game_id)  # open games not started: their open seats (pbem.club.lobby)
    rows = lobby if game_id and lobby else _game_rows(service, game_id) + lobby
    for row in rows:
        if row.get("open"):
            continue
        row["delivery_problems"] = outqueue.problems(service.store, row["game"], *_seat_addresses(service, row))
        row["mail_guard"] = guard.summary(service.store, row["game"])
    return rows


def _seat_addresses(service: Service, row: dict[str, Any]) -> tuple[set[str] | None, bool]:
    """The addresses the seats of ``row``'s game use now, and whether it is over: a delivery
    problem of an address no seat uses any more, or of a finished game, is no longer shown."""
    if row.get("error") or row.get("seed_known") is False:
        return None, bool(row.get("over"))
    game = service.load(row["game"])  # just loaded for the status: cached
    return {a for s in game.seats.values() for a in (s["email"], *s.get("addresses", ()))}, bool(row["over"])


def _game_rows(service: Service, game_id: str | None) -> list[dict[str, Any]]:
    """The status of one game or of all; a game whose seed is not known here (an imported
    running game) is listed from its recorded events instead of breaking the list, and in the
    list of all games one that cannot be loaded is named with its problem (the others go on)."""
    from pbem.store.events import ReplayMismatch, SeedUnknown

    ids = [game_id] if game_id else service.store.game_ids()
    rows = []
    for gid in ids:
        try:
            rows += service.status(gid)
        except DomainError as exc:
            if isinstance(exc.__context__, SeedUnknown):
                rows.append(unreplayable_status(service.store, gid))
            elif game_id:
                raise
            else:
                rows.append(broken_status(service.store, gid, exc))
        except Exception as exc:  # noqa: BLE001 - one game that cannot be loaded must not hide the others
            if game_id and isinstance(exc, (GameError, ReplayMismatch)):
                raise DomainError(f"{gid} cannot be loaded: {exc}") from None
            if game_id:
                raise
            rows.append(broken_status(service.store, gid, exc))
    return rows


def broken_status(store: Store, game_id: str, exc: BaseException) -> dict[str, Any]:
    """The status row of a game that cannot be loaded: its name, engine and the problem."""
    events = store.events(game_id)
    created = events[0].payload if events and events[0].type == "GameCreated" else {}
    problem = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return {"game": game_id, "engine": created.get("engine"), "engine_version": created.get("engine_version"),
            "error": problem, "over": None, "turn": None, "seats": [s.get("name") for s in created.get("seats", [])]}


def unreplayable_status(store: Store, game_id: str) -> dict[str, Any]:
    """What the log of a game says without replaying it (its seed is not known here): the
    turns recorded, the last state hash and scores; the position itself cannot be rebuilt."""
    events = store.events(game_id)
    created = events[0].payload if events else {}
    turns = [e.payload for e in events if e.type == "TurnAdjudicated"]
    last = turns[-1] if turns else {}
    note = (f"the seed is not known here (an imported running game): {len(turns)} turn(s) recorded"
            + (f", the last {last['turn']}" if turns else "") + "; its position cannot be rebuilt until the "
            "seed is revealed ('pbem replay " + game_id + " --verify' checks its hash chain)")
    return {"game": game_id, "engine": created.get("engine"), "engine_version": created.get("engine_version"),
            "seed_known": False, "turn": None,
            "turns_recorded": len(turns), "last_turn": last.get("turn"), "state_hash": last.get("state_hash"),
            "scores": last.get("scores"), "over": bool(last.get("over")), "winner": last.get("winner"),
            "seats": [s["name"] for s in created.get("seats", [])], "note": note, **languages_of_log(events)}


def game_list(store: Store) -> list[dict[str, Any]]:
    """Every game of the database by id, from the games projection (no replay): its game type,
    pending turn, whether it is over, the winner, and the GM's reason if it was abandoned."""
    abandoned = {r["game_id"]: json.loads(r["payload"]).get("reason", "")
                 for r in store.rows("select game_id, payload from events where type = 'GameAbandoned'")}
    return [{"game": r["game_id"], "engine": r["engine"], "turn": r["turn"], "over": bool(r["over"]),
             "winner": r["winner"], "abandoned": abandoned.get(r["game_id"])}
            for r in store.db["games"].rows_where(order_by="game_id")]


@dataclass(frozen=True)
class EventLog:
    """A game's event log as recorded (the GM's view: every seat's orders) and the breaks in
    its hash chain (none: the log is intact)."""

    events: list[dict[str, Any]]
    chain_problems: list[str]


def event_log(store: Store, game_id: str) -> EventLog:
    """The log of ``game_id`` with its chain checked; a :class:`DomainError` for no such game."""
    store.require_game(game_id)
    return EventLog([e.as_dict() for e in store.events(game_id)], store.verify(game_id))


def game_view(service: Service, game_id: str, viewer: str) -> Any:
    """What ``viewer`` (a seat, the public or the GM) may see of the game now; a dict view
    also names every seat's colour, whatever the game's view looks like."""
    from pbem.mailout.colours import of_game

    game = service.load(game_id)
    view = service.view(game, viewer)
    if isinstance(view, dict):
        view = {**view, "seat_colors": of_game(game)}
    return view
