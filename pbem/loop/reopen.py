"""The GM's rollback: ``pbem rollback G --to TURN --reason TEXT``.

The pure part (which events still count, folding and verifying across a rollback) lives in
:mod:`pbem.store.rollback`, which the fold in :mod:`pbem.store.events` uses; this module writes the
``RolledBack`` event and queues the mails, so it may import the mail modules without an
import circle (mailbase -> events -> rollback must never reach back to mail code).
"""

from __future__ import annotations

from typing import Any

from pbem.store.events import Game, fold_live
from pbem.store.rollback import ROLLED_BACK, cut_index, live_events
from pbem.store.db import StoredEvent

def rollback(service: Any, game_id: str, to: str, reason: str, deadline: str | None = None,
             keep_orders: bool = False) -> dict[str, Any]:
    """Roll ``game_id`` back so that turn ``to`` is open again (one write transaction: the
    ``RolledBack`` event, the reopened turn's deadline, and a mail to every seat).

    ``deadline`` (ISO 8601 with zone, ``+3d`` or ``now+3d``: the reopened turn has no
    deadline, so both count from now) is the reopened turn's deadline; without it a game with
    a relative clock restarts it now, and a game whose all-turns deadline has passed is refused
    (the next ``pbem tick`` would force the turn at once)."""
    from pbem.loop import deadlines
    from pbem.mailout import notify
    from pbem.errors import DomainError
    from pbem.store.db import NewEvent

    if not reason.strip():
        raise DomainError("give a --reason: every seat is told why the turn is open again")
    now = service.store.clock()
    with service.store.transaction():
        game = service.load(game_id)
        events = service.store.events(game_id)
        _check_can_roll_back(game, events, to)
        live = live_events(events)
        cut = cut_index(live, to)
        assert cut is not None
        undone = [e.payload["turn"] for e in live[cut:] if e.type == "TurnAdjudicated"]
        payload: dict[str, Any] = {"to": to, "reason": reason.strip(), "undone": undone, "keep_orders": keep_orders}
        rebuilt = _rebuilt(game_id, events, payload, game.seed)
        payload["state_hash"] = rebuilt.state_hash
        payload["turn"] = rebuilt.pending.turn if rebuilt.pending else None
        new = [NewEvent(ROLLED_BACK, payload)]
        value = deadlines.resolve(deadline, None, now) if deadline else None
        if value is None and rebuilt.deadline and deadlines.is_due(rebuilt.deadline, now):
            raise DomainError(f"the deadline of every turn ({rebuilt.deadline}) has passed, so the next tick would "
                              f"force turn {to} at once: give --deadline WHEN (e.g. +3d) for the reopened turn")
        if value is not None:
            new.append(NewEvent("DeadlineSet", {"turn": payload["turn"], "deadline": value,
                                                "utc": deadlines.utc_text(deadlines.instant(value))}))
        stored = service.store.append(game_id, new, game.last_seq).events
        # the cached states of the set-aside turns (a cache, never the truth) would only be refused
        service.store.conn.execute("delete from snapshots where game_id = ? and seq >= ?", [game_id, live[cut].seq])
        after = service._start_clock(service.load(game_id), now)
        service._project(after)
        for seat in after.seats:
            notify.queue(service.store, after, notice(after, seat, payload, service.sender), cause_seq=stored[0].seq)
    return {"game": game_id, "to": to, "reason": payload["reason"], "undone": undone, "turn": payload["turn"],
            "keep_orders": keep_orders, "event": stored[0].seq, "state_hash": payload["state_hash"],
            "deadline": after.deadline, "mailed": list(after.seats)}


def _check_can_roll_back(game: Game, events: list[StoredEvent], to: str) -> None:
    """A clear refusal when ``to`` cannot be reopened."""
    from pbem.errors import DomainError

    if game.abandoned is not None or any(e.type == "SeedRevealed" for e in events):
        raise DomainError(f"game {game.game_id} has ended and its seed is revealed, so players could foresee "
                          f"every draw of a replayed turn: branch it instead (pbem branch {game.game_id} --at TURN "
                          "--as NEW)")
    if not any(t["turn"] == to for t in game.turns):
        done = [t["turn"] for t in game.turns]
        hint = f"turns adjudicated so far: {', '.join(done[-8:])}" if done else "no turn has been adjudicated yet"
        raise DomainError(f"turn {to!r} of {game.game_id} has not been adjudicated, so it cannot be reopened; {hint}")


def _rebuilt(game_id: str, events: list[StoredEvent], payload: dict[str, Any], seed: str) -> Game:
    """The game as it will be right after the ``RolledBack`` event of ``payload``."""
    mark = StoredEvent(game_id, events[-1].seq + 1, ROLLED_BACK, 1, payload, "", "", "")
    return fold_live(game_id, live_events([*events, mark]), seed)


def notice(game: Game, seat: str, payload: dict[str, Any], sender: str) -> Any:
    """The short mail telling ``seat`` which turn is open again and why, in its language."""
    from pbem.mailout.mailbase import speaking_to

    with speaking_to(game, seat):
        return _notice(game, seat, payload, sender)


def _notice(game: Game, seat: str, payload: dict[str, Any], sender: str) -> Any:
    from pbem.mailout.mailbase import Outgoing, base_message, format_deadline, turn_words, wrapped
    from reports.i18n import _

    to, turn = game.seats[seat]["email"], payload["to"]
    pending = game.pending
    lines = [*wrapped(_("Game {game}: the GM rolled the game back. Turn {turn} is open again.").format(
                 game=game.game_id, turn=turn)),
             _("Reason: {reason}").format(reason=payload["reason"]), "",
             *wrapped(_("Set aside (kept in the game's history, no longer in force): the adjudication of {turns}.")
                      .format(turns=", ".join(payload["undone"]))), ""]
    if payload.get("keep_orders"):
        lines += wrapped(_("Orders accepted for {turn} before it was first adjudicated still stand; you may replace "
                           "them.").format(turn=turn))
    else:
        lines += wrapped(_("Orders sent for {turn} before the rollback no longer count: send them again (the same "
                           "orders give the same result; chance is drawn from the same seed by the same labels).")
                         .format(turn=turn))
    if pending is not None:
        lines += [_("Awaited now for {turn}: {seats}.").format(turn=pending.turn, seats=", ".join(pending.seats)),
                  _("Deadline: {deadline}").format(deadline=format_deadline(game.deadline))]
    lines.append(_("Send a block starting with: {line}").format(
        line=f"GAME {game.game_id} {seat} " + _("<your password>")))
    subject = _("[{game}] rolled back: open again ({turn})").format(game=game.game_id, turn=turn_words(game, turn))
    msg = base_message(game, to, subject, sender, "rollback")
    from pbem.mailout.mailbase import fold_prose

    msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(to, msg["Subject"], msg, "rollback")


