"""Ending a game by agreement: draw votes, concessions, resignations.

None of the three rulebooks says anything about conceding or leaving a game, so the engines
are not asked: an ending is a ``GameEnded`` event of the service, as ``pbem abandon`` is, and a
seat that leaves is played by the game's bot to the end (the rules never take a seat out).

- ``DRAW`` (in a GAME block of the seat): a ``DrawVoted`` event. The draw passes when every
  *voting* seat (not resigned, not in civil disorder: nobody is there to vote for a seat the
  bot plays) has voted for it within one voting round; it is shared by every seat not
  resigned. ``DRAW NO`` withdraws the vote.
- ``CONCEDE <seat> [seat...]``: a ``ConcessionVoted`` event: the game is conceded to those
  seats when every other voting seat concedes to the same seats within the round.
  ``CONCEDE NO`` withdraws it; ``CONCEDE`` alone resigns.
- ``RESIGN``: a ``SeatResigned`` event; the bot plays the seat from then on. When only one seat
  is left that has not resigned, the game ends in its favour (by resignation).

A **voting round** lasts from one report to the next (a season, a battle, a round, as the
game reports; a game without reports between decisions: one turn). Votes are secret
until the round ends or the ending passes: nobody is told who voted, the vote events are
sealed in a running game's published files, STATUS shows a seat its own vote only. When a
round ends with votes in it, a ``VotesClosed`` event records them and every seat is told
who voted for what; the next round starts with none.
"""

from __future__ import annotations

from typing import Any

from pbem.club import log
from pbem.mailout import clubmail as mailing
from pbem.store.clubstate import ending_problem, winner  # noqa: F401 - winner: kept with the state
from pbem.errors import DomainError
from pbem.store.db import NewEvent


# -- votes and resignations ------------------------------------------------------------
def _voting(service: Any, game_id: str, seat: str) -> Any:
    """The game, when ``seat`` may vote now; else a one-line DomainError."""
    game = service.load(game_id)
    game.require_running_seat(seat, ": there is no turn to vote in")
    why = game.club.bot_played(seat)
    if why == "resigned":
        raise DomainError(f"{seat} has resigned from {game_id} and no longer votes")
    if why:
        raise DomainError(f"{seat} is in civil disorder and does not vote: send BACK first")
    return game


def vote_draw(service: Any, game_id: str, seat: str, vote: bool) -> str:
    """Record ``seat``'s draw vote (inside the caller's transaction); the answer for the seat."""
    game = _voting(service, game_id, seat)
    if not vote and not game.club.draw.get(seat):
        raise DomainError("you have not voted for a draw in this round")
    if vote and game.club.draw.get(seat):
        raise DomainError("you have voted for a draw in this round already")
    payload = {"seat": seat, "turn": game.pending.turn, "vote": vote}
    _, after = log.append(service, game, [NewEvent("DrawVoted", payload)])
    if not vote:
        return "your vote for a draw is withdrawn."
    ended = check_end(service, after)
    if ended is not None:
        return f"the draw passes with your vote: {ended}"
    voters = game.club.voters(list(game.seats))
    return ("your vote for a draw is recorded. It is secret: nobody is told until the voting round ends "
            f"(at the next report) or the draw passes, which needs the votes of {', '.join(voters)} in this round.")


def vote_concede(service: Any, game_id: str, seat: str, to: list[str]) -> str:
    """Record ``seat``'s concession to ``to`` ([] withdraws it); the answer for the seat."""
    game = _voting(service, game_id, seat)
    names = {s.lower(): s for s in game.seats}
    unknown = [s for s in to if s.lower() not in names]
    if unknown:
        raise DomainError(f"{game_id} has no seat {unknown[0]!r} (seats: {', '.join(game.seats)})")
    chosen = sorted({names[s.lower()] for s in to})
    if seat in chosen:
        raise DomainError("you cannot concede the game to your own seat")
    if not chosen and seat not in game.club.concede:
        raise DomainError("you have not conceded in this round")
    payload = {"seat": seat, "turn": game.pending.turn, "to": chosen}
    _, after = log.append(service, game, [NewEvent("ConcessionVoted", payload)])
    if not chosen:
        return "your concession is withdrawn."
    ended = check_end(service, after)
    if ended is not None:
        return f"the concession passes with yours: {ended}"
    others = [s for s in game.club.voters(list(game.seats)) if s not in chosen]
    return (f"your concession to {', '.join(chosen)} is recorded. It is secret until the voting round ends; the "
            f"game is conceded when {', '.join(others)} concede to the same seats in this round.")


def resign(service: Any, game_id: str, seat: str, now: Any) -> str:
    """``seat`` leaves the game: the bot plays it to the end; every seat is told."""
    game = service.load(game_id)
    game.require_running_seat(seat)
    if seat in game.club.resigned:
        raise DomainError(f"{seat} has resigned from {game_id} already")
    (event,), after = log.append(service, game, [NewEvent("SeatResigned", {"seat": seat, "turn": game.pending.turn})])
    ended = check_end(service, after)
    if ended is not None:
        return f"your resignation is recorded: {ended}"
    from pbem.mailout.mailbase import wrapped
    from reports.i18n import _

    mailing.tell_seats(service, after, lambda: _("{seat} resigned").format(seat=seat), lambda: wrapped(
        _("Game {game}: seat {seat} has resigned. The game's bot plays it to the end of the game.").format(
            game=game_id, seat=seat)),
        "ending", event.seq, only=[s for s in after.seats if s != seat])
    from pbem.club import absence

    absence.settle(service, after, now)
    return "your resignation is recorded: the game's bot plays your seat to the end; every seat is told."


# -- endings ---------------------------------------------------------------------------------
def check_end(service: Any, game: Any) -> str | None:
    """End ``game`` when its votes or resignations say so (inside the caller's transaction):
    ``GameEnded`` and ``SeedRevealed``, every seat, the GM and the observers mailed the final
    report naming how it ended. Returns that sentence, or None when the game goes on."""
    if game.pending is None:
        return None
    ending = _ending(game)
    if ending is None:
        return None
    how, seats = ending
    payload = {"how": how, "seats": seats, "turn": game.pending.turn}
    stored, after = log.append(service, game, [NewEvent("GameEnded", payload),
                                               NewEvent("SeedRevealed", {"seed": game.seed})])
    sentence = describe(after)
    from pbem.club import reports

    reports.final(service, after, sentence, stored[0].seq)
    return sentence


def _ending(game: Any) -> tuple[str, list[str]] | None:
    """How the votes and resignations of ``game`` end it, or None."""
    club = game.club
    left = [s for s in game.seats if s not in club.resigned]
    if len(left) == 1 and len(game.seats) > 1:
        return "resignation", left
    if not ending_problem(game, club, "draw", left):
        return "draw", left
    wanted = {tuple(v) for v in club.concede.values()}
    for to in sorted(wanted):
        if not ending_problem(game, club, "concession", list(to)):
            return "concession", list(to)
    return None


def describe(game: Any) -> str:
    """How ``game`` ended, in one sentence (``""`` while it runs)."""
    ended = game.club.ended
    if ended is None:
        if game.abandoned is not None:
            return f"The GM abandoned the game: {game.abandoned}."
        return ""
    seats, turn = _names(ended["seats"]), ended.get("turn")
    resigned = sorted(game.club.resigned)
    gone = f" ({_names(resigned)} resigned)" if resigned and ended["how"] != "resignation" else ""
    if ended["how"] == "draw":
        return f"The game ended in a draw between {seats}, agreed by every seat still playing in turn {turn}{gone}."
    if ended["how"] == "concession":
        return f"The game was conceded to {seats} by every other seat still playing in turn {turn}{gone}."
    return f"The game ended in turn {turn}: every other seat resigned, so {seats} wins by resignation."


def result(game: Any) -> str | None:
    """The result of an ended game as the record's ``Result`` names it (``draw: red, blue``),
    or None for a game the engine ended (its winner)."""
    ended = game.club.ended
    if ended is None:
        return None
    if ended["how"] == "draw":
        return "draw: " + ", ".join(ended["seats"])
    return ", ".join(ended["seats"]) + f" ({ended['how']})"


def from_result(text: str | None, seats: list[str]) -> tuple[str, list[str]] | None:
    """The ending a record's ``Result`` header names (as :func:`result` writes it), or None
    (a winner by the rules, ``none``, or a text that names no ending of the players)."""
    if not text:
        return None
    text = text.strip()
    if text.startswith("draw: "):
        how, names = "draw", text[len("draw: "):]
    elif text.endswith(" (concession)") or text.endswith(" (resignation)"):
        names, how = text.rsplit(" (", 1)[0], text.rsplit(" (", 1)[1].rstrip(")")
    else:
        return None
    chosen = [n.strip() for n in names.split(",") if n.strip()]
    return (how, chosen) if chosen and all(n in seats for n in chosen) else None


def _names(seats: list[str]) -> str:
    seats = list(seats)
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]


# -- the end of a voting round -----------------------------------------------------------------
def close_round(service: Any, game: Any, payload: dict[str, Any]) -> Any:
    """After an adjudication that ends a voting round (reports went out; every turn of a game
    without reports between decisions): the votes cast in it are closed (``VotesClosed``) and
    every seat is told who voted for what. Returns the game (reloaded if anything was recorded)."""
    club = game.club
    if not (club.draw or club.concede):
        return game
    due = getattr(game.engine, "report_due", None)
    if due is not None and not due(game.state, payload["events"]):
        return game
    closed = {"turn": payload["turn"], "draw": sorted(club.draw), "concede": dict(sorted(club.concede.items()))}
    (event,), after = log.append(service, game, [NewEvent("VotesClosed", closed)])
    from pbem.mailout.mailbase import wrapped
    from reports.i18n import _

    def lines() -> list[str]:
        out = wrapped(_("Game {game}: the voting round that ended with turn {turn} ended no game.").format(
            game=game.game_id, turn=payload["turn"]))
        if closed["draw"]:
            others = ", ".join(s for s in club.voters(list(game.seats)) if s not in closed["draw"]) or _("nobody")
            out += wrapped(_("For a draw: {draw}; not: {others}.").format(draw=", ".join(closed["draw"]),
                                                                         others=others))
        out += [_("{seat} conceded to {to}.").format(seat=seat, to=", ".join(to))
                for seat, to in closed["concede"].items()]
        return out + wrapped(_("The votes start again: send DRAW (or CONCEDE <seat>) in a GAME block to vote in this "
                               "round."))

    mailing.tell_seats(service, after, lambda: _("votes of the round"), lines, "ending", event.seq)
    return after
