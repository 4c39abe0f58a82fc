"""The state machine: what is pending, and resolving everything that needs no decision.

Phases (``state["phase"]["name"]``): ``turn`` (a seat recruits or cries Havoc),
``recruiting`` (version 3: the next part of a recruiting under way), ``peace_discard`` (Year
of Peace, simultaneous), ``battle`` (one seat at a time; in version 3 it ends with the
declarations of Dogs out, ``declare``), ``dogs`` (after a battle, from the initiator
clockwise), ``loot`` (a looter looks through the discard pile), ``choose`` (variant: the
winner picks the next battle), ``exchange`` and ``final`` (the last battles), ``over``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator import sequential
from adjudicator.base import Order, Pending, State
from adjudicator.havoc import battle, final, turn
from adjudicator.havoc.cards import JOHN, is_dog
from adjudicator.havoc.releases import rule
from adjudicator.havoc.state import Ctx

#: Pending kind -> the order keywords legal for it (for reminders in replies).
FORMS = {
    "recruit": ("RECRUIT", "SIC", "LOOT", "LAY", "HAVOC"),
    "recruiting": ("RECRUIT", "SIC", "LOOT", "LAY"),
    "dogsout": ("DOGS OUT",),
    "havoc": ("HAVOC",),
    "discard": ("DISCARD",),
    "battle": ("JOIN", "STAY", "ADD", "PASS"),
    "dogs": ("SCAVENGE", "LOOT", "KEEP"),
    "choose": ("NEXT",),
    "exchange": ("EXCHANGE",),
    "final": ("FINAL",),
    "loot": ("LOOT",),
}


def _only_final_left(state: State) -> bool:
    return all(battle.battle_card(state, b)["final"] for b in state["battles"])


def settle(ctx: Ctx) -> None:
    """Resolve automatic steps until a seat must decide or the game is over."""
    sequential.settle(ctx, _step)


def _step(ctx: Ctx) -> bool:
    """One automatic step; False when a decision is pending (or the game is over)."""
    s = ctx.s
    phase = s["phase"]
    name = phase["name"]
    if name == "turn":
        return _turn_step(ctx)
    if name == "peace_discard":
        if phase["seats"]:
            return False
        turn.apply_discards(ctx, {})
        return True
    if name == "battle":
        return _battle_step(ctx)
    if name == "dogs":
        if phase["queue"]:
            return False
        battle.finish_battle(ctx)
        return True
    if name == "exchange":
        while phase["queue"] and final.exchange_limit(s, phase["queue"][0]) == 0:
            phase["queue"].pop(0)
        if phase["queue"]:
            return False
        s["phase"] = {"name": "final"}
        return True
    if name in ("loot", "recruiting"):
        return False
    if name == "final":
        if _final_seats(s):
            return False
        final.apply_final(ctx, {})
        return True
    return False


def _turn_step(ctx: Ctx) -> bool:
    s = ctx.s
    seat = s["phase"]["seat"]
    if _only_final_left(s):
        final.start_final(ctx)
        return True
    if s["john"]["where"] == "waiting":
        battle.john_arrives(ctx)  # seed 002: as soon as any player's turn would begin
        return True
    if seat == JOHN:
        turn.john_turn(ctx)
        return True
    if not turn.can_recruit(s) and len(s["hands"][seat]) < 2:
        ctx.emit("TurnSkipped", seat=seat, why="cannot recruit and has fewer than two cards to cry Havoc")
        turn.end_turn(ctx, seat)
        return True
    return False


def _battle_step(ctx: Ctx) -> bool:
    s = ctx.s
    phase = s["phase"]
    if not phase["queue"]:
        if battle.next_round(s):
            return True
        if rule("dogs_out_asked") and battle.to_declare(s):
            return False  # version 3: "A csata végén a játékos kijelentheti" -- asked now
        battle.end_battle(ctx)
        return True
    actor = phase["queue"][0]
    if actor == JOHN:
        battle.apply_battle(ctx, JOHN, {"kind": "pass", "auto": True})  # he always passes
        return True
    auto = battle.auto_action(s, actor)
    if auto is not None:
        battle.apply_battle(ctx, actor, {"kind": auto, "auto": True})
        return True
    return False


def _final_seats(state: State) -> list[str]:
    return [p for p in state["seats"] if state["hands"][p]]


def pending(state: State) -> Pending | None:
    """The decision the game waits for."""
    phase = state["phase"]
    name = phase["name"]
    b = f"b{state['bno']}"
    step = state["counters"]["step"]
    if name == "turn":
        seat = phase["seat"]
        kind = "recruit" if turn.can_recruit(state) else "havoc"
        info = {"must_havoc": kind == "havoc", "peacekeeper": state["peace"]["holder"] == seat}
        if rule("recruit_asked"):
            info["asked"] = True  # version 3: a first part alone is carried out, the rest asked
        return Pending((seat,), f"{b}/recruit/{seat}/{step}", "recruit", False, FORMS[kind], info)
    if name == "peace_discard":
        return Pending(tuple(phase["seats"]), f"{b}/peace/{step}", "discard", True, FORMS["discard"])
    if name == "battle" and not phase["queue"] and phase.get("declare"):
        seat = phase["declare"][0]
        low, high = battle.dogs_out_range(state, seat)
        return Pending((seat,), f"{b}/dogsout/{seat}", "dogsout", False, FORMS["dogsout"],
                       {"battle": phase["battle"], "min": low, "max": high})
    if name == "recruiting":
        seat = phase["seat"]
        return Pending((seat,), f"{b}/recruiting/{seat}/{step}", "recruiting", False, turn.recruiting_forms(state),
                       {"draws": sum(1 for t in phase["took"] if t["how"] == "recruit"),
                        "dogs_spent": turn.dogs_spent(phase["took"])})
    if name == "battle":
        seat = phase["queue"][0]
        return Pending((seat,), f"{b}/battle/round{phase['round']}/{seat}", "battle", False,
                       ("JOIN", "STAY") if phase["round"] == 1 else ("ADD", "PASS"),
                       {"round": phase["round"], "battle": phase["battle"], "must_join": battle.must_join(state, seat)})
    if name == "dogs":
        seat = phase["queue"][0]
        return Pending((seat,), f"{b}/dogs/{seat}", "dogs", False, FORMS["dogs"])
    if name == "choose":
        return Pending((phase["seat"],), f"{b}/choose/{phase['seat']}", "choose", False, FORMS["choose"])
    if name == "loot":
        seat = phase["seat"]
        return Pending((seat,), f"{b}/loot/{seat}/{step}", "loot", False, FORMS["loot"],
                       {"discard_size": len(state["discard"])})
    if name == "exchange":
        seat = phase["queue"][0]
        return Pending((seat,), f"final/exchange/{seat}", "exchange", False, FORMS["exchange"],
                       {"max": final.exchange_limit(state, seat)})
    if name == "final":
        return Pending(tuple(_final_seats(state)), "final/castillon", "final", True, FORMS["final"])
    return None


VALIDATORS = {
    "recruit": turn.validate_turn, "discard": turn.validate_discard, "battle": battle.validate_battle,
    "dogs": battle.validate_dogs, "choose": battle.validate_choose, "exchange": final.validate_exchange,
    "final": final.validate_final, "loot": turn.validate_loot_choice,
    "recruiting": turn.validate_recruiting, "dogsout": battle.validate_declaration,
}


def apply(ctx: Ctx, kind: str, orders: Mapping[str, Sequence[Order]]) -> None:
    """Apply the pending decision's orders to the working state."""
    s = ctx.s
    s["counters"]["step"] += 1
    if kind == "recruit":
        seat, mine = next(iter(orders.items()))
        _apply_turn(ctx, seat, mine)
    elif kind == "recruiting":
        seat, mine = next(iter(orders.items()))
        if turn.apply_recruit(ctx, seat, mine, 0, list(s["phase"]["took"])):
            turn.end_turn(ctx, seat)
    elif kind == "dogsout":
        seat, mine = next(iter(orders.items()))
        battle.declare_dogs(ctx, seat, mine[0])
        s["phase"]["declare"].remove(seat)
    elif kind == "discard":
        turn.apply_discards(ctx, orders)
    elif kind == "battle":
        seat, mine = next(iter(orders.items()))
        for o in mine:
            if o["kind"] == "dogsout":
                battle.declare_dogs(ctx, seat, o)
        battle.apply_battle(ctx, seat, next(o for o in mine if o["kind"] != "dogsout"))
    elif kind == "dogs":
        seat, mine = next(iter(orders.items()))
        battle.apply_dogs(ctx, seat, mine)
    elif kind == "choose":
        seat, mine = next(iter(orders.items()))
        battle.apply_choose(ctx, seat, mine[0])
    elif kind == "exchange":
        seat, mine = next(iter(orders.items()))
        final.apply_exchange(ctx, seat, mine[0])
    elif kind == "final":
        final.apply_final(ctx, orders)
    elif kind == "loot":
        seat, mine = next(iter(orders.items()))
        resumed = s["phase"]["resume"]["kind"]
        if turn.resume_loot(ctx, seat, mine[0]) and resumed == "recruit":
            turn.end_turn(ctx, seat)


def _apply_turn(ctx: Ctx, seat: str, orders: Sequence[Order]) -> None:
    havoc = next((o for o in orders if o["kind"] == "havoc"), None)
    if havoc is not None:
        battle.start_battle(ctx, seat, havoc["cards"])
        for o in orders:
            if o["kind"] == "dogsout":
                battle.declare_dogs(ctx, seat, o)
        return
    if turn.rotate_peace(ctx, seat):
        turn.year_of_peace(ctx, seat, {"seat": seat, "orders": [dict(o) for o in orders]})
        return
    if turn.apply_recruit(ctx, seat, orders):
        turn.end_turn(ctx, seat)


def has_dogs(cards: Sequence[str]) -> bool:
    """True if any Dog of War is among ``cards``."""
    return any(is_dog(c) for c in cards)
