"""The input and derived event types of a game's log, and the fold that rebuilds a game.

Event types (stable names, version 1 each):

- ``GameCreated``: game, engine, engine_version, seats [{name, email, addresses, and the
  optional display_name and language}], options (the engine's), the optional language (the
  game's default, :mod:`pbem.mailout.languages`; none: English), press (the optional press rules
  {mode, max_bytes, per_turn} of :mod:`pbem.mailout.press`, never given to the engine),
  commitment (sha256 of the seed), data_files, setup_events, state_hash, deadlines,
  state_digest (the digest scheme of every state hash of the game, see below), and the
  optional relative clocks deadline_every, decision_every, remind_before (seconds), and
  ``chance = "recorded"`` for a historical game (its "seed" is the text of its
  recorded chance lines, :mod:`adjudicator.recorded`, and its commitment their hash). The seed
  and the password hashes are NOT in the log (they live in the store's ``secrets`` table),
  so a running game's log can be exported without revealing them.
- ``OrdersSubmitted``: seat, turn, orders (engine dicts), text (canonical order text),
  source {kind: mail|gm|bot, message_id, raw_sha256, date, sender}.
- ``OrdersVoided``: seat, turn, reason (a GM correction).
- ``StandingOrders``: seat, orders, text, source (games with standing orders).
- ``DeadlineSet``: turn, deadline (ISO 8601 with zone), utc (the same instant in UTC; deadlines
  are compared as instants), relative (true when set by a relative clock).
- ``SeatChanged``: seat, and what changed of email, addresses, display_name (a GM correction:
  a seat's addresses) and language with by (gm|player) (the language the seat reads).
- ``TurnAdjudicated``: turn, orders {seat: orders}, defaulted [seats], forced, events
  (the engine's derived events), state_hash, scores, over, winner.
- ``GameAbandoned``: reason.
- ``SeedRevealed``: seed (appended when the game ends; its sha256 must equal the commitment).
- ``RolledBack``: to (the turn opened again), reason, undone (the turn labels set aside, in
  order), keep_orders, state_hash (of the state rebuilt), turn (the pending turn after it).
  Nothing is deleted: :func:`pbem.store.rollback.live_events` says which events still count
  (see docs/gm-guide.md, "Rolling back").
- ``EngineUpgraded``: from, to (rules versions), reason, turn (the pending turn: an upgrade is
  made between turns), data_files (the new version's), state_hash (of the state as the new
  version keeps it). From there on the game is played under ``to`` (``pbem upgrade``).
- The club's events (absences, civil disorder, resignations, draw and concession votes, how the
  game ended, observers), folded into ``Game.club`` by :mod:`pbem.store.clubstate`, which lists them.
- ``SeatPreference``: seat, digest (true: the seat's reports come as plain text without
  pictures), source {kind: mail|gm, message_id, raw_sha256, date, sender} (a ``DIGEST ON``
  block, or ``pbem seat --digest``). Kept in :attr:`Game.prefs`; a rollback leaves it in force.

Rules versions: a game is replayed, verified and continued under the rules version and data
files its ``GameCreated`` recorded, and after an ``EngineUpgraded`` under the newer one
(:func:`engine_for`, :mod:`adjudicator.versions`); a version this pbem does not know is
refused by name, with the versions it knows.

The state is never stored as the truth: :func:`fold` rebuilds it from these events.

State hashes are published (reports, records, archives), so they must not let a seat test
guesses about hidden information (e.g. the 120 orders of five face-down action cards). Games created with ``state_digest = "hmac-sha256/seed"`` record every state
hash as an HMAC-SHA256 of the canonical state keyed with a key derived from the seed: nobody
can compute it before the seed is revealed at the end of the game, after which anyone can
re-check every one. Older games (no ``state_digest``) carry the plain :func:`state_hash`.
"""

from __future__ import annotations

import hashlib
import hmac
import marshal
import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from adjudicator.base import Engine, Pending, State, canonical_json, state_hash
from adjudicator.registry import get_engine
from adjudicator.chance import commitment
from pbem.store.db import StoredEvent
from pbem.store.mismatch import EngineVersionMismatch, ReplayMismatch  # noqa: F401 - defined apart, named here
from pbem.store.rollback import ROLLED_BACK, live_events, rollbacks_of

if TYPE_CHECKING:
    from pbem.store.heads import Turns

#: The keyed digest scheme of new games (see the module docstring).
KEYED_DIGEST = "hmac-sha256/seed"


def text_digest(text: str, seed: str, scheme: str | None) -> str:
    """:func:`state_digest` of the state whose canonical JSON is ``text`` (a stored state)."""
    if scheme is None:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    if scheme != KEYED_DIGEST:
        raise ReplayMismatch(f"unknown state digest scheme {scheme!r}")
    return hmac.digest(_digest_key(seed), text.encode("utf-8"), "sha256").hex()


@lru_cache(maxsize=16)
def _digest_key(seed: str) -> bytes:
    """The HMAC key of a game's state digests, made from its seed (once per game: a replay
    hashes its state after every decision)."""
    return hashlib.sha256(("pbem state digest key\0" + seed).encode("utf-8")).digest()


def state_digest(state: State, seed: str, scheme: str | None, known: tuple[str, str] | None = None,
                 texts: dict[Any, Any] | None = None) -> str:
    """The published hash of ``state``: keyed with the seed under :data:`KEYED_DIGEST`,
    else (games created before it) the plain :func:`state_hash`. ``known`` = (a top-level
    key, the canonical JSON of its value already made) spares encoding that value again;
    ``texts`` (kept by the caller from one state of a game to the next, see
    :func:`_canonical_parts`) spares encoding the top-level values that did not change."""
    if scheme is None and known is None and texts is None:
        return state_hash(state)
    return text_digest(_canonical(state, known, texts), seed, scheme)


#: Stands for a value whose canonical text is already known (a control character, so no order
#: or name a player writes carries it; if the state holds it anyway, the state is encoded whole).
_HOLE = "\x00pbem: known value\x00"
_HOLE_TEXT = canonical_json(_HOLE)


def _canonical(state: State, known: tuple[str, str] | None,
               texts: dict[Any, Any] | None = None) -> str:
    """``canonical_json(state)``, splicing in the known text of one top-level value: the
    canonical text of a dict is its sorted ``key:value`` pairs, each value encoded on its own,
    so the result is the same bytes."""
    if texts is not None and type(state) is dict and all(type(k) is str for k in state):
        return _canonical_parts(state, known, texts)
    if known is None or not isinstance(state, dict) or known[0] not in state:
        return canonical_json(state)
    key, text = known
    whole = canonical_json({**state, key: _HOLE})
    if whole.count(_HOLE_TEXT) != 1:
        return canonical_json(state)
    return whole.replace(_HOLE_TEXT, text)


def _canonical_parts(state: dict[str, Any], known: tuple[str, str] | None, texts: dict[Any, Any],
                     depth: int = 0) -> str:
    """``canonical_json(state)`` of a dict whose keys are all strings, built from its parts:
    the canonical text of such a dict is ``{``, its ``"key":value`` pairs sorted by key and
    joined by ``,``, then ``}``, each value encoded on its own. Most of a sequential game's
    state does not change in one decision, so ``texts`` holds the pairs' texts last encoded
    and a tag of each value (:func:`_tag`: its marshal bytes); a value with the same tag has
    the same text and is not encoded again. A changed dict of the state is built the same way
    from its own values (held in a dict of their own, under the key ``(key,)``: no string key).

    The tags of all the values are made in one pass and compared with the last ones in
    place (the keys in the same order); a value marshal cannot write exactly (e.g. an enum)
    sends the whole dict through :func:`_canonical_tagged`, which tags value by value."""
    keys = _sorted_keys(state, texts)
    try:
        tags = list(map(marshal.dumps, [state[k] for k in keys]))
    except ValueError:  # a value marshal cannot write: tag (or not) each value on its own
        return _canonical_tagged(state, known, texts, depth)
    held = texts.get(_TAGS)
    if held is None or held[0] is not keys:
        held = (keys, [None] * len(keys), [""] * len(keys))
        texts[_TAGS] = held
    _, old, parts = held
    for i, tag in enumerate(tags):
        key = keys[i]
        if known is not None and key == known[0]:
            parts[i], old[i] = canonical_json(key) + ":" + known[1], None
        elif old[i] != tag:
            value = state[key]
            if depth == 0 and type(value) is dict and len(parts[i]) >= _LONG and all(type(k) is str for k in value):
                # a long changed dict (a board of provinces...) mostly changes in one of its values
                parts[i] = canonical_json(key) + ":" + _canonical_parts(value, None, texts.setdefault((key,), {}), 1)
            else:
                parts[i] = canonical_json(key) + ":" + canonical_json(value)
            old[i] = tag
    return "{" + ",".join(parts) + "}"


#: The length of a changed dict's last text from which :func:`_canonical_parts` keeps the texts
#: of its values one by one (a shorter dict is encoded whole: cheaper than telling its changed
#: values from the others).
_LONG = 1000
#: Where :func:`_canonical_parts` keeps a dict's keys in sorted order and its values' tags and
#: texts (tuple keys: a state's keys are strings).
_KEYS, _TAGS = ("keys",), ("tags",)


def _sorted_keys(state: dict[str, Any], texts: dict[Any, Any]) -> list[str]:
    """``sorted(state)``, the same list object while the dict's keys stay the same, in the
    same order (so the kept tags line up with them)."""
    order = tuple(state)
    held = texts.get(_KEYS)
    if held is not None and held[0] == order:
        return held[1]
    keys = sorted(state)
    texts[_KEYS] = (order, keys)
    return keys


def _canonical_tagged(state: dict[str, Any], known: tuple[str, str] | None, texts: dict[Any, Any],
                      depth: int = 0) -> str:
    """:func:`_canonical_parts` for a dict holding a value marshal cannot write: each value
    tagged on its own (one without a tag encoded each time)."""
    parts = []
    for key in sorted(state):
        if known is not None and key == known[0]:
            parts.append(canonical_json(key) + ":" + known[1])
            continue
        value = state[key]
        tag = _tag(value)
        held = texts.get(key)
        if held is not None and tag is not None and held[0] == tag:
            parts.append(held[1])
            continue
        if tag is not None and depth == 0 and type(value) is dict and all(type(k) is str for k in value):
            text = canonical_json(key) + ":" + _canonical_parts(value, None, texts.setdefault((key,), {}), 1)
        else:
            text = canonical_json(key) + ":" + canonical_json(value)
        if tag is not None:
            texts[key] = (tag, text)
        parts.append(text)
    return "{" + ",".join(parts) + "}"


#: the types whose values are equal only when their texts are (unlike floats: 0.0 == -0.0)
_EXACT = (str, int, bool, type(None))


def _tag(value: Any) -> Any:
    """What decides the canonical text of ``value``, cheaper to make than that text, or None
    (no tag: encode it each time). A string, integer, boolean or None is its own tag with its
    exact type (so 1 and True differ); a list, tuple or dict is its marshal bytes: marshal
    writes the exact type and contents of every part, so equal bytes are equal values of
    equal types, where ``==`` would take 1, 1.0 and True, or 0.0 and -0.0, for the same (and
    bytes that differ only cost an encoding)."""
    kind = type(value)
    if kind in _EXACT:
        return (kind, value)
    if kind is dict or kind is list or kind is tuple:
        try:
            return marshal.dumps(value)
        except ValueError:  # a part marshal cannot write exactly (e.g. an enum): encoded each time
            return None
    return None


INPUT_TYPES = ("GameCreated", "OrdersSubmitted", "OrdersVoided", "StandingOrders", "DeadlineSet",
               "SeatChanged", "GameAbandoned", "SeedRevealed", "RolledBack", "EngineUpgraded", "SeatPreference",
               # the club's (pbem.store.clubstate): absences, civil disorder, votes, endings, observers
               "AbsenceDeclared", "AbsenceEnded", "CivilDisorder", "SeatReturned", "SeatResigned", "DrawVoted",
               "ConcessionVoted", "VotesClosed", "GameEnded", "ObserverAdded", "ObserverRemoved")
DERIVED_TYPES = ("TurnAdjudicated",)


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
    #: :func:`_canonical_parts` (a hit is exact by content, so copies of a game may share it)
    _texts: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

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
        """How this game's state hashes are made (:data:`KEYED_DIGEST`, or None: plain)."""
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


class SeedUnknown(Exception):
    """The game cannot be replayed: its seed is neither known nor revealed in the log."""


def fold(game_id: str, events: Iterable[StoredEvent], seed: str | None = None, verify: bool = False,
         until_turn: str | None = None, snapshot: tuple[int, State] | None = None) -> Game:
    """Rebuild a game from its events; ``verify`` re-checks every hash and derived event.

    ``seed`` is the game's secret (from the store); without it the log must hold a
    ``SeedRevealed`` event. ``until_turn`` stops after that turn's ``TurnAdjudicated``.
    ``snapshot`` = (seq, state) of a cached state right after the ``TurnAdjudicated`` event
    ``seq``: the engine is not re-run up to there, and the cached state must hash to the
    recorded state hash (else :class:`ReplayMismatch`; the caller then folds without it).
    """
    events = list(events)
    if any(e.type == "RolledBack" for e in events):
        return _fold_rolled_back(game_id, events, seed, verify, until_turn, snapshot)
    return fold_live(game_id, events, seed, verify, until_turn, snapshot)


def _fold_rolled_back(game_id: str, events: list[StoredEvent], seed: str | None, verify: bool,
                     until_turn: str | None, snapshot: tuple[int, Any] | None) -> Game:
    """:func:`pbem.store.events.fold` of a log holding rollbacks: the events that still count are
    folded; ``verify`` also re-runs the history as it stood before each rollback (every turn
    adjudicated then, the ones set aside included) and checks each rollback's state hash."""
    seed = seed or next((e.payload["seed"] for e in events if e.type == "SeedRevealed"), None)
    if verify:
        _verify_history(game_id, events, seed)
    live = live_events(events)
    game = fold_live(game_id, live, seed, verify, until_turn, None if verify else snapshot)
    if until_turn is None:
        game.last_seq = events[-1].seq
    game.rollbacks = [r for r in rollbacks_of(events) if r["seq"] <= game.last_seq]
    return game


def _verify_history(game_id: str, events: list[StoredEvent], seed: str | None) -> None:
    """Re-run (verifying) the log as it stood before its last rollback, which recursively
    covers the earlier ones, and check each rollback's recorded state hash."""
    last = max(i for i, e in enumerate(events) if e.type == ROLLED_BACK)
    fold(game_id, events[:last], seed, verify=True)  # checks the earlier rollbacks on the way
    for i in (last,):
        rebuilt = fold_live(game_id, live_events(events[:i + 1]), seed)
        want = events[i].payload.get("state_hash")
        got = state_digest(rebuilt.state, rebuilt.seed, rebuilt.digest_scheme)
        if want is not None and got != want:
            raise ReplayMismatch(f"event {events[i].seq} (RolledBack): the rebuilt state {got[:12]} differs "
                                 f"from the recorded {want[:12]}")


def fold_live(game_id: str, events: list[StoredEvent], seed: str | None = None, verify: bool = False,
              until_turn: str | None = None, snapshot: tuple[int, State] | None = None) -> Game:
    """:func:`fold` of a log without ``RolledBack`` events (or of the events that still
    count after them, :func:`pbem.store.rollback.live_events`)."""
    if snapshot is not None and not verify and until_turn is None:
        return _fold_from_snapshot(game_id, events, seed, snapshot)
    seed = seed or next((e.payload["seed"] for e in events if e.type == "SeedRevealed"), None)
    if seed is None:
        raise SeedUnknown(f"game {game_id}: the seed is not known here and not revealed in the log, "
                          "so the game cannot be replayed (its hash chain can still be verified)")
    game: Game | None = None
    for ev in events:
        if ev.type == "GameCreated":
            game = _created(game_id, ev, seed, verify)
        elif game is None:
            raise ReplayMismatch(f"event {ev.seq} ({ev.type}) comes before GameCreated")
        else:
            _apply(game, ev, verify)
            if ev.type == "TurnAdjudicated" and until_turn is not None and ev.payload["turn"] == until_turn:
                game.last_seq = ev.seq
                return game
        game.last_seq = ev.seq
    if game is None:
        raise ReplayMismatch(f"game {game_id} has no GameCreated event")
    return game


def _fold_from_snapshot(game_id: str, events: list[StoredEvent], seed: str | None,
                        snapshot: tuple[int, State]) -> Game:
    snap_seq, snap_state = snapshot
    head = [e for e in events if e.seq <= snap_seq]
    seed = seed or next((e.payload["seed"] for e in events if e.type == "SeedRevealed"), None)
    if not head or head[0].type != "GameCreated" or seed is None:
        raise ReplayMismatch(f"game {game_id}: cannot use the snapshot")
    created = head[0].payload
    scheme = created.get("state_digest")
    if head[-1].type != "TurnAdjudicated" or head[-1].seq != snap_seq or state_digest(snap_state, seed, scheme) != head[-1].payload["state_hash"]:
        raise ReplayMismatch(f"game {game_id}: snapshot at event {snap_seq} does not match the log")
    game = Game(game_id, engine_for(game_id, created, created_at=head[0].recorded_at), created, snap_state, seed, snap_seq,
                seats={s["name"]: dict(s) for s in created["seats"]}, deadlines=dict(created.get("deadlines", {})),
                opened_at=head[0].recorded_at)
    for ev in head[1:]:  # the bookkeeping of the events before the snapshot, without the engine
        _apply(game, ev, False, engine=False)
    game.state = snap_state
    for ev in events[len(head):]:
        _apply(game, ev, False)
        game.last_seq = ev.seq
    return game


def fold_more(game: Game, events: Iterable[StoredEvent]) -> Game:
    """Apply events that follow ``game.last_seq`` to ``game`` (in place) and return it."""
    for ev in events:
        if ev.seq != game.last_seq + 1:
            raise ReplayMismatch(f"event {ev.seq} does not follow event {game.last_seq}")
        if ev.type == "RolledBack":  # needs the whole log (pbem.store.rollback): the caller folds again
            raise ReplayMismatch(f"event {ev.seq} rolls the game back")
        _apply(game, ev, False)
        game.last_seq = ev.seq
    return game


def fold_known(game: Game, events: Iterable[StoredEvent], state: State) -> Game:
    """Apply events just recorded after ``game.last_seq`` to ``game`` (in place) when the state
    they lead to is known already (``state``: the engine's result the caller recorded): the
    bookkeeping is folded without running the engine again. Returns ``game``."""
    for ev in events:
        if ev.seq != game.last_seq + 1:
            raise ReplayMismatch(f"event {ev.seq} does not follow event {game.last_seq}")
        if ev.type == "RolledBack":
            raise ReplayMismatch(f"event {ev.seq} rolls the game back")
        _apply(game, ev, False, engine=False)
        game.last_seq = ev.seq
    game.state = state
    return game


def copy_game(game: Game, state: State | None = None) -> Game:
    """A copy of ``game`` that can be advanced without touching the original; ``state``
    (already a private copy, e.g. from :func:`thaw`) replaces a copy of ``game.state``."""
    import copy

    clone = copy.copy(game)
    clone.state = thaw(freeze(game.state)) if state is None else state
    clone.submitted = dict(game.submitted)
    clone.standing = dict(game.standing)
    clone.deadlines = dict(game.deadlines)
    clone.seats = {k: dict(v) for k, v in game.seats.items()}
    clone.turns = game.turns.copy()  # a list, or the turns of a head (pbem.store.heads.Turns)
    clone.rollbacks = list(game.rollbacks)
    clone.upgrades = list(game.upgrades)
    clone.club = game.club.copy()
    clone.prefs = {k: dict(v) for k, v in game.prefs.items()}
    return clone


def freeze(state: State) -> bytes:
    """``state`` as bytes that :func:`thaw` turns back into an equal, independent copy.

    A deep copy through pickle: for the plain JSON-like data of a state it is what
    ``copy.deepcopy`` gives (same types, same order, shared parts stay shared), several
    times faster; the bytes are kept by the service's cache, so each load costs one thaw."""
    return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)


def thaw(frozen: bytes) -> State:
    """A new copy of the state :func:`freeze` made ``frozen`` from."""
    return pickle.loads(frozen)  # noqa: S301 - our own bytes, made in this process


def fold_steps(game_id: str, events: Iterable[StoredEvent], seed: str) -> Iterable[Game]:
    """Like :func:`fold`, yielding the game after each ``TurnAdjudicated`` event.

    The same :class:`Game` object is yielded each time, updated in place: read what you
    need before asking for the next step.
    """
    events = list(events)
    live, rolled = live_events(events), rollbacks_of(events)
    game: Game | None = None
    for ev in live:
        if ev.type == "GameCreated":
            game = _created(game_id, ev, seed, False)
        elif game is not None:
            _apply(game, ev, False)
            game.rollbacks = [r for r in rolled if r["seq"] < ev.seq] if rolled else []
            game.last_seq = ev.seq
            if ev.type == "TurnAdjudicated":
                yield game


def _created(game_id: str, ev: StoredEvent, seed: str, verify: bool) -> Game:
    p = ev.payload
    if commitment(seed) != p["commitment"]:
        raise ReplayMismatch(f"game {game_id}: the seed does not match the published commitment")
    engine = engine_for(game_id, p, created_at=ev.recorded_at)
    state, setup_events = engine.create([s["name"] for s in p["seats"]], p["options"], chance_seed(p, seed, 0))
    if verify:
        _check(state_digest(state, seed, p.get("state_digest")), p["state_hash"], canonical_json(setup_events),
               ev, "setup_events", "setup")
    seats = {s["name"]: dict(s) for s in p["seats"]}
    return Game(game_id, engine, p, state, seed, ev.seq, seats=seats, deadlines=dict(p.get("deadlines", {})),
                opened_at=ev.recorded_at)


def _apply(game: Game, ev: StoredEvent, verify: bool, engine: bool = True) -> None:
    p = ev.payload
    if verify and ev.type in ("OrdersSubmitted", "StandingOrders"):
        from pbem.store.verifyturn import check_text

        check_text(game, ev)
    if ev.type == "OrdersSubmitted":
        game.submitted[p["seat"]] = {**p, "seq": ev.seq}
    elif ev.type == "OrdersVoided":
        if game.submitted.get(p["seat"], {}).get("turn") == p["turn"]:
            del game.submitted[p["seat"]]
    elif ev.type == "StandingOrders":
        # standing orders live in the engine state, applied where they were recorded
        game.standing[p["seat"]] = {**p, "seq": ev.seq}
        if engine:
            game.state = game.engine.apply_standing(game.state, p["seat"], p["orders"])  # type: ignore[attr-defined]
    elif ev.type == "DeadlineSet":
        game.deadlines[p["turn"]] = p["deadline"]
        if p["turn"] == "*":
            game.every_set_at = ev.recorded_at
    elif ev.type == "SeatChanged":
        game.seats[p["seat"]].update({k: p[k] for k in ("email", "addresses", "display_name", "language") if k in p})
    elif ev.type == "SeatPreference":
        game.prefs[p["seat"]] = {**game.prefs.get(p["seat"], {}), "digest": bool(p["digest"])}
    elif ev.type == "SeedRevealed":
        if commitment(ev.payload["seed"]) != game.created["commitment"]:
            raise ReplayMismatch(f"event {ev.seq}: the revealed seed does not match the commitment")
    elif ev.type == "GameAbandoned":
        game.abandoned = p.get("reason", "abandoned")
    elif ev.type == "EngineUpgraded":
        _upgraded(game, ev, verify, engine)
    elif ev.type == "TurnAdjudicated" and not engine:
        game.opened_at = ev.recorded_at
        game.turns.append({**p, "seq": ev.seq})
        game.submitted = {s: o for s, o in game.submitted.items() if o["turn"] != p["turn"]}
    elif ev.type == "TurnAdjudicated":
        _adjudicated(game, ev, verify)
    from pbem.store.clubstate import apply as club_apply

    club_apply(game, ev, verify)  # absences, civil disorder, votes, endings, observers (pbem.club)


def _upgraded(game: Game, ev: StoredEvent, verify: bool, engine: bool) -> None:
    """``EngineUpgraded``: the game goes on under the newer rules version; its state becomes the
    state as that version keeps it (:func:`adjudicator.versions.upgraded_state`)."""
    from adjudicator.versions import upgraded_state

    p = ev.payload
    if game.engine.version != p["from"]:
        raise ReplayMismatch(f"event {ev.seq}: upgrades from rules {p['from']} but the game plays {game.engine.version}")
    new = engine_for(game.game_id, game.created, p["to"], p.get("data_files"))
    if engine:
        game.state = upgraded_state(game.engine, p["to"], game.state)
        if verify and game.digest(game.state) != p["state_hash"]:
            raise ReplayMismatch(f"event {ev.seq}: the state upgraded to rules {p['to']} does not match its "
                                 "recorded hash")
    game.engine = new
    game.upgrades.append({**p, "seq": ev.seq})


def _adjudicated(game: Game, ev: StoredEvent, verify: bool) -> None:
    p = ev.payload
    pending = game.pending_of(game.state)
    if pending is None or pending.turn != p["turn"]:
        raise ReplayMismatch(f"event {ev.seq}: adjudicates turn {p['turn']} but the game waits for "
                             f"{pending.turn if pending else 'nothing (over)'}")
    state, derived = game.engine.advance(game.state, p["orders"], game.chance_seed)
    if verify:
        derived_text = canonical_json(derived)
        # an engine whose state keeps the derived events (as its ``log``) has them encoded once
        known = ("log", derived_text) if isinstance(state, dict) and state.get("log") is derived else None
        # a sequential game's many small decisions leave most of its state as it was: its texts
        # are kept from one decision to the next (a whole season changes most of it)
        texts = game._texts if known is None else None
        _check(state_digest(state, game.seed, game.digest_scheme, known, texts), p["state_hash"], derived_text,
               ev, "events", f"turn {p['turn']} (event {ev.seq})")
        from pbem.store.verifyturn import check_turn

        check_turn(game, ev, pending, state)  # every other field of the event (before the state moves on)
    game.state = state
    game.opened_at = ev.recorded_at
    game.turns.append({**p, "seq": ev.seq})
    game.submitted = {s: o for s, o in game.submitted.items() if o["turn"] != p["turn"]}


def _check(got_hash: str, want_hash: str, got_text: str, ev: StoredEvent, key: str, where: str) -> None:
    """Raise :class:`ReplayMismatch` unless the hashes and the derived events (``got_text``, the
    canonical text of the engine's; the recorded ones are ``ev.payload[key]``) are the same."""
    if not _same_events(got_text, ev, key):
        raise ReplayMismatch(f"{where}: the engine's derived events differ from the recorded ones")
    if got_hash != want_hash:
        raise ReplayMismatch(f"{where}: state hash {got_hash[:12]} differs from recorded {want_hash[:12]}")


def _same_events(got_text: str, ev: StoredEvent, key: str) -> bool:
    """Whether ``got_text`` is the canonical text of the recorded ``ev.payload[key]``.

    When the payload's stored JSON is at hand (``ev.text``, canonical as the store writes it),
    the recorded events are found in it instead of being encoded again: the text must begin
    with the canonical ``{"k":v,...`` of the keys that sort before ``key``, then ``"key":``
    and ``got_text`` ending there (a JSON value ends where its brackets close), and name
    ``key`` nowhere after it (so no second ``key`` overrides it; inside a JSON string a quote
    is escaped, so a string cannot contain ``"key":``). Otherwise, e.g. for events not read
    from a store, the recorded events are encoded."""
    text = ev.text
    if text is not None:
        name = canonical_json(key) + ":"
        before = canonical_json({k: v for k, v in ev.payload.items() if k < key})
        head = before[:-1] + ("," if len(before) > 2 else "") + name
        end = len(head) + len(got_text)
        if (text.startswith(head) and text.startswith(got_text, len(head)) and text[end:end + 1] in (",", "}")
                and text.find(name, end) == -1):
            return True
    return got_text == canonical_json(ev.payload[key])
