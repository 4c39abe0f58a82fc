"""The GM's operations as the command line asks for them (``pbem new``, ``pbem adjudicate``,
``pbem seat``): each checks its input, calls the service and returns what happened as a
dataclass; the command line only parses options and prints the result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem.errors import DomainError

if TYPE_CHECKING:
    from pbem.loop.creating import Created
    from pbem.loop.service import Service


@dataclass(frozen=True)
class Clocks:
    """A new game's deadlines: one for every turn (ISO 8601 with zone), or relative clocks
    (durations such as ``3d``) for each turn, each decision and the reminder before it."""

    deadline: str | None = None
    deadline_every: str | None = None
    decision_every: str | None = None
    remind_before: str | None = None


def create_game(service: Service, game_id: str, engine: str, seats: Sequence[tuple[str, str]],
                options: Mapping[str, str], seed: str | None = None, weak_seed: bool = False,
                language: str | None = None, clocks: Clocks = Clocks()) -> Created:
    """Create a game from its seats as ``(name, "EMAIL[:COLOUR][:LANG]")``: a weak ``seed`` is
    refused unless ``weak_seed`` (:mod:`pbem.loop.seeds`), an unknown language before anything
    is written; welcome mails with each seat's password go to the outbox."""
    from pbem.loop.seeds import check_seed
    from pbem.mailout.colours import GENERIC
    from pbem.mailout.languages import check as check_language, split_seat_value

    seed = check_seed(seed, weak_ok=weak_seed)
    if language:
        language = check_language(language)
    pairs, chosen, spoken = [], {}, {}
    for name, value in seats:
        address, colour, lang = split_seat_value(value, GENERIC)
        pairs.append((name, address))
        if colour:
            chosen[name] = colour
        if lang:
            spoken[name] = lang
    return service.new_game(game_id, engine, pairs, options, seed, clocks.deadline, clocks.deadline_every,
                            clocks.decision_every, clocks.remind_before, chosen, language, spoken)


def created_summary(created: Created) -> dict[str, Any]:
    """A new game as the GM is shown it once: its commitment, each seat's address, password and
    language, the first turn and its deadline."""
    from pbem.mailout.languages import seat_language

    game = created.game
    return {"game": game.game_id, "engine": game.engine.name, "commitment": game.created["commitment"],
            "seats": {s: {"email": game.seats[s]["email"], "password": created.passwords[s],
                          "language": seat_language(game, s)} for s in game.seats},
            "turn": game.pending.turn if game.pending else None, "deadline": game.deadline}


@dataclass(frozen=True)
class Adjudication:
    """What ``pbem adjudicate`` did: the turns adjudicated (each a summary dict), else the turn
    looked at and its status (who is awaited), or that another run resolved it meanwhile."""

    turn: str
    done: list[dict[str, Any]] = field(default_factory=list)
    status: dict[str, Any] = field(default_factory=dict)
    resolved_elsewhere: bool = False


def adjudicate_pending(service: Service, game_id: str, force: bool = False) -> Adjudication:
    """Resolve the pending turn of ``game_id`` and every turn after it that is ready; a turn
    whose deadline has passed (compared as instants), or any with ``force``, is resolved with
    the missed-orders policy. Only the turn looked at is forced, never the next one."""
    from pbem.loop.deadlines import is_due

    game = service.load(game_id)
    if game.pending is None:
        raise DomainError(f"game {game_id} is over")
    turn = game.pending.turn
    now = service.store.clock()
    done = service.adjudicate(game_id, force=force or is_due(game.deadline, now), force_turn=turn, now=now)
    if done:
        return Adjudication(turn, [{"turn": d["turn"], "defaulted": d["defaulted"], "state_hash": d["state_hash"],
                                    "scores": d["scores"], "over": d["over"], "winner": d["winner"]} for d in done])
    status = service.game_status(service.load(game_id))
    return Adjudication(turn, status=status, resolved_elsewhere=status["turn"] != turn)


@dataclass(frozen=True)
class SeatChange:
    """What ``pbem seat`` changed: a new password (a new player), whether the seat was
    unlocked, whether its digest preference changed, and the language it reads now."""

    password: str | None
    unlocked: bool
    digest_changed: bool
    language: str


def change_seat(service: Service, game_id: str, seat: str, email: str | None = None, allow: Sequence[str] = (),
                reset: bool = False, unlock: bool = False, digest: bool | None = None,
                language: str | None = None) -> SeatChange:
    """The GM's corrections of one seat: a new address and more sender addresses, a new player
    (``reset``: a new password, and the seat unlocked), a lock for mail orders lifted, its
    reports as plain text (``digest``) and its language. An unknown language or seat is refused
    before anything changes."""
    from pbem.loop import lockout
    from pbem.mailout import languages

    if language:
        language = languages.check(language)
        if seat not in service.seat_names(game_id):
            raise DomainError(f"no seat {seat!r} in {game_id} (seats: {', '.join(service.seat_names(game_id))})")
    password = service.change_seat(game_id, seat, email, allow, reset_password=reset) \
        if email or allow or reset else None
    game = service.load(game_id)
    if seat not in game.seats:
        raise DomainError(f"no seat {seat!r} in {game_id} (seats: {', '.join(game.seats)})")
    with service.store.transaction():
        unlocked = lockout.unlock(service, game, seat) if unlock or reset else False
    if language:
        languages.set_language(service, game_id, seat, language, "gm")
    changed = bool(service.set_digest(game_id, seat, digest, {"kind": "gm"})) if digest is not None else False
    return SeatChange(password, unlocked, changed, languages.seat_language(service.load(game_id), seat))


@dataclass(frozen=True)
class Branched:
    """What ``pbem branch`` made: the branch as ``--json`` prints it (its seats' new passwords
    included), and a note for the GM when the branch's seed holds a running game's."""

    summary: dict[str, Any]
    note: str | None = None


def branch_game(service: Service, game_id: str, at: str, new_id: str, same_seed: bool = False,
                mail: bool = True) -> Branched:
    """Start ``new_id`` from ``game_id``'s history up to the turn ``at`` (:mod:`pbem.loop.branch`;
    ``game_id`` is never touched). A branch with a new seed of a game still running keeps the
    running game's seed in its own, revealed only when the branch ends: the GM is told so."""
    from pbem.loop.branch import branch

    done = branch(service, game_id, at, new_id, same_seed, mail=mail)
    note = None
    if done["same_seed"] is False and not service.load(game_id).over:
        note = (f"note: {game_id} is still running; {new_id}'s seed holds {game_id}'s and is revealed when "
                f"{new_id} ends (docs/archivist-guide.md, Branches)")
    return Branched(done, note)
