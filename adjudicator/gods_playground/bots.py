"""The missed-orders policy (default orders), the random legal bot and a simple heuristic
bot (``pbem bots``, the demo)."""

from __future__ import annotations

from typing import Any

from adjudicator.base import Order
from adjudicator.chance import Stream
from adjudicator.gods_playground.board import PROVINCES
from adjudicator.gods_playground.decisions import fill_cubes, problem_recruit, units_left
from adjudicator.gods_playground.flow import legal_alts, pending
from adjudicator.gods_playground.releases import rule
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


def default_bid(s: State, seat: str) -> int:
    """A missed bid: 0; a missed new bid after a tie, 1 thaler if the seat has one, so that
    the bidding ends as Phase 3 wants ("until someone wins", or nobody has money left)
    even when every tied seat misses its orders (rules version 3: a tie at 0 is bid again)."""
    return 1 if s["q"].get("again") and s["money"][seat] > 0 else 0


def default_orders(s: State, seat: str) -> list[Order]:
    """Missed orders: the default nobles, the cubes clockwise, a bid of 0 (1 when bidding
    again after a tie), the first starting estate clockwise, and PASS for every other decision."""
    p = pending(s)
    if p is None or seat not in p.seats:
        return []
    if p.kind == "nobles":
        return [{"kind": "nobles", "place": default_nobles(s, seat)}]
    if p.kind == "cubes":
        return [{"kind": "cubes", "place": default_cubes(s, seat)}]
    if p.kind == "bid":
        return [{"kind": "bid", "amount": default_bid(s, seat)}]
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
    if rule("recruit_one_tile"):  # rules version 3: one army tile a turn (Phase 9)
        return base
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


def _threat(s: State, enemy: str) -> int:
    from adjudicator.gods_playground.phases import hit_cubes, strength
    return strength(s, enemy) - hit_cubes(s, enemy)


def _heuristic_nobles(s: State, seat: str) -> dict[str, int]:
    """The highest noble on the king; then provinces by own estates, then by threat."""
    from adjudicator.gods_playground.state import enemy_of
    six = sorted(s["hand"][seat], reverse=True)[:6]
    mine = {p: sum(1 for e in s["prov"][p]["estates"] if e["owner"] == seat) for p in PROVINCES}
    ranked = sorted(PROVINCES, key=lambda p: (-mine[p], -_threat(s, enemy_of(s, p)) if enemy_of(s, p) != "habsburgs"
                                              else 0, PROVINCES.index(p)))
    return {"royal": six[0], **dict(zip(ranked, six[1:]))}


def _heuristic_alt(s: State, seat: str, kind: str, alts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The heuristic's pick among legal alternatives (None: pass)."""
    from adjudicator.gods_playground.state import enemy_cubes, enemy_of, province_of
    if kind == "estate":
        return min(alts, key=lambda a: enemy_cubes(s["prov"][a["province"]]))
    if kind == "buy":
        first = [a for a in alts if not enemy_cubes(s["prov"][a["province"]])]
        return first[0] if first and s["q"].get("bought", {}).get(seat, 0) == 0 else None
    if kind == "action":
        for want in ("steward", "danzig", "jesuits"):
            pick = [a for a in alts if a["action"] == want]
            if pick and (want != "jesuits" or s["money"][seat] >= 6):
                return max(pick, key=lambda a: len(a.get("provinces", [])))
        return None
    if kind == "recruit":
        if s["money"][seat] < 4:
            return None
        best = max(alts, key=lambda a: _threat(s, enemy_of(s, a["province"])) if enemy_of(s, a["province"]) != "habsburgs" else -99)
        out = {"province": best["province"]}
        for k in ("cav", "inf"):
            while problem_recruit(s, seat, {**out, k: out.get(k, 0) + 1}) is None and s["money"][seat] > 2 * (out.get(k, 0) + 1):
                out[k] = out.get(k, 0) + 1
        if problem_recruit(s, seat, out) is not None:
            return best
        if rule("recruit_one_tile"):  # rules version 3: one tile a turn, the wish's first (cavalry first)
            kind = next(k for k in ("cav", "inf") if out.get(k))
            return {"province": out["province"], kind: 1}
        return out
    if kind == "campaign":
        own = [a for a in alts if not a["royal"]]
        return max(own, key=lambda a: _threat(s, a["enemy"])) if own else None
    if kind == "counter":
        return max(alts, key=lambda a: 9 if a["target"] == "habsburgs" else enemy_cubes(s["prov"][a["target"]]))
    return None


def heuristic_orders(s: State, seat: str, rng: Stream) -> list[Order]:
    """A modest player: the highest noble on the king, nobles where its estates and the
    threats are; one cheap estate; stewards, Danzig or schools; troops and campaigns
    against the most dangerous enemy; counterattacks where most enemies stand."""
    p = pending(s)
    if p is None or seat not in p.seats:
        return []
    if p.kind == "nobles":
        return [{"kind": "nobles", "place": _heuristic_nobles(s, seat)}]
    if p.kind == "bid" and s["q"].get("again"):  # a new bid after a tie: a small random offer ends it soon
        return [{"kind": "bid", "amount": min(s["money"][seat], 1 + rng.below(3))}]
    if p.kind in ("cubes", "bid"):
        return default_orders(s, seat)
    alts = legal_alts(s, seat, p.kind)
    pick = _heuristic_alt(s, seat, p.kind, alts) if alts else None
    if p.kind == "estate":
        return [{"kind": "estate", "alts": [pick or alts[0]]}]
    return [{"kind": p.kind, "alts": [pick, dict(PASS)] if pick else [dict(PASS)]}]
