"""Where the service, tick and status call the club: one function per moment of the turn loop.

Each is called inside the transaction of the service operation that calls it, so what the
club records (a civil disorder, the bot's orders, a moved deadline, the votes of a round that
ended) is committed with the turn, or not at all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.club import absence
from pbem.club.state import instant


def turn_open(service: Any, game: Any, now: datetime) -> Any:
    """Before a pending turn is looked at (adjudication, tick): the bot's orders for the seats it
    plays, the deadline moved for absent seats. Returns the game (reloaded if anything was recorded)."""
    if game.pending is None:
        return game
    return absence.settle(service, game, now)


def after_turn(service: Any, game: Any, payload: dict[str, Any], reports: list[Any], cause_seq: int) -> Any:
    """After an adjudication was recorded and its reports queued: the observers' copies of the
    public report (and the record at the end), civil disorder for seats that missed too many
    turns in a row (which may leave the votes of the others enough to end the game), the votes
    of a voting round that ended. Returns the game (reloaded if anything was recorded)."""
    from pbem.club import endings, observers

    observers.after_turn(service, game, payload, reports, cause_seq)
    before = game.last_seq
    game = absence.after_turn(service, game, payload)
    if game.last_seq != before and endings.check_end(service, game) is not None:
        return service.load(game.game_id)
    return endings.close_round(service, game, payload)


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


def seat_lines(game: Any, seat: str, now: datetime) -> list[str]:
    """What the STATUS mail command tells a seat of its own standing in the club: its absence,
    the bot playing it, its own vote of this round (never another seat's)."""
    club = game.club
    out = []
    absent = club.absences.get(seat)
    if absent is not None and instant(absent["to"]) >= now:
        out.append(f"Your absence: from {absent['from']} to {absent['to']}.")
    why = club.bot_played(seat)
    if why:
        out.append(f"The game's bot plays your seat ({why}).")
    if club.draw.get(seat):
        out.append("Your vote this round: for a draw (secret until the round ends or the draw passes).")
    if seat in club.concede:
        out.append(f"Your vote this round: the game conceded to {', '.join(club.concede[seat])} (secret).")
    return out


def ended_text(ended: dict[str, Any]) -> str:
    """How the players ended a game, in a few words (``pbem status``)."""
    seats = ", ".join(ended["seats"])
    return {"draw": f"drawn between {seats}", "concession": f"conceded to {seats}",
            "resignation": f"won by {seats}: every other seat resigned"}.get(ended["how"], ended["how"]) \
        + f" (turn {ended.get('turn')})"


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
