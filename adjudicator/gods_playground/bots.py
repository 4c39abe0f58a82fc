"""The missed-orders policy (default orders), the random legal bot and a simple heuristic
bot (``pbem bots``, the demo)."""

from __future__ import annotations

from typing import Any

from adjudicator.base import Order
from adjudicator.chance import Stream
from adjudicator.gods_playground.board import PROVINCES
from adjudicator.gods_playground.decisions import fill_cubes, problem_recruit, units_left
from adjudicator.gods_playground.flow import legal_alts, pending
from adjudicator.gods_playground.state import cube_supply

State = dict[str, Any]
PASS = {"pass": True}


def default_nobles(s: State, seat: str) -> dict[str, int]:
    """The default placement: the six highest nobles in hand, the highest on the king, then
    clockwise from Royal Prussia in falling value (docs/orders-gods-playground.md)."""
    six = sorted(s["hand"][seat], reverse=True)[:6]
    return {"royal": six[0], **{p: v for p, v in zip(PROVINCES, six[1:])}}


def default_cubes(s: State, seat: str) -> dict[str, int]:
    """Short of cubes: fill the provinces clockwise from Royal Prussia."""
    return fill_cubes(s, seat, [])


def default_orders(s: State, seat: str) -> list[Order]:
    """Missed orders: the default nobles, the cubes clockwise, a bid of 0, the first
    starting estate clockwise, and PASS for every other decision."""
    p = pending(s)
    if p is None or seat not in p.seats:
        return []
    if p.kind == "nobles":
        return [{"kind": "nobles", "place": default_nobles(s, seat)}]
    if p.kind == "cubes":
        return [{"kind": "cubes", "place": default_cubes(s, seat)}]
    if p.kind == "bid":
        return [{"kind": "bid", "amount": 0}]
    if p.kind == "estate":
        return [{"kind": "estate", "alts": [legal_alts(s, seat, "estate")[0]]}]
    return [{"kind": p.kind, "alts": [dict(PASS)]}]


def _random_place(s: State, seat: str, rng: Stream) -> dict[str, int]:
    hand = rng.shuffled(sorted(s["hand"][seat]))[:6]
    return dict(zip([*PROVINCES, "royal"], hand))


def _random_cubes(s: State, seat: str, rng: Stream) -> dict[str, int]:
    have = cube_supply(s, seat)
    out = {p: 0 for p in PROVINCES}
    for p in rng.shuffled(list(PROVINCES)):
        out[p] = min(have, s["placed"][seat][p])
        have -= out[p]
    return out


def _random_recruit(s: State, seat: str, rng: Stream, alts: list[dict[str, Any]]) -> dict[str, Any]:
    base = dict(rng.choice(alts))
    for k in ("inf", "cav", "can"):
        extra = rng.below(units_left(s, seat, k) + 1)
        trial = {**base, k: base.get(k, 0) + extra}
        if extra and problem_recruit(s, seat, trial) is None:
            base = trial
    return base


def random_orders(s: State, seat: str, rng: Stream) -> list[Order]:
    """A random legal order: passing now and then, else a legal alternative."""
    p = pending(s)
    if p is None or seat not in p.seats:
        return []
    if p.kind == "nobles":
        return [{"kind": "nobles", "place": _random_place(s, seat, rng)}]
    if p.kind == "cubes":
        return [{"kind": "cubes", "place": _random_cubes(s, seat, rng)}]
    if p.kind == "bid":
        return [{"kind": "bid", "amount": rng.below(s["money"][seat] + 1)}]
    alts = legal_alts(s, seat, p.kind)
    if p.kind != "estate" and (not alts or rng.below(4) == 0):
        return [{"kind": p.kind, "alts": [dict(PASS)]}]
    alt = _random_recruit(s, seat, rng, alts) if p.kind == "recruit" else rng.choice(alts)
    return [{"kind": p.kind, "alts": [alt, dict(PASS)] if p.kind != "estate" else [alt]}]


def heuristic_orders(s: State, seat: str, rng: Stream) -> list[Order]:
    """A modest player: buys where it has cubes, recruits and campaigns against the enemy
    of its strongest province, counterattacks when free, otherwise plays like the random bot."""
    p = pending(s)
    if p is None or seat not in p.seats:
        return []
    if p.kind in ("buy", "campaign", "counter", "estate"):
        alts = legal_alts(s, seat, p.kind)
        if p.kind == "campaign":
            alts = [a for a in alts if not a["royal"]]
        if alts:
            best = max(alts, key=lambda a: s["prov"][a.get("province", PROVINCES[0])]["nobles"][seat]
                       if "province" in a else 0)
            return [{"kind": p.kind, "alts": [best, dict(PASS)] if p.kind != "estate" else [best]}]
        return [{"kind": p.kind, "alts": [dict(PASS)]}]
    if p.kind == "recruit":
        alts = legal_alts(s, seat, "recruit")
        if alts and s["money"][seat] >= 6:
            return [{"kind": "recruit", "alts": [_random_recruit(s, seat, rng, alts), dict(PASS)]}]
        return [{"kind": "recruit", "alts": [dict(PASS)]}]
    return random_orders(s, seat, rng)
