"""A game as folded at its last event, kept in the store: loading a game reads one row.

The ``heads`` table holds, per game, the state and the bookkeeping (:class:`pbem.store.events.Game`'s
fields: orders of the pending turn, deadlines, seats, the adjudicated turns by label and
sequence number, rollbacks, upgrades...) right after one event, named by its sequence number
and hash. It is a cache, never the truth (the log is): it is written in the transaction of the
events it follows (:mod:`pbem.store.projection`), and read only when

- the event it names is still in the log with the same hash (a log rolled back, rewritten or
  replaced by an import under the same id names another hash: the head is not used),
- its state's digest, made from the canonical text of the stored state in the game's digest
  scheme, is the one the head recorded and, when the head's state is the one an event recorded a state hash
  for (an adjudication, a rollback, an upgrade: no standing orders applied since), that hash,
- it was written in this format (:data:`FORMAT`).

Events recorded after it (orders, usually) are folded on top. A game is then loaded at the
cost of one row, whatever the length of its history: the adjudicated turns' payloads (each
turn's orders and derived events) are read from the log only when asked for
(:class:`Turns`). The rules version and data files in force are those of the game's
``GameCreated`` event, or of its last ``EngineUpgraded`` (:func:`pbem.store.events.engine_for`),
exactly as a replay pins them. ``replay --verify`` never reads heads: it re-runs the log.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from pbem.store.events import Game
    from pbem.store.db import Store

#: The layout of a head's ``book`` and ``state``; a head of another format is not read (the game
#: is replayed from its log, and the head rewritten at its next change). Format 2 keeps the
#: state's text with every mapping's keys in the engine's own order; format 1 kept the canonical
#: text, whose keys are sorted, and a released engine may list things in a mapping's key order
#: (one lists the seats of a scoring box so): a state read back from it could make
#: the next decision record its events in another order than a replay from the first event.
FORMAT = 2
#: Event types that record the hash of the whole state right after them.
HASHED = frozenset({"GameCreated", "TurnAdjudicated", "RolledBack", "EngineUpgraded"})
#: Keys of a seat's row that come from the secrets table, never from the log.
SECRET_KEYS = frozenset({"salt", "password_hash"})


class Turns(Sequence[dict[str, Any]]):
    """The ``TurnAdjudicated`` payloads of a game (each with its ``seq``), in order, read from
    the log when first asked for: a game loaded from its head knows each turn's label and
    sequence number, and decodes a turn's payload (orders, derived events) only when a
    caller looks at it (a report reads the last one or two)."""

    def __init__(self, refs: list[tuple[str, int]], read: Callable[[int], dict[str, Any]] | None = None,
                 got: dict[int, dict[str, Any]] | None = None) -> None:
        self._refs = refs
        self._read = read
        self._got: dict[int, dict[str, Any]] = {} if got is None else got

    def bind(self, read: Callable[[int], dict[str, Any]]) -> None:
        """Read the payloads not yet read with ``read`` (the store of the current caller)."""
        self._read = read

    def refs(self) -> list[tuple[str, int]]:
        """``(turn label, seq)`` of every turn, without reading any payload."""
        return list(self._refs)

    def __len__(self) -> int:
        return len(self._refs)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self._payload(seq) for _, seq in self._refs[index]]
        return self._payload(self._refs[index][1])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for _, seq in list(self._refs):
            yield self._payload(seq)

    def __reversed__(self) -> Iterator[dict[str, Any]]:
        for _, seq in reversed(list(self._refs)):
            yield self._payload(seq)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def _payload(self, seq: int) -> dict[str, Any]:
        found = self._got.get(seq)
        if found is None:
            if self._read is None:
                raise RuntimeError(f"turn at event {seq} is not loaded and no store is bound")
            found = self._got[seq] = self._read(seq)
        return found

    def append(self, payload: dict[str, Any]) -> None:
        """Add the payload of a turn just folded (with its ``seq``)."""
        self._refs.append((str(payload["turn"]), int(payload["seq"])))
        self._got[int(payload["seq"])] = payload

    def copy(self) -> Turns:
        """A copy that can be appended to without changing this one (payloads shared)."""
        return Turns(list(self._refs), self._read, self._got)


def turn_refs(turns: Sequence[dict[str, Any]]) -> list[tuple[str, int]]:
    """``(label, seq)`` of each turn of ``turns`` (a list of payloads or :class:`Turns`)."""
    if isinstance(turns, Turns):
        return turns.refs()
    return [(str(t["turn"]), int(t["seq"])) for t in turns]


def payload_reader(store: Store, game_id: str) -> Callable[[int], dict[str, Any]]:
    """Reads the payload of ``game_id``'s event ``seq`` (with its ``seq``) from ``store``."""
    def read(seq: int) -> dict[str, Any]:
        row = store.conn.execute("select payload from events where game_id = ? and seq = ?", [game_id, seq]).fetchone()
        if row is None:
            raise LookupError(f"game {game_id} has no event {seq}")
        return {**json.loads(row[0]), "seq": seq}
    return read


def book_of(game: Game, hash_seq: int | None) -> dict[str, Any]:
    """The bookkeeping of ``game`` as a head keeps it (no password hashes, no state)."""
    return {
        "submitted": game.submitted, "standing": game.standing, "deadlines": game.deadlines,
        "seats": {s: {k: v for k, v in row.items() if k not in SECRET_KEYS} for s, row in game.seats.items()},
        "turns": turn_refs(game.turns), "abandoned": game.abandoned, "rollbacks": game.rollbacks,
        "upgrades": game.upgrades, "opened_at": game.opened_at, "every_set_at": game.every_set_at,
        "prefs": game.prefs, "club": _club_of(game), "hash_seq": hash_seq,
    }


def _club_of(game: Game) -> dict[str, Any]:
    """The club's part of ``game`` (:class:`pbem.store.clubstate.Club`) as plain data."""

    return dict(vars(game.club))  # its fields (plain data: dicts, lists, tuples); encoded as they are


def _club(data: dict[str, Any] | None) -> Any:
    """A :class:`pbem.store.clubstate.Club` from :func:`_club_of`'s data."""
    from pbem.store.clubstate import Club

    club = Club(**(data or {}))
    club.sources = {seat: tuple(value) for seat, value in club.sources.items()}  # type: ignore[misc]
    return club


def write(store: Store, game: Game, event_hash: str, state_text: str | None, digest: str | None,
          hash_seq: int | None) -> None:
    """Keep ``game`` as folded at its last event (``event_hash``: that event's hash) inside the
    caller's transaction; ``state_text`` None: the state is the one the head holds already
    (only orders were recorded since), so only the bookkeeping is written."""
    if state_text is None:
        row = store.conn.execute("select json_extract(book, '$.hash_seq') from heads where game_id = ? and format = ?",
                                 [game.game_id, FORMAT]).fetchone()
        if row is None:
            return  # no head to bring up to date: the next projection of the state writes one
        book = encode(book_of(game, row[0]))
        store.conn.execute("update heads set seq = ?, event_hash = ?, book = ? where game_id = ?",
                           [game.last_seq, event_hash, book, game.game_id])
        return
    book = encode(book_of(game, hash_seq))
    state_text = ordered_text(game.state)  # the engine's key order (see FORMAT); the digest is the canonical text's
    store.conn.execute(
        "insert into heads (game_id, seq, event_hash, format, state, digest, book) values (?, ?, ?, ?, ?, ?, ?) "
        "on conflict(game_id) do update set seq = excluded.seq, event_hash = excluded.event_hash, "
        "format = excluded.format, state = excluded.state, digest = excluded.digest, book = excluded.book",
        [game.game_id, game.last_seq, event_hash, FORMAT, state_text, digest, book])


def ordered_text(state: Any) -> str:
    """A state's JSON text with every mapping's keys in their own order (the head's ``state``)."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def encode(book: dict[str, Any]) -> str:
    """The book as JSON with its mappings in their own order (seats in seating order: the
    order is part of the game), unlike the canonical form of a state."""
    return json.dumps(book, separators=(",", ":"), ensure_ascii=False)


def read(store: Store, game_id: str, seed: str | None) -> Game | None:
    """``game_id`` as its head holds it, with the events recorded after it folded on top;
    None when there is no head usable (see the module docstring): the caller replays."""
    found = read_with_text(store, game_id, seed)
    return None if found is None else found[0]


def read_with_text(store: Store, game_id: str, seed: str | None) -> tuple[Game, str | None, str] | None:
    """:func:`read`, with the canonical text of the game's state when it is the head's (no
    event was folded on top: else None) and the hash of the game's last event; None when
    there is no head usable."""
    from pbem.store.events import Game, ReplayMismatch, engine_for, fold_more, text_digest

    row = store.conn.execute("select seq, event_hash, format, state, digest, book from heads where game_id = ?",
                             [game_id]).fetchone()
    if row is None or row[2] != FORMAT:
        return None
    seq, event_hash, _, state_text, digest, book_text = row
    if store.event_hash(game_id, seq) != event_hash:
        return None
    first = store.events(game_id, 0, 1)
    if not first or first[0].type != "GameCreated":
        return None
    created_event = first[0]
    created = created_event.payload
    seed = seed or _revealed(store, game_id)
    if seed is None:
        return None
    from adjudicator.chance import commitment

    if commitment(seed) != created.get("commitment"):
        return None
    from adjudicator.base import canonical_json

    state = json.loads(state_text)
    state_text = canonical_json(state)  # the digest is the canonical text's, as every recorded state hash
    if text_digest(state_text, seed, created.get("state_digest")) != digest:
        return None
    book = json.loads(book_text)
    if book.get("hash_seq") is not None and _recorded_hash(store, game_id, book["hash_seq"]) != digest:
        return None
    upgrades = book["upgrades"]
    try:
        engine = (engine_for(game_id, created, upgrades[-1]["to"], upgrades[-1].get("data_files")) if upgrades
                  else engine_for(game_id, created, created_at=created_event.recorded_at))
    except ReplayMismatch:
        return None
    game = Game(game_id, engine, created, state, seed, seq,
                submitted=book["submitted"], standing=book["standing"], deadlines=book["deadlines"],
                seats=book["seats"], turns=Turns([(str(t), int(s)) for t, s in book["turns"]],
                                                 payload_reader(store, game_id)),
                abandoned=book["abandoned"], rollbacks=book["rollbacks"], upgrades=upgrades,
                opened_at=book["opened_at"], every_set_at=book["every_set_at"], prefs=book.get("prefs") or {},
                club=_club(book.get("club")))
    newer = store.events(game_id, after=seq)
    try:
        fold_more(game, newer)
    except ReplayMismatch:
        return None
    return (game, None, newer[-1].hash) if newer else (game, state_text, event_hash)


def _revealed(store: Store, game_id: str) -> str | None:
    row = store.conn.execute("select json_extract(payload, '$.seed') from events where game_id = ? and "
                             "type = 'SeedRevealed' order by seq desc limit 1", [game_id]).fetchone()
    return str(row[0]) if row and row[0] else None


def _recorded_hash(store: Store, game_id: str, seq: int) -> str | None:
    row = store.conn.execute("select json_extract(payload, '$.state_hash') from events where game_id = ? and seq = ?",
                             [game_id, seq]).fetchone()
    return str(row[0]) if row and row[0] else None
