"""The club's part of a game's fold: rebuilt from the game's events, never stored.

Event types (version 1 each; none reaches an engine, none changes the engine state):

- ``AbsenceDeclared``: seat, from, to (ISO instants with zone), by (``player`` or ``gm``).
  A later one for the same seat replaces it.
- ``AbsenceEnded``: seat, by (the player came back early, or the GM ended it).
- ``CivilDisorder``: seat, turn (the pending turn), missed (turns missed in a row), by
  (``missed``: the game's limit was reached; ``gm``; ``start``: an empty seat of an open
  game started by a bot). The game's bot plays the seat from then on.
- ``SeatReturned``: seat, how (``password``: the player came back; ``replacement``: a new
  player took the seat; ``gm``). Ends civil disorder or a resignation; the missed count restarts.
- ``SeatResigned``: seat, turn. The bot plays the seat for the rest of the game.
- ``DrawVoted``: seat, turn, vote (true: for a draw; false: the vote withdrawn).
- ``ConcessionVoted``: seat, turn, to (the seats the game is conceded to; [] withdraws it).
- ``VotesClosed``: turn, draw (the seats that voted for a draw), concede ({seat: [to]}):
  the voting round ended without an ending; the votes are public from here on.
- ``GameEnded``: how (``draw``, ``concession``, ``resignation``), seats (who shares the
  draw, or whom the game was conceded to), turn, and ``recorded`` (true: imported from a
  record's ``Result``, which holds no votes). The game is over (followed by ``SeedRevealed``).
- ``ObserverAdded``, ``ObserverRemoved``: observer (an opaque id; the address is a service
  record, never in the log).

Missed turns are counted from ``TurnAdjudicated``: a seat in its ``defaulted`` list missed
the turn (unless it was away by a declared absence at that moment); a seat whose orders were
its player's starts again from zero; a turn the bot played leaves the count as it was.

A verifying fold checks what each of these events claims against the fold: a civil disorder
for missed turns names the count the log gives, an ending by draw had every voting seat's vote,
a closed vote names the votes cast (:func:`apply` raises :class:`pbem.store.events.ReplayMismatch`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

#: The club's event types (all input events that leave the engine state alone).
TYPES = frozenset({"AbsenceDeclared", "AbsenceEnded", "CivilDisorder", "SeatReturned", "SeatResigned",
                   "DrawVoted", "ConcessionVoted", "VotesClosed", "GameEnded", "ObserverAdded", "ObserverRemoved"})
#: Club events a rollback sets aside with the turns after its cut (they were decided by them).
DECIDING = frozenset({"CivilDisorder", "DrawVoted", "ConcessionVoted", "VotesClosed"})
#: Club events whose payload is secret while the game runs (the votes of an open round).
SECRET = frozenset({"DrawVoted", "ConcessionVoted"})
#: The fields every payload of a club event has, with their types (the archive check, pbem.archives.archive_shape).
SHAPES: dict[str, dict[str, type]] = {
    "AbsenceDeclared": {"seat": str, "from": str, "to": str}, "AbsenceEnded": {"seat": str},
    "CivilDisorder": {"seat": str, "missed": int, "by": str}, "SeatReturned": {"seat": str, "how": str},
    "SeatResigned": {"seat": str}, "DrawVoted": {"seat": str, "turn": str, "vote": bool},
    "ConcessionVoted": {"seat": str, "turn": str, "to": list}, "VotesClosed": {"turn": str, "draw": list, "concede": dict},
    "GameEnded": {"how": str, "seats": list}, "ObserverAdded": {"observer": str}, "ObserverRemoved": {"observer": str},
}


@dataclass
class Club:
    """What the club keeps of one game (see the module docstring)."""

    absences: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> {from, to, by, seq}
    disorder: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> {turn, missed, by, seq}
    resigned: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> {turn, seq}
    missed: dict[str, int] = field(default_factory=dict)  # turns missed in a row
    missed_total: dict[str, int] = field(default_factory=dict)
    bot_turns: dict[str, int] = field(default_factory=dict)  # turns the bot played for the seat
    sources: dict[str, tuple[str, str]] = field(default_factory=dict)  # seat -> (turn, kind) of its orders
    draw: dict[str, bool] = field(default_factory=dict)  # this round's draw votes
    concede: dict[str, list[str]] = field(default_factory=dict)  # this round's concessions
    ended: dict[str, Any] | None = None  # {how, seats, turn, seq}
    observers: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> {seq}
    observers_ever: int = 0
    waited: dict[str, str] = field(default_factory=dict)  # turn -> its deadline before it waited for absent seats

    def copy(self) -> Club:
        """An independent copy (the fold's copies of a game must not share it): a pickle round
        trip, what ``copy.deepcopy`` gives for this plain data, several times faster (a copy is
        made at every load of a game)."""
        import pickle

        return pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))  # noqa: S301 - our own bytes

    def bot_played(self, seat: str) -> str | None:
        """Why the bot plays ``seat`` whatever the clock says (civil disorder, resigned), or None."""
        if seat in self.resigned:
            return "resigned"
        if seat in self.disorder:
            return "civil disorder"
        return None

    def voters(self, seats: list[str]) -> list[str]:
        """The seats that vote on a draw or a concession: every seat not resigned and not in
        civil disorder (a seat the bot plays has nobody to vote for it)."""
        return [s for s in seats if s not in self.resigned and s not in self.disorder]

    def absent(self, seat: str, moment: datetime) -> bool:
        """Whether ``seat`` is away by a declared absence at ``moment``."""
        absence = self.absences.get(seat)
        return absence is not None and instant(absence["from"]) <= moment <= instant(absence["to"])


def instant(text: str) -> datetime:
    """An ISO 8601 time as an aware UTC instant (a naive one read as UTC)."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


def options(game: Any) -> dict[str, Any]:
    """The club options a game was created with (:mod:`pbem.club.options`; {} for older games)."""
    return dict(game.created.get("club") or {})


def apply(game: Any, ev: Any, verify: bool) -> None:
    """Fold ``ev`` into ``game.club`` (called for every event, after the core fold)."""
    club: Club = game.club
    p = ev.payload
    kind = ev.type
    if kind == "OrdersSubmitted":
        club.sources[p["seat"]] = (p["turn"], str((p.get("source") or {}).get("kind", "mail")))
    elif kind == "OrdersVoided":
        club.sources.pop(p["seat"], None)
    elif kind == "StandingOrders":
        club.sources[p["seat"]] = ("standing", str((p.get("source") or {}).get("kind", "mail")))
    elif kind == "TurnAdjudicated":
        _count_turn(club, p, ev.recorded_at)
    elif kind == "DeadlineSet":
        if p.get("absence"):  # moved to wait for absent seats: the deadline it had before is kept
            club.waited.setdefault(p["turn"], p.get("base") or p["deadline"])
        else:
            club.waited.pop(p["turn"], None)
    elif kind in TYPES:
        HANDLERS[kind](game, club, ev, verify)


def _count_turn(club: Club, p: dict[str, Any], recorded_at: str) -> None:
    """Missed turns in a row, per seat, after an adjudication (see the module docstring)."""
    at: datetime | None = None  # read when a seat missed its orders (most turns none did)
    defaulted = set(p.get("defaulted") or [])
    orders = p.get("orders")
    for seat in (orders if isinstance(orders, dict) else {}):
        source = club.sources.get(seat)
        if seat in defaulted:
            club.missed_total[seat] = club.missed_total.get(seat, 0) + 1
            at = instant(recorded_at) if at is None else at
            if not club.absent(seat, at):
                club.missed[seat] = club.missed.get(seat, 0) + 1
        elif source is not None and source[1] == "bot" and source[0] in (p["turn"], "standing"):
            club.bot_turns[seat] = club.bot_turns.get(seat, 0) + 1
        else:
            club.missed[seat] = 0
    club.sources = {s: v for s, v in club.sources.items() if v[0] != p["turn"]}
    club.waited.pop(p["turn"], None)


def _mismatch(ev: Any, message: str) -> Exception:
    from pbem.store.mismatch import ReplayMismatch

    return ReplayMismatch(f"event {ev.seq} ({ev.type}): {message}")


def _seat(game: Any, ev: Any) -> str:
    seat = ev.payload.get("seat")
    if seat not in game.seats:
        raise _mismatch(ev, f"names no seat of the game ({seat!r})")
    return str(seat)


def _absence(game: Any, club: Club, ev: Any, verify: bool) -> None:
    seat = _seat(game, ev)
    p = ev.payload
    if verify and instant(p["to"]) < instant(p["from"]):
        raise _mismatch(ev, "the absence ends before it begins")
    club.absences[seat] = {"from": p["from"], "to": p["to"], "by": p.get("by", "player"), "seq": ev.seq}


def _absence_ended(game: Any, club: Club, ev: Any, verify: bool) -> None:
    club.absences.pop(_seat(game, ev), None)


def _disorder(game: Any, club: Club, ev: Any, verify: bool) -> None:
    seat = _seat(game, ev)
    p = ev.payload
    if verify and p.get("by") == "missed":
        limit = int(options(game).get("disorder_after") or 0)
        if not limit or club.missed.get(seat, 0) < limit or int(p.get("missed", -1)) != club.missed.get(seat, 0):
            raise _mismatch(ev, f"{seat} is recorded as falling into civil disorder after {p.get('missed')} missed "
                                f"turns, but the log gives {club.missed.get(seat, 0)} (the game's limit: "
                                f"{limit or 'none'})")
    club.disorder[seat] = {"turn": p.get("turn"), "missed": p.get("missed"), "by": p.get("by"), "seq": ev.seq}


def _returned(game: Any, club: Club, ev: Any, verify: bool) -> None:
    seat = _seat(game, ev)
    club.disorder.pop(seat, None)
    club.resigned.pop(seat, None)
    club.missed[seat] = 0


def _resigned(game: Any, club: Club, ev: Any, verify: bool) -> None:
    seat = _seat(game, ev)
    club.resigned[seat] = {"turn": ev.payload.get("turn"), "seq": ev.seq}
    club.draw.pop(seat, None)
    club.concede.pop(seat, None)


def _draw_voted(game: Any, club: Club, ev: Any, verify: bool) -> None:
    seat = _seat(game, ev)
    if ev.payload.get("vote"):
        club.draw[seat] = True
    else:
        club.draw.pop(seat, None)


def _concession_voted(game: Any, club: Club, ev: Any, verify: bool) -> None:
    seat = _seat(game, ev)
    to = [str(s) for s in ev.payload.get("to") or []]
    if verify and any(s not in game.seats or s == seat for s in to):
        raise _mismatch(ev, "concedes to a seat that is not another seat of the game")
    if to:
        club.concede[seat] = sorted(to)
    else:
        club.concede.pop(seat, None)


def _votes_closed(game: Any, club: Club, ev: Any, verify: bool) -> None:
    p = ev.payload
    if verify and (sorted(p.get("draw") or []) != sorted(club.draw)
                   or {k: sorted(v) for k, v in (p.get("concede") or {}).items()} != club.concede):
        raise _mismatch(ev, "the votes it closes are not the votes cast in the round")
    club.draw, club.concede = {}, {}


def _ended(game: Any, club: Club, ev: Any, verify: bool) -> None:
    p = ev.payload
    if verify and p.get("recorded"):  # imported from a record, which holds no votes
        game.unverified.append("an ending by the players taken from a record's Result: a record holds no votes, so "
                               "that every seat agreed cannot be checked")
    elif verify:
        problem = ending_problem(game, club, p.get("how"), list(p.get("seats") or []))
        if problem:
            raise _mismatch(ev, problem)
    club.ended = {"how": p.get("how"), "seats": list(p.get("seats") or []), "turn": p.get("turn"), "seq": ev.seq}


def ending_problem(game: Any, club: Club, how: Any, seats: list[str]) -> str:
    """Why the votes and resignations of ``club`` do not end ``game`` as ``how`` in favour of
    ``seats`` ("" when they do): a draw needs every voting seat's vote for it, a concession
    every voting seat but the ones conceded to, an ending by resignation only ``seats`` left."""
    voters = club.voters(list(game.seats))
    if how == "draw":
        if not voters or any(not club.draw.get(s) for s in voters):
            return "a draw is recorded, but not every voting seat voted for it"
        if sorted(seats) != sorted(s for s in game.seats if s not in club.resigned):
            return "a draw is recorded among other seats than those still in the game"
        return ""
    if how == "concession":
        others = [s for s in voters if s not in seats]
        if not seats or not others or any(club.concede.get(s) != sorted(seats) for s in others):
            return "a concession is recorded, but not every other voting seat conceded to the same seats"
        return ""
    if how == "resignation":
        left = [s for s in game.seats if s not in club.resigned]
        return "" if left == seats and len(left) == 1 else "an ending by resignation is recorded with other seats left"
    return f"an unknown ending {how!r}"


def _observer(game: Any, club: Club, ev: Any, verify: bool) -> None:
    club.observers[str(ev.payload.get("observer"))] = {"seq": ev.seq}
    club.observers_ever += 1


def _observer_removed(game: Any, club: Club, ev: Any, verify: bool) -> None:
    club.observers.pop(str(ev.payload.get("observer")), None)


HANDLERS = {"AbsenceDeclared": _absence, "AbsenceEnded": _absence_ended, "CivilDisorder": _disorder,
            "SeatReturned": _returned, "SeatResigned": _resigned, "DrawVoted": _draw_voted,
            "ConcessionVoted": _concession_voted, "VotesClosed": _votes_closed, "GameEnded": _ended,
            "ObserverAdded": _observer, "ObserverRemoved": _observer_removed}


def watched(game: Any) -> bool:
    """Whether the club looks at ``game`` in every tick: a seat is absent, in civil disorder or
    resigned (kept in the due index, :mod:`pbem.store.projection`, as the game's ``watch``)."""
    return bool(game.club.absences or game.club.disorder or game.club.resigned)


def winner(game: Any) -> str | None:
    """The winner of an ended game: the one seat it was conceded to (or left by resignation); None
    for a draw or a concession to several seats."""
    ended = game.club.ended
    if ended is None or ended["how"] == "draw" or len(ended["seats"]) != 1:
        return None
    return str(ended["seats"][0])
