"""The decisions of a round (seed 004): what is legal (``problem_*`` return ``None`` or the
reason) and what it does (``apply_*``).

Sequential decisions take an order ``{"kind": K, "alts": [alt, ...]}``: the first legal
alternative is used ("if that estate is gone, Ukraine; else pass"). An alternative is
``{"pass": true}`` or a dict naming what to do (docs/orders-gods-playground.md).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.gods_playground.board import ENEMIES, PROVINCES, board
from adjudicator.gods_playground.releases import RELEASES, rule
from adjudicator.gods_playground.state import (
    STEWARDS, TOWNS, Ctx, cube_supply, disc_supply, enemy_cubes, income_of, pay_out, province_of, sejm_discs,
    stewards_used, take_sejm_disc, turks_hold_habsburgs)
from adjudicator.gods_playground.war import (
    apply_campaign, apply_counter, counter_targets, problem_campaign, problem_counter)

State = dict[str, Any]
ACTIONS = ("steward", "danzig", "diplomacy", "move", "veto", "arms", "jesuits", "town")
UNIT_KINDS = ("inf", "cav", "can", "cossack")


# -- simultaneous decisions ------------------------------------------------------------
def problem_nobles(s: State, seat: str, place: Any) -> str | None:
    """Phase 2: one noble on each province and one on the royal army box, from the hand."""
    if not isinstance(place, dict) or set(place) != {*PROVINCES, "royal"}:
        return "place one noble on each of the five provinces and one on the king (royal army box)"
    values = list(place.values())
    if not all(isinstance(v, int) and 0 <= v <= 5 for v in values):
        return "nobles are worth 0-5"
    missing = Counter(values) - Counter(s["hand"][seat])
    if missing:
        return f"you have no more nobles of value {', '.join(map(str, sorted(missing.elements())))} (left: {sorted(s['hand'][seat])})"
    return None


def problem_cubes(s: State, seat: str, place: Any) -> str | None:
    """Phase 2, short of cubes: where to put the cubes one has (at most each noble's value)."""
    have = cube_supply(s, seat)
    if not isinstance(place, dict) or not set(place) <= set(PROVINCES):
        return "CUBES names provinces and numbers"
    for p, n in place.items():
        if not isinstance(n, int) or not 0 <= n <= s["placed"][seat][p]:
            return f"at most {s['placed'][seat][p]} cubes on {p} (your noble there)"
    if sum(place.values()) != have:
        return f"place exactly the {have} cubes you have"
    return None


def fill_cubes(s: State, seat: str, first: list[str]) -> dict[str, int]:
    """Short of cubes: fill the provinces in ``first``'s order (then clockwise), each up to
    the noble placed there, until the seat's cubes run out."""
    have = cube_supply(s, seat)
    out = {}
    for p in [*first, *[q for q in PROVINCES if q not in first]]:
        out[p] = min(have, s["placed"][seat][p])
        have -= out[p]
    return out


def problem_first(first: Any) -> str | None:
    """A priority list of provinces (``CUBES FIRST ...``)."""
    if not isinstance(first, list) or any(p not in PROVINCES for p in first) or len(set(first)) != len(first):
        return "CUBES FIRST lists different provinces"
    return None


def problem_bid(s: State, seat: str, amount: Any) -> str | None:
    """Phase 3 tie: a bid of 0 up to one's money."""
    if not isinstance(amount, int) or not 0 <= amount <= s["money"][seat]:
        return f"bid 0-{s['money'][seat]} thalers"
    return None


# -- buying estates (Phase 7) ------------------------------------------------------------
def buy_cost(s: State, seat: str) -> int:
    """The first estate of the phase costs 1 noble cube, every later one 2 (fact 49)."""
    return 1 if s["q"].get("bought", {}).get(seat, 0) == 0 else 2


def problem_buy(s: State, seat: str, alt: dict[str, Any]) -> str | None:
    """A purchase: an empty estate in the province, the cubes there, a disc in supply."""
    p = alt.get("province")
    if p not in PROVINCES:
        return "name a province"
    prov = s["prov"][p]
    if all(e["owner"] is not None for e in prov["estates"]):
        return f"no empty estate in {p}"
    cost = buy_cost(s, seat)
    if prov["nobles"][seat] < cost:
        return f"buying costs {cost} of your noble cubes on {p}; you have {prov['nobles'][seat]}"
    if disc_supply(s, seat) < 1:
        return "no disc left"
    return None


def apply_buy(ctx: Ctx, seat: str, alt: dict[str, Any]) -> None:
    """Pay the cubes and take the least valuable empty estate of the row."""
    s = ctx.s
    p = alt["province"]
    cost = buy_cost(s, seat)
    s["prov"][p]["nobles"][seat] -= cost
    estate = next(e for e in s["prov"][p]["estates"] if e["owner"] is None)
    estate["owner"] = seat
    s["q"].setdefault("bought", {})[seat] = s["q"].get("bought", {}).get(seat, 0) + 1
    ctx.emit("EstateBought", seat=seat, province=p, value=estate["value"], cost=cost)


# -- special actions (Phase 8) -----------------------------------------------------------
def _cubes(s: State, seat: str, p: Any) -> int:
    return s["prov"][p]["nobles"][seat] if p in PROVINCES else 0


def _lowest_vp_alone(s: State, seat: str) -> bool:
    low = min(s["vp"].values())
    return s["vp"][seat] == low and list(s["vp"].values()).count(low) == 1


def arms_target(s: State, seat: str, p: str, target: str | None) -> dict[str, Any] | None:
    """The estate right of arms takes: the least valuable non-town estate of a seat with
    fewer noble cubes there (``target`` if named)."""
    mine = s["prov"][p]["nobles"][seat]
    for e in s["prov"][p]["estates"]:
        owner = e["owner"]
        if owner in (None, seat) or e["town"] or (target and owner != target):
            continue
        if s["prov"][p]["nobles"][owner] < mine:
            return e
    return None


def _problem_action(s: State, seat: str, alt: dict[str, Any]) -> str | None:
    a, p, r = alt.get("action"), alt.get("province"), s["round"]
    if alt.get("value") is not None and not rule("estate_choice"):
        return RELEASES.not_yet("estate_choice", "ON <value>")
    if a == "steward":
        if _cubes(s, seat, p) < 1:
            return f"a steward costs a noble cube on {p}"
        if _own_estate(s, seat, p, "steward", alt.get("value")) is None:
            return f"you have no estate without a steward in {p}" + _valued(alt)
        return "all 8 stewards are hired" if stewards_used(s) >= STEWARDS else None
    if a == "danzig":
        return None if _cubes(s, seat, "royal_prussia") >= 1 else "Danzig costs a noble cube on Royal Prussia"
    if a == "diplomacy":
        return _problem_diplomacy(s, seat, alt.get("enemy"))
    if a == "move":
        return _problem_move(s, seat, alt.get("moves"))
    if a == "veto":
        return None if _cubes(s, seat, p) >= 1 else f"the veto costs a noble cube on {p}"
    if a == "arms":
        return _problem_arms(s, seat, p, alt.get("target"))
    if a == "jesuits":
        return _problem_jesuits(s, seat, alt.get("provinces"))
    if a == "town":
        if r < 3:
            return "towns only from round 3"
        if s["town_round"] or s["towns_founded"] >= TOWNS:
            return "one town a round, two a game"
        if _cubes(s, seat, p) < 2:
            return f"a town costs 2 noble cubes on {p}"
        return None if _own_estate(s, seat, p, "town", alt.get("value")) is not None \
            else f"you have no estate without a town in {p}" + _valued(alt)
    return f"unknown action {a!r}"


def _own_estate(s: State, seat: str, p: str, piece: str, value: Any = None) -> dict[str, Any] | None:
    """The seat's estate in ``p`` that gets a steward or a town: the player chooses (Phase 8:
    „Ha a tartományban több birtoka is van, eldönti, melyikhez rakja az intézőt.”) by the
    printed ``value``; unnamed, the most valuable one without that piece."""
    for e in reversed(s["prov"][p]["estates"]):
        if e["owner"] == seat and not e[piece] and (value is None or e["value"] == value):
            return e
    return None


def _valued(alt: dict[str, Any]) -> str:
    return f" worth {alt['value']}" if alt.get("value") is not None else ""


def _problem_diplomacy(s: State, seat: str, enemy: Any) -> str | None:
    if enemy not in ENEMIES:
        return "name the enemy"
    if enemy == "turks":
        return "no agreement can be made with the Turks"
    if enemy == "habsburgs" and (s["round"] < 4 or turks_hold_habsburgs(s)):
        return "an agreement with the Habsburgs only in round 4, with no Turks on their box"
    if s["treaty_made"]:
        return "only one agreement a round; it is made"
    if _cubes(s, seat, province_of(s, enemy)) < 1:
        return f"diplomacy costs a noble cube on {province_of(s, enemy)}"
    return None if sejm_discs(s, seat) else "diplomacy costs one of your discs on the Sejm"


def _problem_move(s: State, seat: str, moves: Any) -> str | None:
    if not isinstance(moves, list) or not 1 <= len(moves) <= 2:
        return "move one or two noble cubes"
    used: Counter[str] = Counter()
    for m in moves:
        if not (isinstance(m, list) and len(m) == 2 and m[0] in PROVINCES and m[1] in PROVINCES):
            return "MOVE <province> TO <province>"
        used[m[0]] += 1
    for p, n in used.items():
        if s["prov"][p]["nobles"][seat] < n:
            return f"you have {s['prov'][p]['nobles'][seat]} noble cubes on {p}"
    return None


def _problem_arms(s: State, seat: str, p: Any, target: Any) -> str | None:
    if s["round"] < 3:
        return "right of arms only in rounds 3 and 4"
    if not _lowest_vp_alone(s, seat):
        return "only the player with the fewest VP (not tied) may take right of arms"
    if _cubes(s, seat, p) < 2:
        return f"right of arms costs 2 noble cubes on {p}"
    if rule("arms_needs_disc") and disc_supply(s, seat) < 1:
        return "right of arms puts one of your discs on the estate; you have none left"
    return None if arms_target(s, seat, p, target) else f"no estate in {p} of a player with fewer noble cubes there"


def _problem_jesuits(s: State, seat: str, provinces: Any) -> str | None:
    if s["round"] < 2:
        return "Jesuit schools only from round 2"
    if not isinstance(provinces, list) or not provinces or len(set(provinces)) != len(provinces):
        return "name one or more different provinces"
    for p in provinces:
        if _cubes(s, seat, p) < 1:
            return f"you have no noble cube on {p}"
    return None if s["money"][seat] >= 2 * len(provinces) else f"{2 * len(provinces)} thalers needed"


def problem_action(s: State, seat: str, alt: dict[str, Any]) -> str | None:
    """One special action's legality."""
    return _problem_action(s, seat, alt)


def apply_action(ctx: Ctx, seat: str, alt: dict[str, Any]) -> None:
    """Carry out one special action."""
    s = ctx.s
    a, p = alt["action"], alt.get("province")
    detail: dict[str, Any] = {}
    if a == "steward":
        s["prov"][p]["nobles"][seat] -= 1
        est = _own_estate(s, seat, p, "steward", alt.get("value"))
        assert est is not None
        est["steward"] = True
        detail = {"province": p, "value": est["value"]}
    elif a == "danzig":
        s["prov"]["royal_prussia"]["nobles"][seat] -= 1
        gain = 2 * sum(income_of(s, o, "royal_prussia") for o in s["seats"])
        paid = pay_out(s, seat, gain)
        detail = {"thalers": paid, **({"short": gain - paid} if paid < gain else {})}
    elif a == "diplomacy":
        detail = _diplomacy(ctx, seat, alt["enemy"])
    elif a == "move":
        for src, dst in alt["moves"]:
            s["prov"][src]["nobles"][seat] -= 1
            s["prov"][dst]["nobles"][seat] += 1
        detail = {"moves": alt["moves"]}
    elif a == "veto":
        s["prov"][p]["nobles"][seat] -= 1
        s["sejm"] = {k: None for k in s["sejm"]}
        detail = {"province": p}
    elif a == "arms":
        est = arms_target(s, seat, p, alt.get("target"))
        assert est is not None
        s["prov"][p]["nobles"][seat] -= 2
        detail = {"province": p, "from": est["owner"], "value": est["value"]}
        est.update(owner=seat, steward=False)
    elif a == "jesuits":
        for q in alt["provinces"]:
            s["prov"][q]["nobles"][seat] -= 1
        n = len(alt["provinces"])
        s["money"][seat] -= 2 * n
        gain = n + (2 if n == len(PROVINCES) else 0)
        s["vp"][seat] += gain
        detail = {"provinces": alt["provinces"], "vp": gain}
    elif a == "town":
        s["prov"][p]["nobles"][seat] -= 2
        est = _own_estate(s, seat, p, "town", alt.get("value"))
        assert est is not None
        est["town"] = True
        s["town_round"] = True
        s["towns_founded"] += 1
        detail = {"province": p, "value": est["value"]}
    ctx.emit("SpecialAction", seat=seat, action=a, **detail)


def _diplomacy(ctx: Ctx, seat: str, enemy: str) -> dict[str, Any]:
    """Cube and Sejm disc paid; a die + 2 thalers; too poor: all money, no agreement."""
    s = ctx.s
    s["prov"][province_of(s, enemy)]["nobles"][seat] -= 1
    space = take_sejm_disc(s, seat)
    die = ctx.stream("diplomacy", s["step"], "die", words=f"{seat}'s diplomacy die").die()
    cost = die + 2
    made = s["money"][seat] >= cost
    s["money"][seat] -= cost if made else s["money"][seat]
    if made:
        s["box"][enemy]["treaty"] = True
        s["treaty_made"] = True
    return {"enemy": enemy, "die": die, "label": f"gods_playground/{s['round']}/diplomacy/{s['step']}/die",
            "paid": cost if made else None, "made": made, "sejm_space": space}


# -- recruitment (Phase 9) -----------------------------------------------------------------
def recruit_cost(s: State, alt: dict[str, Any]) -> int:
    """Units' cost; halved on a province with an enemy cube (fact 59)."""
    costs = board(s)["costs"]
    total = sum(costs[k] * alt.get(k, 0) for k in UNIT_KINDS)
    return total // 2 if enemy_cubes(s["prov"][alt["province"]]) else total


def units_left(s: State, seat: str, kind: str) -> int:
    """A seat's units of ``kind`` not on the board."""
    counts = board(s)["counts"]
    return counts[kind] - sum(p["units"][seat][kind] for p in s["prov"].values())


def problem_recruit(s: State, seat: str, alt: dict[str, Any]) -> str | None:
    """A recruitment: a cube on the province (none where paid already this phase, version 3),
    units left, no cannon in round 1, Cossacks only in Ukraine, the money."""
    p = alt.get("province")
    if p not in PROVINCES:
        return "name a province"
    n = {k: alt.get(k, 0) for k in UNIT_KINDS}
    if not all(isinstance(v, int) and v >= 0 for v in n.values()) or sum(n.values()) == 0:
        return "recruit at least one unit"
    if not recruit_paid(s, seat, p) and s["prov"][p]["nobles"][seat] < 1:
        return f"recruiting costs a noble cube on {p}"
    for k in ("inf", "cav", "can"):
        if n[k] > units_left(s, seat, k):
            return f"you have {units_left(s, seat, k)} {k} left"
    if n["can"] and s["round"] == 1:
        return "no cannon in round 1"
    if n["cossack"] and (p != "ukraine" or n["cossack"] > s["cossack_box"]):
        return f"Cossacks only in Ukraine ({s['cossack_box']} left)"
    cost = recruit_cost(s, alt)
    return None if cost <= s["money"][seat] else f"that costs {cost} thalers; you have {s['money'][seat]}"


def recruit_paid(s: State, seat: str, province: str) -> bool:
    """True when ``seat`` already paid its noble cube for ``province`` in this recruitment
    phase (rules version 3, Phase 9: „onnét el kell távolítania egy nemeskockáját; ezután már
    bárhány egységet toborozhat ide”); versions 1-2 take a cube every recruitment turn."""
    return rule("recruit_cube_per_province") and province in s["q"].get("paid", {}).get(seat, [])


#: The order in which a recruitment naming several units places them, one tile a turn (rules
#: version 3): the Cossacks first (another player may hire them), then infantry, cavalry, cannon.
TILE_ORDER = ("cossack", "inf", "cav", "can")


def first_tile(alt: dict[str, Any]) -> dict[str, Any]:
    """The one army tile a recruitment turn places from ``alt`` (Phase 9: „Játéksorrendben mind
    vásárolhattok egyetlen sereglapkát, felrakva azt egy tartományra.”; a Cossack is a tile:
    „Kozák vásárlása, lerakása pont ugyanolyan, mint saját egység vásárlása”)."""
    return {"province": alt["province"], _first_kind(alt): 1}


def _first_kind(alt: dict[str, Any]) -> str:
    return next(k for k in TILE_ORDER if alt.get(k, 0) > 0)


def tiles_after(alt: dict[str, Any]) -> dict[str, Any] | None:
    """``alt`` without its first tile (None when that was its last): the rest of a standing
    list, placed on the seat's next recruitment turns."""
    kind = _first_kind(alt)
    rest = {k: v for k, v in {**alt, kind: alt[kind] - 1}.items() if k not in UNIT_KINDS or v > 0}
    return rest if any(k in UNIT_KINDS for k in rest) else None


def apply_recruit(ctx: Ctx, seat: str, alt: dict[str, Any]) -> None:
    """Pay a cube (once per province in the phase, from version 3) and the thalers; place the
    units: from version 3 one tile, the first of ``alt`` (:func:`first_tile`)."""
    s = ctx.s
    if rule("recruit_one_tile"):
        alt = first_tile(alt)
    p = alt["province"]
    cost = recruit_cost(s, alt)
    s["money"][seat] -= cost
    prov = s["prov"][p]
    extra: dict[str, Any] = {}
    if rule("recruit_cube_per_province"):
        cube = 0 if recruit_paid(s, seat, p) else 1
        if cube:
            s["q"].setdefault("paid", {}).setdefault(seat, []).append(p)
        extra["cube"] = cube
    else:
        cube = 1
    prov["nobles"][seat] -= cube
    for k in ("inf", "cav", "can"):
        prov["units"][seat][k] += alt.get(k, 0)
    prov["cossacks"] += alt.get("cossack", 0)
    s["cossack_box"] -= alt.get("cossack", 0)
    ctx.emit("Recruited", seat=seat, province=p, cost=cost, **{k: alt.get(k, 0) for k in UNIT_KINDS}, **extra)


PROBLEMS = {"buy": problem_buy, "action": problem_action, "recruit": problem_recruit,
            "campaign": problem_campaign, "counter": problem_counter}
APPLY = {"buy": apply_buy, "action": apply_action, "recruit": apply_recruit,
         "campaign": apply_campaign, "counter": apply_counter}
