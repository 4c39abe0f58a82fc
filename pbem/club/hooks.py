"""Where the service, tick and status call the club: one function per moment of the turn loop.

Each is called inside the transaction of the service operation that calls it, so what the
club records (a civil disorder, the bot's orders, a moved deadline, the votes of a round that
ended) is committed with the turn, or not at all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.club import absence
from pbem.store.clubstate import instant, watched  # noqa: F401 - watched: the club's, kept with its state


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


def status_fields(game: Any, now: datetime, store: Any = None) -> dict[str, Any]:
    """The club's part of ``pbem status`` for one loaded game: absences, missed turns, the seats
    the bot plays, the observers, the seats offered to new players."""
    fields = absence.status_fields(game, now)
    if store is not None and game.pending is not None:
        offered = store.conn.execute("select seat from club_offers where game_id = ? and taken_at is null",
                                     [game.game_id]).fetchall() if _has(store, "club_offers") else []
        fields["offered"] = [r[0] for r in offered]
    return fields


def _has(store: Any, table: str) -> bool:
    """Whether the database has ``table`` (a read-only status of a database not migrated yet)."""
    return store.conn.execute("select 1 from sqlite_master where type = 'table' and name = ?", [table]).fetchone() is not None


def lobby_rows(store: Any, game_id: str | None) -> list[dict[str, Any]]:
    """The open games not started yet (or the one named), as ``pbem status`` lists them."""
    if not _has(store, "club_lobby"):
        return []
    from pbem.club import lobby

    games = [g for g in lobby.open_games(store) if game_id in (None, g["game"])]
    return [{"game": g["game"], "engine": g["engine"], "over": False, "turn": None, "seats": g["seats"],
             "open": {"free": g["free"], "taken": sorted(g["taken"]), "asked": len(g["asked"]), "join": g["join"]}}
            for g in games]


def status_lines(row: dict[str, Any]) -> list[str]:
    """The lines ``pbem status`` prints under a game for the club's fields."""
    out = []
    for seat, a in (row.get("absences") or {}).items():
        out.append(f"  absent: {seat} from {a['from']} to {a['to']}" + (" (away now)" if a.get("now") else ""))
    if row.get("bot_played"):
        out.append("  played by the bot: " + ", ".join(f"{s} ({why})" for s, why in row["bot_played"].items()))
    if row.get("missed"):
        out.append("  missed turns in a row: " + ", ".join(f"{s} {n}" for s, n in row["missed"].items()))
    if row.get("offered"):
        out.append(f"  seats offered to new players (JOIN by mail): {', '.join(row['offered'])}")
    if row.get("observers"):
        out.append(f"  observers: {len(row['observers'])} ({', '.join(row['observers'])}); 'pbem observe' lists them")
    return out


def seat_lines(game: Any, seat: str, now: datetime) -> list[str]:
    """What the STATUS mail command tells a seat of its own standing in the club: its absence,
    the bot playing it, its own vote of this round (never another seat's)."""
    from pbem.club.absence import WHY
    from reports.i18n import _

    club = game.club
    out = []
    absent = club.absences.get(seat)
    if absent is not None and instant(absent["to"]) >= now:
        out.append(_("Your absence: from {start} to {end}.").format(start=absent["from"], end=absent["to"]))
    why = club.bot_played(seat)
    if why:
        out.append(_("The game's bot plays your seat ({why}).").format(why=_(WHY.get(why, why))))
    if club.draw.get(seat):
        out.append(_("Your vote this round: for a draw (secret until the round ends or the draw passes)."))
    if seat in club.concede:
        out.append(_("Your vote this round: the game conceded to {seats} (secret).").format(
            seats=", ".join(club.concede[seat])))
    return out


def ended_text(ended: dict[str, Any]) -> str:
    """How the players ended a game, in a few words (``pbem status``)."""
    seats = ", ".join(ended["seats"])
    return {"draw": f"drawn between {seats}", "concession": f"conceded to {seats}",
            "resignation": f"won by {seats}: every other seat resigned"}.get(ended["how"], ended["how"]) \
        + f" (turn {ended.get('turn')})"


def announce(service: Any, game_id: str, engine: str, count: int | None, seats: tuple[str, ...],
             options: dict[str, str], clocks: dict[str, str | None], seed: str | None) -> dict[str, Any]:
    """``pbem new --open``: the seats (``--seats N`` named after the game's colours, or each
    ``--seat NAME[=EMAIL]``) and the open game announced (:func:`pbem.club.lobby.announce`)."""
    from pbem.club import lobby
    from pbem.errors import DomainError

    if seed:
        raise DomainError("an open game draws its own seed when it starts; --seed goes with a game created at once")
    if clocks.get("deadline") and (clocks.get("deadline_every") or clocks.get("decision_every")):
        raise DomainError("give --deadline or --deadline-every/--decision-every, not both")
    pairs = [(name.strip(), address.strip() or None) for name, _, address in (s.partition("=") for s in seats)]
    if count is not None:
        names = lobby.seat_names(engine)
        spare = (*names, *lobby.DEFAULT_NAMES, *(f"seat{n}" for n in range(1, count + 1)))
        extra = list(dict.fromkeys(n for n in spare if n not in {p[0] for p in pairs}))
        if count < len(pairs):
            raise DomainError(f"--seats {count} is fewer than the {len(pairs)} seats named")
        pairs += [(n, None) for n in extra[:count - len(pairs)]]
    if not pairs:
        raise DomainError("an open game needs --seats N (or --seat NAME for each seat)")
    return lobby.announce(service, game_id, engine, pairs, options, clocks)


def tick(service: Any, now: datetime) -> list[tuple[str, str]]:
    """One run of the club's part of ``pbem tick``: the pending turn of every running game the
    club watches (:func:`watched`, read from the due index without loading the others) settled
    (:func:`turn_open`); ``(game, what was done)`` for each game where something was recorded."""
    from pbem.store import projection

    done = []
    for game_id in projection.watched_games(service.store):
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
    return watched(game)
