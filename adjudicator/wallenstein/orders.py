"""Validating a seat's orders and reading them into a plan (rules 3.3 and 4.1.3).

Order dicts are those of docs/CONTRACTS.md. Every problem names the order it is about
(``Problem.index``) in words a player understands; set-wide problems have index None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.base import Problem
from adjudicator.wallenstein import court_orders as co
from adjudicator.wallenstein.court import enabled as court_on
from adjudicator.wallenstein.data import ACTIONS, BONUS_TILES, MONEY_CARDS, in_play, neighbours
from adjudicator.wallenstein.releases import RELEASES
from adjudicator.wallenstein.state import held, seat_count

SLOTS = len(ACTIONS)
MISSED = [{"kind": "missed"}]


def is_missed(orders: Sequence[dict[str, Any]]) -> bool:
    """True for the missed-orders policy ``[{"kind": "missed"}]``."""
    return len(orders) == 1 and orders[0].get("kind") == "missed"


def name_problem(i: int, name: Any, state: dict[str, Any]) -> Problem:
    import difflib  # only for a name that is no county (good orders need none)

    names = in_play(seat_count(state))
    close = tuple(difflib.get_close_matches(str(name), names, n=3, cutoff=0.6))
    return Problem(i, f"{name!r} is not a county on this map", close, "name")


def _county(state: dict[str, Any], i: int, name: Any) -> Problem | None:
    return None if isinstance(name, str) and name in state["counties"] else name_problem(i, name, state)


def _armies_ok(spec: Any) -> bool:
    return spec == "ALL" or (isinstance(spec, int) and not isinstance(spec, bool) and spec >= 1)


def _check_action(state: dict[str, Any], seat: str, i: int, o: dict[str, Any]) -> list[Problem]:
    action, county = o.get("action"), o.get("county")
    if not isinstance(action, str) or action not in ACTIONS:
        return [Problem(i, f"unknown action {action!r} (actions: {', '.join(ACTIONS)})", (), "name")]
    if o.get("card") == "tower":
        return co.check_tower_action(state, i, o)
    bad = _county(state, i, county)
    if bad:
        return [bad]
    if state["counties"][county]["owner"] != seat:
        return [Problem(i, f"{county} is not yours: you can only act in your own counties")]
    if "tile" in o:
        return _check_tile(i, action, o)
    to = o.get("to")
    if action in ("attacka", "attackb") and to is None:
        return [Problem(i, f"{action.upper()} needs a target: {action.upper()} {county} TO <county> WITH <n|ALL>")]
    if to is None:
        return []
    if action not in ("recruit1", "attacka", "attackb"):
        return [Problem(i, f"{action.upper()} takes no target county")]
    bad = _county(state, i, to)
    if bad:
        return [bad]
    problems = []
    if to not in neighbours(county, seat_count(state)):
        problems.append(Problem(i, f"{to} is not adjacent to {county}"))
    if action == "recruit1" and state["counties"][to]["owner"] != seat:
        problems.append(Problem(i, f"RECRUIT1 can only move into your own county, and {to} is not yours"))
    if not _armies_ok(o.get("armies", "ALL") if action == "recruit1" else o.get("armies")):
        problems.append(Problem(i, "the number of armies must be ALL or a positive whole number"))
    if any(k in o for k in ("else", "leave", "at_least")) and not RELEASES.rule("manoeuvre_choices"):
        problems.append(Problem(i, RELEASES.not_yet("manoeuvre_choices", "ELSE, LEAVE and IF")))
    elif action in ("attacka", "attackb"):
        problems += _check_choices(state, i, county, o)
    elif any(k in o for k in ("else", "leave", "at_least")):
        problems.append(Problem(i, "ELSE, LEAVE and IF belong to ATTACKA and ATTACKB"))
    return problems


def _check_tile(i: int, action: str, o: dict[str, Any]) -> list[Problem]:
    """``RECRUIT5 <county> NO TILE`` / ``WITH TILE``: whether the recruit tile's 6 are placed."""
    if not RELEASES.rule("recruit_tile_choice"):
        return [Problem(i, RELEASES.not_yet("recruit_tile_choice", "NO TILE and WITH TILE"))]
    if action != "recruit5" or not isinstance(o["tile"], bool) or "to" in o:
        return [Problem(i, "NO TILE and WITH TILE belong to RECRUIT5 (the recruit tile places 6 instead of 5)")]
    return []


def _count_ok(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _check_choices(state: dict[str, Any], i: int, county: str, o: dict[str, Any]) -> list[Problem]:
    """A manoeuvre's table decisions: LEAVE n, IF n and ELSE alternatives (another target)."""
    problems = []
    alts = o.get("else", [])
    if not isinstance(alts, list) or not all(isinstance(a, dict) for a in alts):
        return [Problem(i, "ELSE alternatives must be a list of {to, armies}")]
    for n, alt in enumerate([o, *alts]):
        where = "" if n == 0 else f" (alternative {n})"
        if "leave" in alt and not _count_ok(alt["leave"], 1):
            problems.append(Problem(i, f"LEAVE needs a whole number of at least 1{where}: one army always stays"))
        if "at_least" in alt and not _count_ok(alt["at_least"], 2):
            problems.append(Problem(i, f"IF needs a whole number of at least 2{where}: a manoeuvre needs 2 armies"))
        if n == 0:
            continue
        bad = _county(state, i, alt.get("to"))
        if bad:
            problems.append(bad)
            continue
        if alt["to"] not in neighbours(county, seat_count(state)):
            problems.append(Problem(i, f"{alt['to']} is not adjacent to {county}{where}"))
        if not _armies_ok(alt.get("armies")):
            problems.append(Problem(i, f"the number of armies must be ALL or a positive whole number{where}"))
    return problems


def _check_famine(state: dict[str, Any], seat: str, i: int, o: dict[str, Any], before: int | None) -> list[Problem]:
    """``FAMINE <counties>``: the order famine revolts are fought in (rule 4.2.2)."""
    if before is not None:
        return [Problem(i, "only one FAMINE order per season")]
    names = o.get("counties")
    if not isinstance(names, list) or not names:
        return [Problem(i, "FAMINE lists your counties in the order their famine revolts are fought")]
    problems = []
    for name in names:
        bad = _county(state, i, name)
        if bad:
            problems.append(bad)
        elif state["counties"][name]["owner"] != seat:
            problems.append(Problem(i, f"{name} is not yours"))
    if len(set(names)) != len(names):
        problems.append(Problem(i, "a county is listed twice in FAMINE"))
    return problems


def _check_bid(state: dict[str, Any], seat: str, i: int, o: dict[str, Any]) -> list[Problem]:
    card = o.get("card")
    if card == "taler":
        value = o.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or value not in MONEY_CARDS:
            return [Problem(i, f"your money cards are {', '.join(map(str, MONEY_CARDS))}; there is no {value!r} card")]
        if state["players"][seat]["taler"] < value:
            return [Problem(i, f"you cannot bid {value}: you have only {state['players'][seat]['taler']} Taler")]
        return []
    if card == "county":
        bad = _county(state, i, o.get("county"))
        if bad:
            return [bad]
        if state["counties"][o["county"]]["owner"] != seat:
            return [Problem(i, f"you cannot bid with {o['county']}: its card is not in your hand")]
        return []
    if card == "none":
        return []
    if card == "tower":  # rule 9.3 note: counts as a 0 money card
        return [] if court_on(state) else [Problem(i, f"BID TOWER is {co.ONLY}")]
    return [Problem(i, f"unknown bid card {card!r}", (), "syntax")]


def validate_plan(state: dict[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> list[Problem]:
    """Every problem with a season plan (rule 4.1.3)."""
    if is_missed(orders):
        return []
    problems: list[Problem] = []
    used: dict[str, int] = {}
    actions: dict[str, int] = {}
    bid_at = bonus_at = favour_at = famine_at = None
    court_slots: dict[int, int] = {}
    for i, o in enumerate(orders):
        kind = o.get("kind")
        if kind == "action":
            found = _check_action(state, seat, i, o)
            problems += found
            action = o.get("action") if isinstance(o.get("action"), str) else None
            if action in actions:
                problems.append(Problem(i, f"{action.upper()} is planned twice (one card per action space)"))
            if action:
                actions.setdefault(action, i)
            if not found and o.get("card") != "tower":
                if o["county"] in used:
                    problems.append(Problem(i, f"the card of {o['county']} is already used by order {used[o['county']] + 1}"))
                used.setdefault(o["county"], i)
        elif kind == "bid":
            if bid_at is not None:
                problems.append(Problem(i, "only one bid per season"))
            bid_at = i if bid_at is None else bid_at
            problems += _check_bid(state, seat, i, o)
        elif kind == "bonus":
            problems += _check_bonus(i, o, bonus_at)
            bonus_at = i
        elif kind == "court":
            found = co.check_court(state, seat, i, o, court_slots)
            problems += found
            if not found and o["card"] == "county":
                if o["county"] in used:
                    problems.append(Problem(i, f"the card of {o['county']} is already used by order {used[o['county']] + 1}"))
                used.setdefault(o["county"], i)
        elif kind == "favour":
            problems += co.check_favour(state, seat, i, o, favour_at)
            favour_at = i if favour_at is None else favour_at
        elif kind == "famine" and not RELEASES.rule("famine_order"):
            problems.append(Problem(i, RELEASES.not_yet("famine_order", "The FAMINE order")))
        elif kind == "famine":
            problems += _check_famine(state, seat, i, o, famine_at)
            famine_at = i if famine_at is None else famine_at
        else:
            extra = ", COURT and FAVOUR" if court_on(state) else ""
            famine = ", FAMINE" if RELEASES.rule("famine_order") else ""
            problems.append(Problem(i, f"{kind!r} is not an order for a season plan (plan actions, BID, BONUS{famine}{extra})", (), "syntax"))
    if problems:
        return problems
    return co.count_towers(orders) or _check_cards(state, seat, orders, used, bid_at)


def _check_bonus(i: int, o: dict[str, Any], before: int | None) -> list[Problem]:
    order = o.get("order")
    if before is not None:
        return [Problem(i, "only one BONUS preference list per season")]
    if not isinstance(order, list) or any(t not in BONUS_TILES for t in order) or len(set(order)) != len(order):
        return [Problem(i, f"BONUS lists distinct tiles among: {' '.join(BONUS_TILES)}")]
    return []


def _check_cards(state: dict[str, Any], seat: str, orders: Sequence[dict[str, Any]], used: dict[str, int],
                 bid_at: int | None) -> list[Problem]:
    """Card counts: fill every action space you can; the bid card is one not placed elsewhere."""
    cards = held(state, seat)
    bid = orders[bid_at] if bid_at is not None else {"card": "none"}
    problems: list[Problem] = []
    if bid["card"] == "county" and bid["county"] in used:
        problems.append(Problem(bid_at, f"the card of {bid['county']} is already on an action space; "
                                        "bid with another card"))
    # rule 9.2: with the court, 3 more spaces (the court's) and 3 more cards (the tower cards)
    court = court_on(state)
    slots = SLOTS + (len(co.slots()) if court else 0)
    fillers = len(MONEY_CARDS) + (co.tower_cards() if court else 0)
    where = f"the {SLOTS} action spaces" + (f" and the {len(co.slots())} court spaces" if court else "")
    total = cards + fillers
    bid_card = bid["card"]
    if bid_card != "none" and total <= slots:
        problems.append(Problem(bid_at, f"you hold only {total} cards and all must go on {where}: bid NONE"))
        bid_card = "none"  # count the actions as if the bid were fixed, so every problem is listed at once
    elif bid_card == "none" and total > slots:
        problems.append(Problem(bid_at, "you have a card left for the bid space: bid Taler (BID 0-4) "
                                        "or a county (BID COUNTY <name>)"))
        bid_card = "taler"
    money_left = fillers - (1 if bid_card in ("taler", "tower") else 0)
    spare = cards - (1 if bid_card == "county" else 0)
    need = min(spare, slots - money_left)
    if len(used) < need:
        kinds = "money and tower cards" if court else "money cards"
        problems.append(Problem(None, f"too few actions planned: with {cards} county cards and {money_left} "
                                      f"{kinds} for {where} you must plan at least {need} actions "
                                      f"(you planned {len(used)})"))
    return problems


def read_plan(orders: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A validated order set as ``{actions: {action: order}, bid, bonus, missed, court, favour}``."""
    if is_missed(orders):
        return {"actions": {}, "bid": {"card": "none"}, "bonus": [], "famine": [], "missed": True, **co.read([])}
    plan: dict[str, Any] = {"actions": {}, "bid": {"card": "none"}, "bonus": [], "famine": [], "missed": False,
                            **co.read(orders)}
    for o in orders:
        if o["kind"] == "action" and o.get("card") == "tower":
            continue  # a tower card on an action space: like a money card, no action (rule 9.3 note)
        if o["kind"] == "action":
            plan["actions"][o["action"]] = o
        elif o["kind"] == "bid":
            plan["bid"] = o
        elif o["kind"] == "bonus":
            plan["bonus"] = list(o["order"])
        elif o["kind"] == "famine":
            plan["famine"] = list(o["counties"])
    return plan
