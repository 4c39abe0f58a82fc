"""The round as a state machine: what is pending, applying a decision, and resolving every
phase that needs none (seed 004, the 16 phases).

``state["phase"]`` names where the round stands; ``state["q"]`` holds the phase's queue:
``rotation`` phases (setup estates, buying, recruitment, campaigns) go round the table
from the start player until everyone has passed; ``left`` phases (the two special action
turns, the counterattack) work through a list of seats.
"""

from __future__ import annotations

from typing import Any

from adjudicator import sequential
from adjudicator.base import GameError, Order, Pending, Problem
from adjudicator.gods_playground import aftermath, phases
from adjudicator.gods_playground.board import ENEMIES, PROVINCES
from adjudicator.gods_playground.decisions import (
    APPLY, PROBLEMS, counter_targets, fill_cubes, problem_bid, problem_cubes, problem_first, problem_nobles,
    tiles_after)
from adjudicator.gods_playground.releases import rule
from adjudicator.gods_playground.state import ROUNDS, Ctx, cube_supply, turn_order

State = dict[str, Any]
SIMULTANEOUS = ("nobles", "bid")
ALT_KINDS = ("estate", "buy", "action", "recruit", "campaign", "counter")
KINDS = (*SIMULTANEOUS, "cubes", *ALT_KINDS)
FORMS = {"estate": ("ESTATE",), "nobles": ("NOBLES",), "cubes": ("CUBES",), "bid": ("BID",),
         "buy": ("BUY", "PASS"), "action": ("ACTION", "PASS"), "recruit": ("RECRUIT", "PASS"),
         "campaign": ("CAMPAIGN", "PASS"), "counter": ("COUNTER", "PASS")}
ROTATION = ("estate", "buy", "recruit", "campaign")


def rotation(order: list[str]) -> dict[str, Any]:
    """A queue going round ``order`` until every seat has passed."""
    return {"order": order, "out": [], "i": 0}


def current(s: State) -> str | None:
    """The seat whose sequential decision is pending."""
    q = s["q"]
    if "left" in q:
        return q["left"][0] if q["left"] else None
    if len(q["out"]) >= len(q["order"]):
        return None
    return q["order"][q["i"]]


def _next(q: dict[str, Any], passed: bool) -> None:
    if "left" in q:
        if passed or q.get("once"):
            q["left"].pop(0)
        return
    seat = q["order"][q["i"]]
    if passed:
        q["out"].append(seat)
    if len(q["out"]) >= len(q["order"]):
        return
    n = len(q["order"])
    for k in range(1, n + 1):
        j = (q["i"] + k) % n
        if q["order"][j] not in q["out"]:
            q["i"] = j
            return


def legal_alts(s: State, seat: str, kind: str) -> list[dict[str, Any]]:
    """Legal alternatives (besides passing) a seat has now; used to skip seats that can
    only pass, and by the bots. Recruitment lists one small buy per province."""
    check = PROBLEMS.get(kind) or _problem_estate
    return [c for c in _candidates(s, seat, kind) if check(s, seat, c) is None]


def has_legal(s: State, seat: str, kind: str) -> bool:
    """True when the seat has any legal alternative besides passing (stops at the first)."""
    check = PROBLEMS.get(kind) or _problem_estate
    return any(check(s, seat, c) is None for c in _candidates(s, seat, kind))


def _candidates(s: State, seat: str, kind: str) -> list[dict[str, Any]]:
    cands: list[dict[str, Any]] = []
    if kind in ("estate", "buy"):
        cands = [{"province": p} for p in PROVINCES]
    elif kind == "recruit":
        cands = [{"province": p, k: 1} for p in PROVINCES for k in ("inf", "cav", "can")]
        cands.append({"province": "ukraine", "cossack": 1})
    elif kind == "campaign":
        cands = [{"enemy": e, "royal": r} for e in ENEMIES for r in (False, True)]
    elif kind == "counter":
        cands = [{"target": t} for t in counter_targets(s)]
    elif kind == "action":
        cands = _action_candidates(s, seat)
    return cands


def _action_candidates(s: State, seat: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"action": "danzig"}]
    mine = [p for p in PROVINCES if s["prov"][p]["nobles"][seat]]
    for p in PROVINCES:
        out += [{"action": a, "province": p} for a in ("steward", "veto", "arms", "town")]
    out += [{"action": "diplomacy", "enemy": e} for e in ENEMIES]
    out += [{"action": "move", "moves": [[a, b]]} for a in mine[:1] for b in PROVINCES if b != a]
    out += [{"action": "jesuits", "provinces": [p]} for p in mine] + [{"action": "jesuits", "provinces": mine}]
    return out


def _problem_estate(s: State, seat: str, alt: dict[str, Any]) -> str | None:
    """Setup: a disc on the least valuable empty estate of a province."""
    p = alt.get("province")
    if p not in PROVINCES:
        return "name a province"
    return None if any(e["owner"] is None for e in s["prov"][p]["estates"]) else f"no empty estate in {p}"


def _apply_estate(ctx: Ctx, seat: str, alt: dict[str, Any]) -> None:
    est = next(e for e in ctx.s["prov"][alt["province"]]["estates"] if e["owner"] is None)
    est["owner"] = seat
    ctx.emit("StartingEstate", seat=seat, province=alt["province"], value=est["value"])


def settle(ctx: Ctx) -> None:
    """Resolve automatic phases until a seat must decide or the game is over."""
    sequential.settle(ctx, _step)


def _step(ctx: Ctx) -> bool:
    s = ctx.s
    ph = s["phase"]
    if ph == "over":
        return False
    if ph in AUTO:
        AUTO[ph](ctx)
        return True
    if ph in SIMULTANEOUS:
        return False
    seat = current(s)
    if seat is None:
        _after(ctx, ph)
        return True
    if ph == "cubes" and cube_supply(s, seat) == 0:
        ctx.emit("FewerCubes", seat=seat, place={})  # no cube left: nothing to decide
        _next(s["q"], passed=True)
        return True
    if ph in ("estate", "cubes", "action"):
        return False
    if not has_legal(s, seat, ph):
        ctx.emit("Passed", seat=seat, phase=ph, auto=True)
        _next(s["q"], passed=True)
        return True
    return False


def _go(s: State, phase: str, q: dict[str, Any] | None = None) -> None:
    s["phase"] = phase
    s["q"] = q or {}


def _income(ctx: Ctx) -> None:
    phases.influence_at_round_start(ctx)  # the start of the round (rules version 3, reading habsburg_influence)
    phases.income(ctx)
    _go(ctx.s, "nobles")


def _reveal(ctx: Ctx) -> None:
    short = phases.reveal_nobles(ctx)
    if short:
        _go(ctx.s, "cubes", {"left": short, "once": True})
    else:
        _go(ctx.s, "king")


def _king(ctx: Ctx) -> None:
    tied = phases.elect_king(ctx)
    if tied:
        _go(ctx.s, "bid", {"seats": tied})
    else:
        _go(ctx.s, "royal_army")


def _royal(ctx: Ctx) -> None:
    phases.royal_army(ctx)
    phases.events(ctx)
    phases.elections(ctx)
    _go(ctx.s, "buy", rotation(turn_order(ctx.s)))


def _invasions(ctx: Ctx) -> None:
    phases.invasion_dice(ctx)
    phases.invasions(ctx)
    q = {"left": turn_order(ctx.s), "free": ctx.s["start"]}
    _go(ctx.s, "counter", q)


def _end(ctx: Ctx) -> None:
    aftermath.raids(ctx)
    aftermath.estates(ctx)
    aftermath.victory_points(ctx)
    aftermath.end_of_round(ctx)
    if ctx.s["round"] >= ROUNDS:
        aftermath.end_of_game(ctx)
        return
    ctx.s["round"] += 1
    _go(ctx.s, "income")


AUTO = {"income": _income, "reveal": _reveal, "king": _king, "royal_army": _royal,
        "invasions": _invasions, "end": _end}


def _after(ctx: Ctx, ph: str) -> None:
    """A sequential phase is over: on to the next."""
    s = ctx.s
    order = turn_order(s)
    if ph == "estate":
        _go(s, "income")
    elif ph == "cubes":
        ctx.emit("NobleCubesPlaced")
        _go(s, "king")
    elif ph == "buy":
        _go(s, "action", {"left": order + order, "once": True})
    elif ph == "action":
        _go(s, "recruit", rotation(order))
    elif ph == "recruit":
        phases.cossacks_to_tatars(ctx)
        _go(s, "campaign", rotation(order))
    elif ph == "campaign":
        _go(s, "invasions")
    elif ph == "counter":
        _go(s, "end")


def pending(s: State) -> Pending | None:
    """The decision the game waits for."""
    ph = s["phase"]
    if ph == "over":
        return None
    info: dict[str, Any] = {"round": s["round"], "phase": ph}
    if ph == "nobles":
        return Pending(tuple(s["seats"]), f"r{s['round']}/nobles", "nobles", True, FORMS["nobles"], info)
    if ph == "bid":
        if "again" in s["q"]:  # a new bid after a tie (public: the bids were revealed)
            info.update(again=s["q"]["again"], tied_at=s["q"]["tied_at"])
        return Pending(tuple(s["q"]["seats"]), f"r{s['round']}/bid/{s['step']}", "bid", True, FORMS["bid"], info)
    seat = current(s)
    if seat is None:
        return None
    why = plan_failure(s, seat, ph)
    if why:
        info["plan_failed"] = why  # one seat decides: only that seat is told (and sees it)
    if ph == "cubes":
        info["cubes"] = cube_supply(s, seat)
    if ph == "counter":
        info["free_attack"] = s["q"].get("free") == seat
    if ph == "action":
        info["turn"] = 1 if len(s["q"]["left"]) > len(s["seats"]) else 2
    if ph == "recruit" and rule("recruit_one_tile"):
        info["one_tile"] = True  # Phase 9: one army tile a turn (rules version 3)
    return Pending((seat,), f"r{s['round']}/{ph}/{s['step']}/{seat}", ph, False, FORMS[ph], info)


def plan_failure(s: State, seat: str, kind: str) -> str | None:
    """Why ``seat``'s pre-sent line for a ``kind`` decision cannot be used (None: no line, or
    it can). For a simultaneous decision it is never put in ``Pending.info`` (every awaited
    seat would read it); the seat's own view carries it."""
    line = next((o for o in s["plans"].get(seat, []) if o.get("kind") == kind), None)
    return None if line is None else order_problem(s, seat, kind, line)


def order_problem(s: State, seat: str, kind: str, order: Order) -> str | None:
    """Why ``order`` cannot answer ``seat``'s pending ``kind`` decision (None: it can)."""
    if kind == "nobles":
        return problem_nobles(s, seat, order.get("place"))
    if kind == "cubes":
        return problem_first(order["first"]) if "first" in order else problem_cubes(s, seat, order.get("place"))
    if kind == "bid":
        return problem_bid(s, seat, order.get("amount"))
    alts = order.get("alts")
    if not isinstance(alts, list) or not alts:
        return "no alternatives"
    reasons = []
    for alt in alts:
        if not isinstance(alt, dict):
            return "bad alternative"
        if alt.get("pass"):
            if kind == "estate":
                reasons.append("the starting estates cannot be passed")
                continue
            return None
        why = (PROBLEMS.get(kind) or _problem_estate)(s, seat, alt)
        if why is None:
            return None
        reasons.append(why)
    return "; ".join(reasons)


def chosen(s: State, seat: str, kind: str, orders: list[Order]) -> tuple[int, Order] | None:
    """The first order of ``kind`` in ``orders`` (its index and the order)."""
    for i, o in enumerate(orders):
        if o.get("kind") == kind:
            return i, o
    return None


def check(s: State, p: Pending, seat: str, orders: list[Order]) -> list[Problem]:
    """Problems with the orders of ``seat``, one of those the pending decision ``p`` waits
    for (that the game is on and the seat awaited is :mod:`adjudicator.sequential`'s check)."""
    bad = [Problem(i, f"unknown order kind {o.get('kind')!r}") for i, o in enumerate(orders) if o.get("kind") not in KINDS]
    if bad:
        return bad
    found = chosen(s, seat, p.kind, orders)
    if found is None:
        return [Problem(None, f"no {FORMS[p.kind][0]} order: this decision is {describe(p.kind)}")]
    why = order_problem(s, seat, p.kind, found[1])
    return [Problem(found[0], why)] if why else []


def describe(kind: str) -> str:
    """A short description of a decision kind, for messages."""
    return {"estate": "a starting estate", "nobles": "where your six nobles go", "cubes": "where your few cubes go",
            "bid": "a bid for the start player marker", "buy": "buying an estate", "action": "a special action",
            "recruit": "recruiting", "campaign": "a campaign", "counter": "a royal counterattack"}[kind]


def apply(ctx: Ctx, p: Pending, orders: dict[str, list[Order]]) -> tuple[dict[str, Order], dict[str, Order]]:
    """Apply the pending decision ``p``; returns the order used per seat, and what is left of
    it per seat (a recruitment naming several units places one tile a turn from rules version
    3: the rest stays the seat's next RECRUIT line)."""
    s = ctx.s
    s["step"] += 1
    rest: dict[str, Order] = {}
    used: dict[str, Order] = {}
    for seat in p.seats:
        found = chosen(s, seat, p.kind, orders[seat])
        assert found is not None
        used[seat] = found[1]
    if p.kind == "nobles":
        for seat, o in used.items():
            s["placed"][seat] = dict(o["place"])
            for v in o["place"].values():
                s["hand"][seat].remove(v)
        _go(s, "reveal")
        return used, rest
    if p.kind == "bid":
        bids = {seat: o["amount"] for seat, o in used.items()}
        tied = phases.settle_bids(ctx, bids)
        if not tied:
            _go(s, "royal_army")
        elif rule("rebid_all_zero"):  # the tied seats are told that they bid again, and at what
            _go(s, "bid", {"seats": tied, "again": s["q"].get("again", 0) + 1, "tied_at": max(bids.values())})
        else:
            _go(s, "bid", {"seats": tied})
        return used, rest
    seat = p.seats[0]
    if p.kind == "cubes":
        order = used[seat]
        place = fill_cubes(s, seat, order["first"]) if "first" in order else order["place"]
        for prov, n in place.items():
            s["prov"][prov]["nobles"][seat] += n
        ctx.emit("FewerCubes", seat=seat, place=dict(place))
        _next(s["q"], passed=True)
        return used, rest
    alt = _first_legal(s, seat, p.kind, used[seat])
    if alt.get("pass"):
        ctx.emit("Passed", seat=seat, phase=p.kind)
        _next(s["q"], passed=True)
        return used, rest
    (APPLY.get(p.kind) or _apply_estate)(ctx, seat, alt)
    _next(s["q"], passed=False)
    if p.kind == "estate":
        _estate_next(s)
    if p.kind == "recruit" and rule("recruit_one_tile"):
        left = _rest_of(used[seat], alt)
        if left is not None:
            rest[seat] = left
    return used, rest


def _rest_of(order: Order, alt: dict[str, Any]) -> Order | None:
    """What a recruitment order holds after its chosen ``alt`` placed one tile: that
    alternative's other tiles, then the fallbacks written after it (None: nothing left)."""
    alts = order["alts"]
    i = next(k for k, a in enumerate(alts) if a is alt)
    left = tiles_after(alt)
    return None if left is None else {**order, "alts": [left, *alts[i + 1:]]}


def _first_legal(s: State, seat: str, kind: str, order: Order) -> dict[str, Any]:
    for alt in order["alts"]:
        if alt.get("pass") and kind != "estate":
            return alt
        if not alt.get("pass") and (PROBLEMS.get(kind) or _problem_estate)(s, seat, alt) is None:
            return alt
    raise GameError("no legal alternative (validate first)")


def _estate_next(s: State) -> None:
    """Setup: three passes, the marker moving on after each (seed 004, Előkészületek)."""
    q = s["q"]
    q["placed"] = q.get("placed", 0) + 1
    n = len(s["seats"])
    if q["placed"] % n == 0:
        if q["placed"] >= 3 * n:
            q["out"] = list(q["order"])
            return
        s["start"] = q["order"][1 % n]  # the marker passes to the next player
        order = turn_order(s)
        q["order"], q["i"] = order, 0
