"""Where the service, tick and status call the club: one function per moment of the turn loop.

Each is called inside the transaction of the service operation that calls it, so what the
club records (a civil disorder, the bot's orders, a moved deadline, the votes of a round that
ended) is committed with the turn, or not at all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.club import absence


def turn_open(service: Any, game: Any, now: datetime) -> Any:
    """Before a pending turn is looked at (adjudication, tick): the bot's orders for the seats it
    plays, the deadline moved for absent seats. Returns the game (reloaded if anything was recorded)."""
    if game.pending is None:
        return game
    return absence.settle(service, game, now)


def after_turn(service: Any, game: Any, payload: dict[str, Any], reported: bool, cause_seq: int) -> Any:
    """After an adjudication was recorded and its reports queued: civil disorder for seats that
    missed too many turns in a row. Returns the game (reloaded if anything was recorded)."""
    return absence.after_turn(service, game, payload)


def status_fields(game: Any, now: datetime) -> dict[str, Any]:
    """The club's part of ``pbem status`` for one loaded game."""
    return absence.status_fields(game, now)


def status_lines(row: dict[str, Any]) -> list[str]:
    """The lines ``pbem status`` prints under a game for the club's fields."""
    out = []
    for seat, a in (row.get("absences") or {}).items():
        out.append(f"  absent: {seat} from {a['from']} to {a['to']}" + (" (away now)" if a.get("now") else ""))
    if row.get("bot_played"):
        out.append("  played by the bot: " + ", ".join(f"{s} ({why})" for s, why in row["bot_played"].items()))
    if row.get("missed"):
        out.append("  missed turns in a row: " + ", ".join(f"{s} {n}" for s, n in row["missed"].items()))
    return out


def tick(service: Any, now: datetime) -> list[tuple[str, str]]:
    """One run of the club's part of ``pbem tick``: every running game's pending turn settled
    (:func:`turn_open`); ``(game, what was done)`` for each game where something was recorded."""
    done = []
    for game_id in service.store.game_ids():
        try:
            game = service.load(game_id)
        except Exception:  # noqa: BLE001 - tick names a game that cannot be loaded elsewhere
            continue
        if game.pending is None or not _may_settle(game, now):
            continue
        with service.store.transaction():
            game = service.load(game_id)
            before = game.last_seq
            after = turn_open(service, game, now)
            if after.last_seq != before:
                done.append((game_id, f"{game_id}: bot orders or a deadline for absent seats recorded"))
    return done


def _may_settle(game: Any, now: datetime) -> bool:
    """Whether :func:`turn_open` could record anything for ``game`` (cheap: no transaction)."""
    return bool(game.club.absences or game.club.disorder or game.club.resigned)
