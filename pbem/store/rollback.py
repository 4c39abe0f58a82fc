"""Rolling a game back without losing history: ``pbem rollback G --to TURN``.

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

from pbem.store.clubstate import DECIDING as CLUB_DECIDING
from pbem.store.db import StoredEvent
from pbem.store.mismatch import ReplayMismatch

ROLLED_BACK = "RolledBack"
#: Events that decide the game: set aside by a rollback that reaches back over them (an upgrade
#: of the rules too: the turn reopened is played under the rules it was first played with).
DECIDING = frozenset({"OrdersSubmitted", "OrdersVoided", "StandingOrders", "TurnAdjudicated", ROLLED_BACK,
                      "EngineUpgraded"}) | CLUB_DECIDING  # civil disorder, votes (pbem.store.clubstate)


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
