"""A game as rebuilt from its events (:class:`Game`, made by :func:`pbem.store.events.fold`),
the engine it is played under (its recorded rules version and data files, or an upgrade's),
and the seed the engine draws from at each step (a branch's own seed after its copied turns)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from adjudicator.base import Engine, Pending, State
from adjudicator.registry import get_engine
from pbem.store.digest import state_digest
from pbem.store.mismatch import EngineVersionMismatch

if TYPE_CHECKING:
    from pbem.store.heads import Turns


def chance_seed(created: dict[str, Any], seed: str, turns_done: int) -> str:
    """The seed the engine draws from for the next step of a game: the game's own seed, except
    in a branch with its own seed (``pbem branch`` without ``--same-seed``), whose seed is the
    JSON list ``[parent seed, own seed]``: the parent's for the setup and the ``turns``
    copied from the parent, its own after them (docs/archivist-guide.md, "Branches")."""
    branch = created.get("branch")
    if not branch or branch.get("same_seed"):
        return seed
    import json

    parent, own = json.loads(seed)
    return str(parent if turns_done < int(branch["turns"]) else own)


def engine_for(game_id: str, created: dict[str, Any], version: str | None = None,
               data_files: dict[str, str] | None = None, created_at: str | None = None) -> Engine:
    """The engine of a ``GameCreated`` payload, held to the rules version and data files the
    game was created with (or ``version``/``data_files``, those of an upgrade), as a game
    created at ``created_at`` (the event's ``recorded_at``; a branch or an imported record
    names the moment its rules are read as of in ``rules_as_of``) reads that version.

    Every released version is kept (:mod:`adjudicator.versions`), so an old game replays under
    its own rules; a version this pbem does not know (a newer pbem made the game, or the record
    was altered) is refused by name, listing the versions this pbem knows."""
    from adjudicator.base import GameError
    from adjudicator.versions import pin

    engine = get_engine(created["engine"])
    played = version or created.get("engine_version")
    if played is None:
        raise EngineVersionMismatch(f"game {game_id} names no {engine.name} rules version, so it cannot be "
                                    "replayed under the rules it was played with")
    try:
        return pin(engine, played, data_files if version else created.get("data_files"),
                   created.get("rules_as_of", created_at))
    except GameError as exc:
        raise EngineVersionMismatch(f"game {game_id}: {exc}; a newer pbem may know it") from None


@dataclass
class Game:
    """A game as rebuilt from its events."""

    game_id: str
    engine: Engine
    created: dict[str, Any]
    state: State
    seed: str
    last_seq: int = 0
    submitted: dict[str, dict[str, Any]] = field(default_factory=dict)  # pending turn: seat -> OrdersSubmitted
    standing: dict[str, dict[str, Any]] = field(default_factory=dict)
    deadlines: dict[str, str] = field(default_factory=dict)
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: TurnAdjudicated payloads (+ seq): a list, or for a game loaded from its head the turns
    #: read from the log when asked for (:class:`pbem.store.heads.Turns`)
    turns: list[dict[str, Any]] | Turns = field(default_factory=list)
    abandoned: str | None = None
    rollbacks: list[dict[str, Any]] = field(default_factory=list)  # RolledBack payloads (+ seq)
    unverified: list[str] = field(default_factory=list)  # what a verifying fold could not check
    order_events: int = 0  # OrdersSubmitted/StandingOrders events folded so far (counted when verifying)
    opened_at: str | None = None  # when the pending turn opened: recorded_at of GameCreated or the last TurnAdjudicated
    every_set_at: str | None = None  # recorded_at of the last DeadlineSet for every turn ('*')
    upgrades: list[dict[str, Any]] = field(default_factory=list)  # EngineUpgraded payloads (+ seq)
    club: Any = field(default_factory=lambda: _new_club())  # pbem.store.clubstate.Club: absences, votes, ending...
    prefs: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> its mail preferences (SeatPreference)
    #: (state, engine, what the engine's ``pending`` said of them): see :attr:`pending`
    _pending: Any = field(default=None, repr=False, compare=False)
    #: the canonical texts of the state's top-level values a verifying fold last encoded: see
    #: :func:`pbem.store.digest._canonical_parts` (a hit is exact by content, so copies of a game may share it)
    _texts: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def require_running_seat(self, seat: str, over: str = "") -> None:
        """Refuse in one line a seat the game does not have, and any seat once the game is over
        (``over`` says more, e.g. ": there is no turn to vote in")."""
        from pbem.errors import DomainError

        if seat not in self.seats:
            raise DomainError(f"no seat {seat!r} in {self.game_id}")
        if self.pending is None:
            raise DomainError(f"game {self.game_id} is over{over}")

    def wants_digest(self, seat: str) -> bool:
        """True when ``seat`` asked for its reports as plain text without pictures (``DIGEST ON``)."""
        return bool(self.prefs.get(seat, {}).get("digest"))

    def mail_key(self, turn: str) -> str:
        """``turn`` as outgoing Message-IDs name it: after a rollback a replayed turn's mails
        get new ids (``~N``, N rollbacks so far), so mail clients do not drop them as duplicates."""
        return f"{turn}~{len(self.rollbacks)}" if self.rollbacks else turn

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for (None when over or abandoned). Asked a dozen times
        per mail: the engine's answer is kept for as long as the game holds the same state
        object under the same engine (a fold replaces the state, never changes it in place)."""
        if self.abandoned is not None or self.club.ended is not None:
            return None
        return self.pending_of(self.state)

    def pending_of(self, state: State) -> Pending | None:
        """What the engine's ``pending`` says of ``state`` (the game's, or the state a decision
        leads to: a verifying fold asks it of each, and then the game holds that state), kept
        for as long as the game asks of the same state object under the same engine."""
        known = self._pending
        if known is not None and known[0] is state and known[1] is self.engine:
            return known[2]
        found = self.engine.pending(state)
        self._pending = (state, self.engine, found)
        return found

    @property
    def over(self) -> bool:
        """True when the game has ended (or was abandoned)."""
        return self.pending is None

    @property
    def deadline(self) -> str | None:
        """The deadline of the pending turn, if one is set: its own, else the deadline for
        every turn (``*``) unless that one had passed before the turn opened (see
        :meth:`every_passed`)."""
        pending = self.pending
        if pending is None:
            return None
        own = self.deadlines.get(pending.turn)
        if own:
            return own
        every = self.deadlines.get("*")
        return every if every and not self.every_passed() else None

    def every_passed(self) -> bool:
        """True when the deadline for every turn passed before the pending turn opened and was
        not set again since: one fixed instant must not resolve each later turn the moment it
        opens (a game whose deadline passed would lose a turn to every ``pbem tick``)."""
        every = self.deadlines.get("*")
        if not every or self.opened_at is None:
            return False
        if self.every_set_at is not None and _moment(self.every_set_at) >= _moment(self.opened_at):
            return False  # the GM set it while this turn was open: meant for it
        return _moment(every) <= _moment(self.opened_at)

    @property
    def digest_scheme(self) -> str | None:
        """How this game's state hashes are made (:data:`pbem.store.digest.KEYED_DIGEST`, or None: plain)."""
        return self.created.get("state_digest")

    def digest(self, state: State) -> str:
        """The published hash of ``state`` in this game's scheme (see :func:`state_digest`)."""
        return state_digest(state, self.seed, self.digest_scheme)

    @property
    def chance_seed(self) -> str:
        """The seed the next adjudication draws from (see :func:`chance_seed`)."""
        return chance_seed(self.created, self.seed, len(self.turns))

    @property
    def state_hash(self) -> str:
        """The published hash of the current state (keyed with the seed in new games)."""
        return self.digest(self.state)


def _new_club() -> Any:
    from pbem.store.clubstate import Club

    return Club()


def _moment(text: str) -> datetime:
    """An ISO 8601 time (a deadline or a ``recorded_at``) as an aware instant."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)
