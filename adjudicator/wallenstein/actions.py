"""The ten actions, carried out one seat at a time (rules 4.1.3 and 4.1.6).

"A player who cannot carry it out, or could only partly carry it out, does not carry it
out at all" (4.1.6): every check comes before any change, and a failed check records a
``Skipped`` event with a sentence a player understands.
"""

from __future__ import annotations

from typing import Any

from adjudicator.wallenstein import combat, favour
from adjudicator.wallenstein.data import counties, neighbours, rules
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.notes import chosen
from adjudicator.wallenstein.state import Ctx, bank_left, pieces_left, seat_count

PIECE_NAMES = {"palace": "palace", "church": "church", "trade": "trading house", "revolt_markers": "revolt marker"}


def _skip(ctx: Ctx, seat: str, order: dict[str, Any], reason: str) -> None:
    ctx.emit("Skipped", seat=seat, action=order["action"], county=order["county"], reason=reason)


def perform(ctx: Ctx, seat: str, order: dict[str, Any]) -> None:
    """Carry out one planned action of ``seat`` (or record why it was not carried out)."""
    action, county = order["action"], order["county"]
    c = ctx.state["counties"].get(county)
    if c is None or c["owner"] != seat:
        # rule 4.1.6 note: a conquered county's card changed hands at once
        return _skip(ctx, seat, order, f"{county} is no longer yours")
    if rule("lost_card_stays_lost") and (seat, county) in ctx.handed_over:  # rule 4.1.6 note: the card left at once
        return _skip(ctx, seat, order, f"{county} was lost earlier this season and its card left your action "
                                       "space at once: taking the county back does not bring the action back")
    cost = rules()["actions"]["cost"][action]
    if ctx.state["players"][seat]["taler"] < cost:
        return _skip(ctx, seat, order, f"it costs {cost} Taler and you have {ctx.state['players'][seat]['taler']}")
    reason = _HANDLERS[action](ctx, seat, order, cost)
    if reason:
        _skip(ctx, seat, order, reason)


def _build(ctx: Ctx, seat: str, order: dict[str, Any], cost: int) -> str | None:
    """Build palace/church/trading house (rule 4.1.3 items 1-3)."""
    building, county = order["action"], order["county"]
    c = ctx.state["counties"][county]
    if building in c["buildings"]:
        return f"{county} already has a {building} (no two of a kind)"
    if len(c["buildings"]) >= counties()[county]["spaces"]:
        return f"{county} has no empty building space"
    if rule("box_pieces") and pieces_left(ctx.state, building) <= 0:  # rule 1: "28 palota, 26 templom és 26 kereskedőház"
        box = rules()["pieces"]["value"][building]
        return f"no {PIECE_NAMES[building]} pieces are left (the box has {box}, all on the board)"
    ctx.state["players"][seat]["taler"] -= cost
    c["buildings"].append(building)
    c["buildings"].sort(key=("palace", "church", "trade").index)
    removed = 0
    ev = ctx.effect("trade_calms")
    if ev and building == "trade":  # event: building a trading house removes a revolt marker
        removed = min(ev["markers"], c["markers"])
        c["markers"] -= removed
    ctx.emit("Build", seat=seat, county=county, building=building, cost=cost, markers_removed=removed)
    return None


def yield_of(ctx: Ctx, seat: str, kind: str, county: str) -> tuple[int, int, int]:
    """``(base, after_event, bonus)`` of tax or grain: event first, then the tile (4.1.3)."""
    base = counties()[county][kind]
    value = base
    low, high = ctx.effect(f"{kind}_min"), ctx.effect(f"{kind}_max")
    if low:
        value = max(value, low["value"])
    if high:
        value = min(value, high["value"])
    return base, value, 1 if ctx.has_tile(seat, kind) else 0


def _collect(ctx: Ctx, seat: str, order: dict[str, Any], cost: int) -> str | None:
    """Harvest grain / collect taxes, then the revolt check (rules 4.1.3 items 4-5, 5.2)."""
    kind, county = order["action"], order["county"]
    base, value, bonus = yield_of(ctx, seat, kind, county)
    player = ctx.state["players"][seat]
    key = "taler" if kind == "tax" else "grain"
    bank = bank_left(ctx.state) if kind == "tax" else None
    if bank is not None and value + bonus > bank:  # rule 1: the box's coins; 4.1.6: not in full, not at all
        return (f"the bank has only {bank} Taler left, {value + bonus} needed (the box's coins are "
                f"{rules()['coins']['taler']} Taler and the players hold the rest)")
    player[key] += value + bonus
    ctx.emit(kind.capitalize(), seat=seat, county=county, base=base, after_event=value, bonus=bonus,
             amount=value + bonus, **{key: player[key]})
    c = ctx.state["counties"][county]
    if c["markers"] and not combat.revolt(ctx, seat, county, kind):
        return None  # the revolt succeeded: the county is devastated, no marker
    place_marker(ctx, seat, county)  # no revolt, or a failed one: place a revolt marker
    return None


def place_marker(ctx: Ctx, seat: str, county: str) -> None:
    """Place a revolt marker on ``county`` -- if the box has one left (rule 1: "42 lázadásjelző")."""
    c = ctx.state["counties"][county]
    if rule("box_pieces") and pieces_left(ctx.state, "revolt_markers") <= 0:
        box = rules()["pieces"]["value"]["revolt_markers"]
        ctx.emit("OutOfPieces", seat=seat, county=county, piece="revolt_markers", box=box,
                 note=f"No revolt marker is placed in {county}: all {box} markers of the box are on the board.")
        return
    c["markers"] += 1
    ctx.emit("RevoltMarker", seat=seat, county=county, markers=c["markers"])


def _recruit(ctx: Ctx, seat: str, order: dict[str, Any], cost: int) -> str | None:
    """Recruit 5 / 3 armies (rule 4.1.3 items 6-7; recruit event, then the recruit tile: 6 armies)."""
    action, county = order["action"], order["county"]
    n = rules()["actions"]["recruit"][action]
    ev = ctx.effect("recruit_reduced")
    if ev:
        n = ev[action]
    player = ctx.state["players"][seat]
    if player["supply"] < n:
        return f"you have only {player['supply']} armies in supply, {n} needed"
    n = _with_tile(ctx, seat, order, n, player["supply"])
    player["taler"] -= cost
    player["supply"] -= n
    ctx.state["counties"][county]["armies"] += n
    ctx.emit("Recruit", seat=seat, county=county, action=action, armies=n, cost=cost)
    return None


def _with_tile(ctx: Ctx, seat: str, order: dict[str, Any], n: int, supply: int) -> int:
    """Armies of a recruit 5 with the recruit tile.

    The tile "6 sereg": "A játékos 6 sereget rakhat le, amikor az 5 sereg lerakása akciót hajtja
    végre" (tile: 3 Taler -> 6 armies). It applies after the event (4.1.3 "Fontos"), so it sets 6
    (rule point ``recruit_tile_sets_six``; the earliest games of 1.0 added one army to the
    action's number instead, with a supply of more than it). The tile says "may" (rakhat): from
    rules version 1.2 ``NO TILE`` places the action's number, and without a word the seat is told
    that the 6 were placed for it."""
    action = order["action"]
    if action != "recruit5" or not ctx.has_tile(seat, "recruit"):
        return n
    if not rule("recruit_tile_sets_six"):
        return n + 1 if supply > n else n
    tile = rules()["actions"]["recruit"]["recruit5"] + 1
    if rule("recruit_tile_choice") and order.get("tile") is False:
        return n
    placed = max(n, tile) if supply >= tile else n
    if placed != n and "tile" not in order:
        chosen(ctx, seat, "recruit_tile", county=order["county"], armies=placed,
               note=f"You held the recruit tile: your RECRUIT5 in {order['county']} placed {placed} armies instead "
                    f"of {n} (the tile lets you; write RECRUIT5 {order['county']} NO TILE to place {n}).")
    return placed


def _quantity(spec: Any, present: int, leave: int = 1) -> int | None:
    """Armies moved: ALL = all but ``leave`` (at least one stays, rule 4.1.3); a number
    needs ``leave`` more to stay."""
    n = present - leave if spec == "ALL" else int(spec)
    return n if 1 <= n <= present - leave else None


def _recruit1(ctx: Ctx, seat: str, order: dict[str, Any], cost: int) -> str | None:
    """Recruit 1 army, then move any number to an adjacent own county (item 8; no battle).

    The move is a "may" ("bárhány seregét átmozgathatja") and a seat that can carry out the
    action must (4.1.6): so a planned move that has become impossible (its target is no
    longer the seat's, or the number cannot leave one behind) is not made, and the recruit
    still happens. The move's failure is recorded as a ``Skipped`` of the action's move.
    """
    county, to = order["county"], order.get("to")
    player, state = ctx.state["players"][seat], ctx.state
    if player["supply"] < 1:
        return "you have no armies in supply"
    if not rule("recruit1_always_recruits"):
        refused = _recruit1_or_nothing(state, seat, order)
        if refused:
            return refused
    player["taler"] -= cost
    player["supply"] -= 1
    state["counties"][county]["armies"] += 1
    ctx.emit("Recruit", seat=seat, county=county, action="recruit1", armies=1, cost=cost)
    if to is None:
        return None
    if state["counties"][to]["owner"] != seat:
        return f"only the move: {to} is no longer yours (the army was recruited)"
    n = _quantity(order.get("armies", "ALL"), state["counties"][county]["armies"])
    if n is None:
        return (f"only the move: {county} would not keep one army behind after moving "
                f"{order.get('armies', 'ALL')} (the army was recruited)")
    _move(ctx, seat, "recruit1", county, to, n)
    return None


def _recruit1_or_nothing(state: dict[str, Any], seat: str, order: dict[str, Any]) -> str | None:
    """Why the earliest games of 1.0 made no recruit at all (rule point
    ``recruit1_always_recruits`` false): a planned move that could not be made stopped the
    whole action."""
    county, to = order["county"], order.get("to")
    if to is None:
        return None
    if state["counties"][to]["owner"] != seat:
        return f"the move goes to {to}, which is no longer yours"
    if not _quantity(order.get("armies", "ALL"), state["counties"][county]["armies"] + 1):
        return f"{county} would not keep one army behind after moving {order.get('armies')}"
    return None


def _move(ctx: Ctx, seat: str, action: str, origin: str, to: str, n: int) -> None:
    counties_ = ctx.state["counties"]
    counties_[origin]["armies"] -= n
    counties_[to]["armies"] += n
    ctx.emit("Move", seat=seat, action=action, to=to, armies=n, **{"from": origin})


def _manoeuvre(ctx: Ctx, seat: str, order: dict[str, Any], cost: int) -> str | None:
    """Manoeuvre A/B (item 9): the planned move or attack, else its fallbacks in order.

    At the table the player decides the target and the number when the card comes up; the
    plan says it in advance: ``to``/``armies``, optionally ``leave`` (armies that stay,
    default 1) and ``at_least`` (only if that many armies are in the county), then ``else``
    alternatives tried in order. The first one that can be carried out is; when none can,
    the action is not carried out (4.1.6) and every reason is reported.
    """
    reasons = []
    for alt in [order, *order.get("else", [])]:
        reason = _one_manoeuvre(ctx, seat, order["action"], order["county"], alt)
        if reason is None:
            return None
        reasons.append(reason)
    return reasons[0] if len(reasons) == 1 else "; ".join(f"{'else ' if i else ''}{r}" for i, r in enumerate(reasons))


def _one_manoeuvre(ctx: Ctx, seat: str, action: str, county: str, alt: dict[str, Any]) -> str | None:
    """One alternative of a manoeuvre into an adjacent county; a battle if it is not one's own."""
    to = alt["to"]
    state = ctx.state
    if to not in neighbours(county, seat_count(state)):
        return f"{to} is not adjacent to {county}"
    present = state["counties"][county]["armies"]
    if present < alt.get("at_least", 0):  # the player's own condition: "only if at least N are there"
        return f"{county} has {present} armies, fewer than the {alt['at_least']} you asked for (declined)"
    leave = alt.get("leave", 1)
    n = _quantity(alt["armies"], present, leave)
    if n is None:
        behind = "keep one behind" if leave == 1 else f"keep {leave} behind"
        return f"{county} has {present} armies: it cannot send {alt['armies']} and {behind}"
    tgt = state["counties"][to]
    if tgt["owner"] == seat:
        _move(ctx, seat, action, county, to, n)
        return None
    if ctx.effect("church_protection") and "church" in tgt["buildings"]:
        return f"{to} has a church and the event forbids attacking it"
    if favour.protected(state, tgt["owner"], action):  # a favour card's protection (court expansion)
        return f"{to} is under the Emperor's protection against {action.upper()} this season"
    combat.attack(ctx, seat, county, to, n)
    return None


_HANDLERS = {
    "palace": _build, "church": _build, "trade": _build,
    "grain": _collect, "tax": _collect,
    "recruit5": _recruit, "recruit3": _recruit, "recruit1": _recruit1,
    "attacka": _manoeuvre, "attackb": _manoeuvre,
}
