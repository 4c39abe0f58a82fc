"""Rolling a game back without losing history (issue 19): ``pbem rollback G --to TURN``.

A rollback is one more event, ``RolledBack``; nothing is deleted or rewritten, so the hash
chain stays whole and ``replay --verify`` re-checks every turn ever adjudicated, the
rolled-back ones included. Which events still count is a pure function of the log,
:func:`live_events`: a rollback to turn T sets aside

- the adjudication of T and everything decided after it (orders, voids, standing orders,
  adjudications of later turns),
- the orders submitted for T itself (unless the GM keeps them, ``--keep-orders``),
- the deadlines of T and of every set-aside turn (a replayed turn gets the deadline the
  GM gives with the rollback, or the game's relative clock restarts; see docs/gm-guide.md);

seat changes, the all-turns deadline (``*``) and events of other kinds stay in force. The
game then waits for T again, in exactly the state it had before T was first adjudicated.
The engines are pure and draw all chance from the seed by labels naming the draw (turn,
step), never by call order or count, so re-adjudicating T with the same orders gives the
same result, byte for byte.
"""

from __future__ import annotations

from typing import Any

from pbem.club.state import DECIDING as CLUB_DECIDING
from pbem.store.events import Game, ReplayMismatch, fold_live, state_digest
from pbem.store.db import StoredEvent

ROLLED_BACK = "RolledBack"
#: Events that decide the game: set aside by a rollback that reaches back over them (an upgrade
#: of the rules too: the turn reopened is played under the rules it was first played with).
DECIDING = frozenset({"OrdersSubmitted", "OrdersVoided", "StandingOrders", "TurnAdjudicated", ROLLED_BACK,
                      "EngineUpgraded"}) | CLUB_DECIDING  # civil disorder, votes (pbem.club.state)


def live_events(events: list[StoredEvent]) -> list[StoredEvent]:
    """The events that still count after every ``RolledBack`` in ``events`` (in order,
    without the ``RolledBack`` events themselves)."""
    if not any(e.type == ROLLED_BACK for e in events):
        return events
    live: list[StoredEvent] = []
    for ev in events:
        if ev.type != ROLLED_BACK:
            live.append(ev)
            continue
        to, keep = ev.payload["to"], bool(ev.payload.get("keep_orders"))
        cut = cut_index(live, to)
        if cut is None:
            raise ReplayMismatch(f"event {ev.seq} rolls back to turn {to}, which was not adjudicated before it")
        head = [e for e in live[:cut] if not _reopened(e, to, keep)]
        tail = [e for e in live[cut:] if e.type not in DECIDING and not _turn_deadline(e)]
        live = head + tail
    return live


def cut_index(live: list[StoredEvent], turn: str) -> int | None:
    """The position in ``live`` of the last adjudication of ``turn`` (None: never adjudicated)."""
    for i in range(len(live) - 1, -1, -1):
        if live[i].type == "TurnAdjudicated" and live[i].payload["turn"] == turn:
            return i
    return None


def _reopened(ev: StoredEvent, turn: str, keep_orders: bool) -> bool:
    """True for an event before the cut that the reopened ``turn`` no longer has."""
    if ev.type in ("OrdersSubmitted", "OrdersVoided"):
        return not keep_orders and ev.payload.get("turn") == turn
    return ev.type == "DeadlineSet" and ev.payload.get("turn") == turn


def _turn_deadline(ev: StoredEvent) -> bool:
    return ev.type == "DeadlineSet" and ev.payload.get("turn") != "*"


def rollbacks_of(events: list[StoredEvent]) -> list[dict[str, Any]]:
    """Every ``RolledBack`` payload of ``events`` with its ``seq``, oldest first."""
    return [{**e.payload, "seq": e.seq} for e in events if e.type == ROLLED_BACK]


def fold_rolled_back(game_id: str, events: list[StoredEvent], seed: str | None, verify: bool,
                     until_turn: str | None, snapshot: tuple[int, Any] | None) -> Game:
    """:func:`pbem.events.fold` of a log holding rollbacks: the events that still count are
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
    from pbem.store.events import fold

    last = max(i for i, e in enumerate(events) if e.type == ROLLED_BACK)
    fold(game_id, events[:last], seed, verify=True)  # checks the earlier rollbacks on the way
    for i in (last,):
        rebuilt = fold_live(game_id, live_events(events[:i + 1]), seed)
        want = events[i].payload.get("state_hash")
        got = state_digest(rebuilt.state, rebuilt.seed, rebuilt.digest_scheme)
        if want is not None and got != want:
            raise ReplayMismatch(f"event {events[i].seq} (RolledBack): the rebuilt state {got[:12]} differs "
                                 f"from the recorded {want[:12]}")


def set_aside(events: list[StoredEvent], turn: str) -> tuple[list[StoredEvent], dict[str, Any]] | None:
    """The log as it stood just before the latest rollback that set ``turn`` aside (its
    adjudication of ``turn`` included) and that rollback; None when no rollback set it aside."""
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        if ev.type == ROLLED_BACK and turn in ev.payload.get("undone", ()):
            return events[:i], {**ev.payload, "seq": ev.seq}
    return None


def summary(events: list[StoredEvent]) -> list[dict[str, Any]]:
    """The rollbacks of a log as archives and records show them: event, turn reopened,
    reason, and the turns set aside."""
    return [{"seq": r["seq"], "to": r["to"], "reason": r["reason"], "undone": list(r["undone"])}
            for r in rollbacks_of(events)]


def record_line(rollback: dict[str, Any]) -> str:
    """One rollback in words (a record header, a report line)."""
    return (f"event {rollback['seq']}: turn {rollback['to']} reopened; set aside "
            f"{', '.join(rollback['undone'])}; reason: {rollback['reason']}")
