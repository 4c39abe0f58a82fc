"""Battles: crying Havoc, joining or staying out, further rounds, placing, the Dogs after
the battle, the winner's deal and the new Peacekeeper (seed 002, "Havoc!"); John of
Gaunt's Chevauchées (seed 002, "John of Gaunt")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.base import Order, Problem, State
from adjudicator.havoc.cards import JOHN, describe, is_dog, parse_card
from adjudicator.havoc.releases import rule
from adjudicator.havoc.hands import Strength, battle_strength, describe_strength, evaluate
from adjudicator.havoc.state import (Ctx, clockwise_from, draw, fits_battle, john_leaves, left_of,
                                     resolve_refs, take_from_hand, to_hand)
from adjudicator.havoc.tables import SETUP
from adjudicator.havoc.turn import apply_dogs, ask_loot, deal_one, loot, validate_havoc  # noqa: F401 - apply_dogs: flow's

JOHN_CARDS = [(SETUP["john_value"]["value"], None)] * 3  # seed 002: as if he laid three 9s


def battle_card(state: State, battle_id: str) -> dict[str, Any]:
    """The battle table entry of ``battle_id`` (ordinary battles and Chevauchées sides)."""
    table = state["table_data"]
    return next(b for b in [*table["battles"], *table["chevauchees"]] if b["id"] == battle_id)


def start_battle(ctx: Ctx, initiator: str, refs: Sequence[str]) -> None:
    """A seat cries Havoc: the next battle, the Havoc side of the card, at least two cards."""
    s = ctx.s
    john_leaves(ctx, "another battle begins")  # seed 002: he leaves as soon as anyone else starts a battle
    battle = s["battles"].pop(0)
    s["peace"].update(holder=initiator, side="havoc", fresh=False)
    cards, _ = resolve_refs(s["hands"][initiator], refs)
    _lay(ctx, initiator, cards or [])
    others = clockwise_from(s, initiator)[1:]
    s["phase"] = {"name": "battle", "battle": battle, "initiator": initiator, "gaunt": False, "round": 1,
                  "order": [initiator, *others], "queue": others, "joined": [initiator], "out": [], "passed": []}
    ctx.emit("Havoc", initiator=initiator, battle=battle, cards=list(cards or []))


def john_arrives(ctx: Ctx) -> None:
    """John of Gaunt cries Havoc at the Chevauchées, which replaces the next battle (or is
    added before it, option gaunt=extra); its side by the parity of the deck's top card."""
    s = ctx.s
    first = left_of(s, s["john"]["left_of"])  # the seat to "his" left: the drawer's left neighbour
    s["john"]["where"] = "active"
    if s["options"]["gaunt"] == "extra":
        aside = None
    else:
        aside = s["battles"].pop(0)
        s["removed"].append({"id": aside, "why": "set aside for the Chevauchées"})
    turned = draw(ctx, None, "chevauchees side")
    if turned is not None:
        s["discard"].append(turned)
    odd = turned is not None and parse_card(turned)[0] % 2 == 1
    side = s["table_data"]["chevauchees"][0 if odd else 1]["id"]
    s["peace"].update(holder=JOHN, side="havoc", fresh=False)
    others = clockwise_from(s, first)
    s["phase"] = {"name": "battle", "battle": side, "initiator": JOHN, "gaunt": True, "round": 1,
                  "order": [JOHN, *others], "queue": others, "joined": [JOHN], "out": [], "passed": []}
    ctx.emit("GauntHavoc", battle=side, turned=turned, set_aside=aside, first=first)


def _lay(ctx: Ctx, seat: str, cards: Sequence[str]) -> None:
    for card in cards:
        take_from_hand(ctx.s, seat, card)
        ctx.s["field"].setdefault(seat, []).append(card)


def must_join(state: State, seat: str) -> bool:
    """John of Gaunt's battle: everyone with two or more cards must take part."""
    phase = state["phase"]
    return phase["gaunt"] and phase["round"] == 1 and len(state["hands"][seat]) >= 2


def auto_action(state: State, seat: str) -> str | None:
    """``stay``/``pass`` when ``seat`` has no choice in the battle now, else None."""
    phase = state["phase"]
    hand = state["hands"][seat]
    if phase["round"] == 1:
        return "stay" if len(hand) < 2 else None
    laid = state["field"].get(seat, [])
    if not any(fits_battle([*laid, c]) for c in hand):
        return "pass"
    return None


DOGS_OUT = (0, 1, 2, "best")


def validate_battle(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """Round 1: JOIN (2+ cards) or STAY; later rounds: ADD (1+ cards) or PASS; with JOIN,
    ADD or PASS one ``DOGS OUT`` declaration may come too."""
    first = state["phase"]["round"] == 1
    want = ("join", "stay") if first else ("add", "pass")
    declared = [(i, o) for i, o in enumerate(orders) if o.get("kind") == "dogsout"]
    rest = [o for o in orders if o.get("kind") != "dogsout"]
    if len(rest) != 1 or rest[0].get("kind") not in want or len(declared) > 1:
        return [Problem(None, f"send one {want[0].upper()} <cards> or {want[1].upper()} (and at most one DOGS OUT)")]
    if declared:
        i, o = declared[0]
        if o.get("count") not in DOGS_OUT:
            return [Problem(i, "DOGS OUT takes 0, 1, 2 or BEST")]
        if rest[0]["kind"] == "stay":
            return [Problem(i, "DOGS OUT is for a seat in the battle: you STAY out")]
    order = rest[0]
    if order["kind"] == "stay" and must_join(state, seat):
        return [Problem(0, "John of Gaunt's battle: with two or more cards you must join (seed 002)")]
    if order["kind"] in ("join", "add"):
        return validate_havoc(state, seat, order, 0, minimum=2 if first else 1)
    return []


def dogs_out_range(state: State, seat: str) -> tuple[int, int]:
    """How many of ``seat``'s laid Dogs of War are out of the battle at least (those beyond 6
    cards: "automatikusan nem vesznek részt a csatában") and at most (2: "1 vagy 2")."""
    laid = state["field"].get(seat, [])
    dogs = sum(1 for c in laid if is_dog(c))
    return max(0, len(laid) - 6), min(2, dogs)


def to_declare(state: State) -> bool:
    """Version 3, at the end of a battle: the seats still to declare their Dogs out (from the
    initiator clockwise, as the Dogs are activated after it): every seat in the battle whose
    laid Dogs leave it a choice and that declared nothing with its orders. True when one is."""
    phase = state["phase"]
    if "declare" not in phase:
        declared = phase.get("dogs_out", {})
        phase["declare"] = [p for p in phase["order"] if p != JOHN and p in phase["joined"] and p not in declared
                            and dogs_out_range(state, p)[0] < dogs_out_range(state, p)[1]]
    return bool(phase["declare"])


def validate_declaration(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """The end of the battle (version 3): one ``DOGS OUT n`` (``n`` up to the Dogs laid, or
    ``BEST``: the choice that gives the strongest combination)."""
    if len(orders) != 1 or orders[0].get("kind") != "dogsout":
        return [Problem(None, "send DOGS OUT 0, 1 or 2: how many of your laid Dogs of War stay out of the battle")]
    low, high = dogs_out_range(state, seat)
    count = orders[0].get("count")
    if count not in DOGS_OUT:
        return [Problem(0, "DOGS OUT takes 0, 1, 2 or BEST")]
    if count != "best" and int(count) > high:
        return [Problem(0, f"you may declare at most {high} of your laid Dogs of War out (DOGS OUT {low}-{high})")]
    return []


def declare_dogs(ctx: Ctx, seat: str, order: Order) -> None:
    """Seed 002: "a játékos kijelentheti" -- the player declares which of its laid Dogs of
    War stay out of the battle (``count`` 0-2, or ``best``: the strongest; version 2's
    default, while in version 3 undeclared Dogs fight)."""
    ctx.s["phase"].setdefault("dogs_out", {})[seat] = order["count"]
    ctx.emit("DogsOut", seat=seat, count=order["count"])


def apply_battle(ctx: Ctx, seat: str, order: Order) -> None:
    """One seat's battle decision."""
    s = ctx.s
    phase = s["phase"]
    phase["queue"].remove(seat)
    kind = order["kind"]
    if kind in ("join", "add"):
        cards, _ = resolve_refs(s["hands"][seat], order["cards"])
        _lay(ctx, seat, cards or [])
        if kind == "join":
            phase["joined"].append(seat)
        ctx.emit("Join" if kind == "join" else "Add", seat=seat, cards=list(cards or []), round=phase["round"])
    elif kind == "stay":
        phase["out"].append(seat)  # seed 002: draws one card and is out of the fighting
        ctx.emit("StayOut", seat=seat, round=phase["round"], auto=bool(order.get("auto")))
        deal_one(ctx, seat, "stay out")
    else:
        phase["passed"].append(seat)
        ctx.emit("Pass", seat=seat, round=phase["round"], auto=bool(order.get("auto")))


def next_round(state: State) -> bool:
    """Start the next round of laying; False when everyone has passed."""
    phase = state["phase"]
    active = [p for p in phase["order"] if p in phase["joined"] and p not in phase["passed"]]
    if not active:
        return False
    phase["round"] += 1
    phase["queue"] = active
    return True


def _strengths(state: State) -> dict[str, tuple[Strength, list[str]]]:
    phase = state["phase"]
    out = {}
    for p in phase["joined"]:
        # version 3: undeclared Dogs fight ("with neither, the Dogs fight"); before: the strongest
        declared = phase.get("dogs_out", {}).get(p, 0 if rule("dogs_out_asked") else "best")
        out[p] = (evaluate(JOHN_CARDS), []) if p == JOHN else battle_strength(state["field"].get(p, []), declared)
    return out


def points_for(state: State, card: dict[str, Any]) -> list[int]:
    """Points per place. Option small=on (seed 002, 2-3 players): the 2nd-place points are
    ignored and the places below move up (3rd's points go to 2nd; at Castillon 11-5-3-1-0).
    Interpretation: not on the Chevauchées, whose own irregular scoring (seed 002, John of
    Gaunt) would otherwise leave "Tours to Bordeaux" (only 2nd scores) worth nothing."""
    points = list(card["points"])
    if state["options"]["small"] != "on":
        return points
    if not rule("small_variant_shift"):  # version 1: 1st and 3rd places only, every battle
        return [points[0], points[2] if len(points) > 2 else 0]
    chevauchees = {c["id"] for c in state["table_data"]["chevauchees"]}
    if card["id"] not in chevauchees:
        points = points[:1] + points[2:]
        # GM option small_third=none (version 3): only the 3rd-place points pass to 2nd
        # ("Ahol a harmadik helyért is járna pont, ott azt kapja a második helyezett"), the
        # places below score nothing (Castillon 11-5-0-0-0 instead of 11-5-3-1-0)
        if state["options"].get("small_third") == "none":
            points = points[:2]
    return points


def end_battle(ctx: Ctx) -> None:
    """Place the participants, award points, and go on to the Dogs."""
    s = ctx.s
    phase = s["phase"]
    card = battle_card(s, phase["battle"])
    found = _strengths(s)
    order = phase["order"]
    # Equal combinations (no rule in seed 002 for ordinary battles): fewer cards left in
    # hand first (the final battle's rule), then the seat nearer the initiator.
    ranked = sorted(found, key=lambda p: (found[p][0], -_hand_size(s, p), -order.index(p)), reverse=True)
    points = points_for(s, card)
    results = []
    for place, p in enumerate(ranked, start=1):
        gain = points[place - 1] if place <= len(points) else 0
        if p == JOHN:
            s["john"]["points"] += gain
        else:
            s["points"][p] += gain
        laid = list(s["field"].get(p, [])) if p != JOHN else []
        results.append({"seat": p, "place": place, "points": gain, "combination": describe_strength(found[p][0]),
                        "laid": [describe(c) for c in laid], "dogs_out": len(found[p][1])})
    winner = ranked[0]
    (s["john"]["won"] if winner == JOHN else s["won"][winner]).append(card["id"])
    phase.update(name="dogs", winner=winner, queue=[p for p in order if p != JOHN and
                                                     any(is_dog(c) for c in s["field"].get(p, []))])
    s["last_battle"] = {"battle": card["id"], "name": card["name"], "initiator": phase["initiator"],
                        "winner": winner, "out": list(phase["out"]), "results": results}
    ctx.emit("BattleResult", battle=card["id"], name=card["name"], winner=winner, results=results,
             laid={p: list(c) for p, c in s["field"].items()})


def _hand_size(state: State, seat: str) -> int:
    return 0 if seat == JOHN else len(state["hands"][seat])


def dog_targets(state: State) -> list[str]:
    """Scavenging: any non-Dog laid face up, or a recruit (seed 002)."""
    laid = [c for cards in state["field"].values() for c in cards]
    return [c for c in [*laid, *state["recruits"]] if not is_dog(c)]


def validate_dogs(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """At most two of the seat's laid Dogs: SCAVENGE <card> (1 Dog) or LOOT (2 Dogs), or KEEP."""
    kinds = [o.get("kind") for o in orders]
    if kinds == ["keep"] or not orders:
        return []
    if any(k not in ("scavenge", "loot") for k in kinds):
        return [Problem(None, "send SCAVENGE <card>, LOOT or KEEP")]
    own = sum(1 for c in state["field"].get(seat, []) if is_dog(c))
    need = sum(1 if k == "scavenge" else 2 for k in kinds)
    if need > min(2, own):
        return [Problem(None, f"you may activate at most {min(2, own)} of your laid Dogs of War (seed 002)")]
    problems, seen = [], []
    targets = dog_targets(state)
    for i, o in enumerate(orders):
        if o["kind"] == "scavenge":
            if o.get("card") not in targets or o.get("card") in seen:
                problems.append(Problem(i, f"{o.get('card')} is not a non-Dog on the table or among the recruits",
                                        tuple(targets[:3]), "name"))
            seen.append(o.get("card"))
        elif not any(not is_dog(c) for c in state["discard"]):
            problems.append(Problem(i, "the discard pile holds no card to loot"))
    return problems


def finish_battle(ctx: Ctx) -> None:
    """Discard the battlefield, refill the recruits to 3, the winner's deal, the new
    Peacekeeper (seed 002, after the battle)."""
    s = ctx.s
    phase = s["phase"]
    for p in [*phase["order"]]:
        s["discard"].extend(s["field"].pop(p, []))
    s["field"] = {}
    while len(s["recruits"]) < SETUP["recruits"]["value"]:
        got = draw(ctx, None, "recruits")
        if got is None:
            break
        if got != "gaunt":
            s["recruits"].append(got)
    ctx.emit("Recruits", cards=list(s["recruits"]))
    _winner_deal(ctx, phase)
    winner = phase["winner"]
    if phase["gaunt"] and winner != JOHN:
        john_leaves(ctx, "he did not win the Chevauchées")
    s["peace"] = {**s["peace"], "holder": winner, "side": "peace", "position": 1, "fresh": True}
    ctx.emit("Peacekeeper", seat=winner)
    s["bno"] += 1
    remaining = [b for b in s["battles"] if not battle_card(s, b)["final"]]
    if s["options"]["order"] == "winner" and winner != JOHN and len(remaining) > 1:
        s["phase"] = {"name": "choose", "seat": winner}
    else:
        s["phase"] = {"name": "turn", "seat": winner}


def _winner_deal(ctx: Ctx, phase: dict[str, Any]) -> None:
    """The battle card's instruction: cards to everyone and/or to the initiator."""
    s = ctx.s
    deal = battle_card(s, phase["battle"])["deal"]
    winner = phase["winner"]
    first = left_of(s, winner)
    first = left_of(s, first) if first == JOHN else first
    for _ in range(deal["all"]):
        for seat in clockwise_from(s, first):
            deal_one(ctx, seat, "battle card")
    if phase["initiator"] != JOHN:
        for _ in range(deal["initiator"]):
            deal_one(ctx, phase["initiator"], "battle card (initiator)")


def validate_choose(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """Variant: the winner names the next battle (Castillon stays last)."""
    options = [b for b in state["battles"] if not battle_card(state, b)["final"]]
    if len(orders) != 1 or orders[0].get("kind") != "next" or orders[0].get("battle") not in options:
        names = tuple(battle_card(state, b)["name"] for b in options)
        return [Problem(0 if orders else None, "send NEXT <battle> naming a remaining battle", names, "name")]
    return []


def apply_choose(ctx: Ctx, seat: str, order: Order) -> None:
    """Move the chosen battle to the front of the row."""
    s = ctx.s
    s["battles"].remove(order["battle"])
    s["battles"].insert(0, order["battle"])
    ctx.emit("NextBattle", seat=seat, battle=order["battle"])
    s["phase"] = {"name": "turn", "seat": seat}
