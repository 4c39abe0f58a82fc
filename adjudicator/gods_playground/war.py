"""Campaigns (seed 004, Phase 10) and the royal counterattack (Phase 12)."""

from __future__ import annotations

from typing import Any

from adjudicator.gods_playground.board import ENEMIES, PROVINCES
from adjudicator.gods_playground.combat import remove_enemy, roll
from adjudicator.gods_playground.releases import RELEASES, rule
from adjudicator.gods_playground.state import (
    Ctx, cube_supply, enemy_cubes, enemy_words, enemy_of, province_of, royal_supply, sejm_discs, take_sejm_disc,
    turks_hold_habsburgs)

State = dict[str, Any]


def royal_can_fight(s: State) -> bool:
    """The royal army has infantry or cavalry."""
    return s["royal"]["inf"] + s["royal"]["cav"] > 0


def problem_campaign(s: State, seat: str, alt: dict[str, Any]) -> str | None:
    """A campaign: from the enemy's province, a cube there, troops (or the royal army for a
    Sejm disc); never the Habsburgs in rounds 1-3; against an enemy under treaty only while
    enemy cubes stand on the province (Phase 10: „A tartományon lévő ellenségkocka akkor is
    támadható, ha amúgy egyezség van kötve az adott ellenséggel.”)."""
    e = alt.get("enemy")
    if e not in ENEMIES:
        return "name the enemy"
    if e == "habsburgs" and s["round"] < 4:
        return "no campaign against the Habsburgs in rounds 1-3"
    p = province_of(s, e)
    if s["box"][e]["treaty"] and not rule("treaty_campaign_on_cubes"):  # rules version 1
        return f"an agreement holds with the {e}"
    if s["box"][e]["treaty"] and not enemy_cubes(s["prov"][p]):
        return f"an agreement holds with the {e} (only their cubes on {p} may be attacked)"
    if s["prov"][p]["nobles"][seat] < 1:
        return f"a campaign costs a noble cube on {p}"
    if alt.get("royal"):
        if not sejm_discs(s, seat):
            return "the royal army costs one of your discs on the Sejm"
        if not royal_can_fight(s):
            return "the royal army has no troops"
        return None
    u = s["prov"][p]["units"][seat]
    return None if u["inf"] + u["cav"] else f"you have no infantry or cavalry on {p}"


def apply_campaign(ctx: Ctx, seat: str, alt: dict[str, Any]) -> None:
    """Roll for the seat's troops (with the Cossacks against the Tatars) and the royal army;
    hits clear the province's enemy cubes first, then go on the box as hit cubes (none on the
    box of an enemy under treaty: no campaign against it, Phase 8 Diplomacy)."""
    s = ctx.s
    e = alt["enemy"]
    p = province_of(s, e)
    prov = s["prov"][p]
    prov["nobles"][seat] -= 1
    rng = ctx.stream("campaign", s["step"], words=f"{seat}'s campaign against {enemy_words(e)}")
    u = prov["units"][seat]
    cannon = campaign_cannon(prov, seat)
    own = roll(rng, {"inf": u["inf"], "cav": u["cav"]}, cannon)
    u["inf"] -= own["lost"]["inf"]
    u["cav"] -= own["lost"]["cav"]
    hits = own["hits"]
    cossack = None
    cossack_cleared = 0
    if e == "tatars" and prov["cossacks"] and (u["inf"] + u["cav"] + sum(own["lost"].values())):
        cossack = roll(rng, {"cossack": prov["cossacks"]}, cannon)
        prov["cossacks"] -= cossack["lost"]["cossack"]
        s["cossack_box"] += cossack["lost"]["cossack"]
        hits += cossack["hits"]
        if rule("cossacks_tatars_only"):  # version 3: „A kozákok csak a tatárokat támadják.”
            cossack_cleared = remove_enemy(prov, cossack["hits"], "tatars", only=True)
    treaty = s["box"][e]["treaty"]
    if rule("cossacks_tatars_only"):  # the seat's own hits clear any colour there, its enemy's first
        cleared = cossack_cleared + remove_enemy(prov, own["hits"], e)
    else:
        cleared = remove_enemy(prov, hits, e)
    placed = 0 if treaty else min(hits - cleared, cube_supply(s, seat))
    s["box"][e]["nobles"][seat] += placed
    royal = None
    if alt.get("royal"):
        space = take_sejm_disc(s, seat)
        royal = _royal_roll(ctx, rng)
        cleared_r = remove_enemy(prov, royal["hits"], e)
        royal_placed = 0 if treaty else min(royal["hits"] - cleared_r, royal_supply(s))
        s["box"][e]["royal"] += royal_placed
        royal.update(cleared=cleared_r, placed=royal_placed, sejm_space=space)
    ctx.emit("Campaign", seat=seat, enemy=e, province=p, label=f"gods_playground/{s['round']}/campaign/{s['step']}",
             rolls=own["rolls"], cossacks=cossack and cossack["rolls"], hits=hits, cleared=cleared,
             hit_cubes=placed, royal=royal)


def campaign_cannon(prov: dict[str, Any], seat: str) -> bool:
    """Whether a campaign's rolls get the cannon's +1: from rules version 3 when any cannon
    stands on the province (Phase 10: „Ha a tartományon van ágyú, minden dobás eredményéhez +1
    járul.”); in versions 1-2 only the campaigning seat's own cannon."""
    if rule("cannon_on_province"):
        return any(u["can"] for u in prov["units"].values())
    return bool(prov["units"][seat]["can"])


def _royal_roll(ctx: Ctx, rng: Any) -> dict[str, Any]:
    s = ctx.s
    r = roll(rng, {"inf": s["royal"]["inf"], "cav": s["royal"]["cav"]}, bool(s["royal"]["can"]))
    s["royal"]["inf"] -= r["lost"]["inf"]
    s["royal"]["cav"] -= r["lost"]["cav"]
    return {"rolls": r["rolls"], "hits": r["hits"]}


def counter_targets(s: State) -> list[str]:
    """Provinces with enemy cubes, and the Habsburgs' box while Turks stand on it."""
    out = [p for p in PROVINCES if enemy_cubes(s["prov"][p])]
    return out + (["habsburgs"] if turks_hold_habsburgs(s) else [])


def problem_counter(s: State, seat: str, alt: dict[str, Any]) -> str | None:
    """A counterattack: a target, the royal army's troops, the free attack or a Sejm disc."""
    t = alt.get("target")
    if t not in counter_targets(s):
        return f"no enemy cube to attack there ({t})"
    if not royal_can_fight(s):
        return "the royal army has no troops"
    free = s["q"].get("free") == seat
    return None if free or sejm_discs(s, seat) else "another attack costs one of your discs on the Sejm"


def apply_counter(ctx: Ctx, seat: str, alt: dict[str, Any]) -> None:
    """The royal army attacks; each hit removes an enemy cube there (never the box)."""
    s = ctx.s
    t = alt["target"]
    space = None
    if s["q"].get("free") == seat:
        s["q"]["free"] = None
    else:
        space = take_sejm_disc(s, seat)
    rng = ctx.stream("counter", s["step"], words=f"{seat}'s counterattack on {t}")
    r = _royal_roll(ctx, rng)
    if t == "habsburgs":
        removed = min(r["hits"], s["box"]["habsburgs"]["turks"])
        s["box"]["habsburgs"]["turks"] -= removed
    else:
        removed = remove_enemy(s["prov"][t], r["hits"], enemy_of(s, t))
    ctx.emit("Counterattack", seat=seat, target=t, label=f"gods_playground/{s['round']}/counter/{s['step']}",
             rolls=r["rolls"], hits=r["hits"], removed=removed, sejm_space=space)
