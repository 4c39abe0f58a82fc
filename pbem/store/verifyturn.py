"""What a verifying fold checks of each recorded event besides its derived events and state hash.

A forger who edits a finished game's archive and recomputes its hash chain can change any
field. The replay re-derives the derived events and the state hashes; this module checks every
other field of a ``TurnAdjudicated`` event against the replay and the input events before it,
exactly as :meth:`pbem.loop.service.Service.adjudicate` made them:

- ``orders`` names exactly the seats the turn awaited; a seat in ``defaulted`` had neither
  orders nor orders sent in advance and was given the engine's missed-orders default; every
  other seat's orders are the last ones it sent for the turn (else the orders it sent in
  advance, the engine's ``auto_orders``), and once the log holds order events a seat that sent
  none must be in ``defaulted``; ``forced`` says whether any seat was defaulted;
- ``scores``, ``over`` and ``winner`` are the engine's for the state the replay reached;

and of each ``OrdersSubmitted`` and ``StandingOrders`` event that its ``text`` reads back (by the
game's order grammar, in the state it was sent in) as its ``orders``. What cannot be checked
(orders no order event carries, as in a game imported from a record; a text the grammar cannot
read back) is noted in ``game.unverified``, never passed as checked.
"""

from __future__ import annotations

from typing import Any

from adjudicator.base import Pending, State

#: Notes of what a verifying fold could not check (counted by the caller).
NO_ORDER_EVENT = ("orders of an adjudication that no order event of this log carries (a game imported from a "
                  "record, or turns a branch copied): the replay checks what they did, not that they were sent")
UNREADABLE = "an order text that the game's order grammar cannot read back: its orders were replayed, not its text"


def mismatch(message: str) -> Exception:
    """The error of a field that differs from the replay."""
    from pbem.store.mismatch import ReplayMismatch

    return ReplayMismatch(message)


def check_orders(game: Any, ev: Any, pending: Pending) -> Exception | None:
    """The checks of :func:`check_turn` that read the state before the decision (``pending``),
    made while ``game`` still holds it (the engine may then advance that state in place): what
    they found wrong, which :func:`check_turn` raises in its place, after the fold has checked
    the derived events and the state hash (so a forged log is refused with the same message
    as ever, whatever the engine does with the state)."""
    try:
        _check_orders(game, ev, pending)
    except Exception as exc:  # noqa: BLE001 - raised again by check_turn, in the same order as ever
        return exc
    return None


def check_turn(game: Any, ev: Any, found: Exception | None, after: State) -> None:
    """Check every field of the ``TurnAdjudicated`` event ``ev`` (``found``: what
    :func:`check_orders` found wrong of the state before it; ``after`` is the state the replay
    reached)."""
    if found is not None:
        raise found
    p, engine = ev.payload, game.engine
    where = f"turn {p['turn']} (event {ev.seq})"
    over = game.pending_of(after) is None  # kept: the next decision asks it again of this state
    for key, want in (("scores", engine.scores(after)), ("over", over), ("winner", engine.winner(after) if over else None)):
        if p[key] != want:
            raise mismatch(f"{where}: the recorded {key} {p[key]!r} differs from the replay's {want!r}")


def _check_orders(game: Any, ev: Any, pending: Pending) -> None:
    """The fields of ``ev`` that the state before it decides: who had to send orders, who was
    defaulted, the orders recorded for each seat, ``forced``."""
    p = ev.payload
    where = f"turn {p['turn']} (event {ev.seq})"
    for key in ("forced", "scores", "over", "winner"):
        if key not in p:
            raise mismatch(f"{where}: the event lacks {key!r}")
    seats = list(pending.seats)
    if sorted(p["orders"]) != sorted(seats):
        raise mismatch(f"{where}: orders are recorded for {', '.join(sorted(p['orders'])) or 'no seat'}, "
                       f"the turn awaited {', '.join(seats)}")
    defaulted = p["defaulted"]
    if len(set(defaulted)) != len(defaulted) or not set(defaulted) <= set(seats):
        raise mismatch(f"{where}: the seats recorded as missing their orders ({', '.join(map(str, defaulted))}) "
                       "are not seats the turn awaited")
    copied = game.created.get("branch")
    checkable = not copied or len(game.turns) >= int(copied.get("turns", 0))
    for seat in seats:
        _check_seat(game, p, seat, where, checkable)
    if p["forced"] != bool(defaulted):
        raise mismatch(f"{where}: the recorded 'forced' {p['forced']!r} does not match the {len(defaulted)} "
                       "seat(s) recorded as missing their orders")


def _check_seat(game: Any, p: dict[str, Any], seat: str, where: str, checkable: bool) -> None:
    """One seat's recorded orders: what it sent, what it sent in advance, or the default."""
    recorded, sent = p["orders"][seat], _sent(game, p["turn"], seat)
    if seat in p["defaulted"]:
        if sent is not None and checkable:
            raise mismatch(f"{where}: {seat} is recorded as missing its orders, but it had sent orders")
        if recorded != game.engine.default_orders(game.state, seat):
            raise mismatch(f"{where}: {seat} is recorded as missing its orders, but the orders recorded for it "
                           "are not the missed-orders default")
        return
    if sent is None and checkable and game.order_events:  # orders came by order events: this seat's did not
        raise mismatch(f"{where}: {seat} is not recorded as missing its orders, but it sent none")
    if sent is None or not checkable:
        game.unverified.append(NO_ORDER_EVENT)
        return
    if recorded != sent:
        raise mismatch(f"{where}: the orders recorded for {seat} are not the orders it sent")


def _sent(game: Any, turn: str, seat: str) -> list[dict[str, Any]] | None:
    """The orders the service took for ``seat`` (as :meth:`pbem.loop.service.Service._orders_for`)."""
    sub = game.submitted.get(seat)
    if sub is not None and sub["turn"] == turn:
        return list(sub["orders"])
    auto = getattr(game.engine, "auto_orders", None)
    return auto(game.state, seat) if auto is not None else None


def check_text(game: Any, ev: Any) -> None:
    """An ``OrdersSubmitted``/``StandingOrders`` event's text must read back as its orders."""
    p = ev.payload
    game.order_events += 1
    text, orders = p.get("text"), p.get("orders")
    if not isinstance(text, str) or not isinstance(orders, list):
        return  # sealed (a running game's published file) or an older event without a text
    parse, write = _order_language(game.engine.name)
    try:  # the text pbem writes is the canonical text of the orders: no need to parse it then
        if write(orders) == text:
            return
    except Exception:  # noqa: BLE001 - orders the formatter cannot write: the text is parsed
        pass
    try:
        if parse is None:
            raise KeyError(game.engine.name)
        parsed = parse(text, game.state)
    except KeyError:
        game.unverified.append(UNREADABLE)
        return
    except Exception:  # noqa: BLE001 - a text the grammar chokes on is not checked, and said so
        parsed = None
    if parsed is None or parsed.problems or not parsed.orders:
        game.unverified.append(UNREADABLE)
        return
    if parsed.orders == orders:
        return
    try:
        same = write(parsed.orders) == write(orders)
    except Exception:  # noqa: BLE001 - orders the formatter cannot write are not the text's
        same = False
    if not same:
        raise mismatch(f"event {ev.seq} ({ev.type}): its order text says other orders than the orders recorded")


#: Each game's order parser and writer, as :mod:`turns.games` finds them (its grammar modules
#: imported once), kept for the replay's order events.
_LANGUAGES: dict[str, tuple[Any, Any]] = {}


def _order_language(name: str) -> tuple[Any, Any]:
    """``name``'s order parser (None: it has none) and writer (:func:`turns.games.format_orders`
    of ``name``: raises KeyError when it has none), looked up once per game, not at every order
    event of a replay."""
    found = _LANGUAGES.get(name)
    if found is None:
        from turns.base import registered
        from turns.games import load

        load(name)
        parse, write = registered(name)[:2]
        found = _LANGUAGES[name] = (parse, write if write is not None else _no_writer(name))
    return found


def _no_writer(name: str) -> Any:
    """The writer of a game without one: every call raises KeyError, as ``format_orders`` does."""
    def write(orders: Any) -> str:
        raise KeyError(name)
    return write
