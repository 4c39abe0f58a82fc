"""Phases 13-16 and the end of the game (seed 004): raiding, estates, victory points, end
of the round, final estate scoring and the tie-breaks."""

from __future__ import annotations

from typing import Any

from adjudicator.gods_playground.board import ENEMIES, board
from adjudicator.gods_playground.phases import arrive, influence_strikes
from adjudicator.gods_playground.releases import RELEASES, rule
from adjudicator.gods_playground.state import (
    INFLUENCE, NOBLES, Ctx, cubes_on_board, enemy_cubes, enemy_of, enemy_supply, influence_on_board, nobles_on,
    order_from, reading, turkish_habsburgs, turks_overran)

HABSBURG_GARRISON = 2


def raids(ctx: Ctx) -> None:
    """Phase 13: clockwise from Royal Prussia, a province with more enemy cubes than noble
    cubes, holding cubes of its own enemy, sends that enemy's cubes (the difference) along
    its arrows to each neighbour without a cube of that colour: new cubes from the supply, then from the box, else fewer (split, the odd one at
    random). Influence markers spread the same way; Turks leave the Habsburgs' box last."""
    s = ctx.s
    b = board(s)
    for p in b["province_order"]:
        prov = s["prov"][p]
        colour = raider(s, p)
        diff = enemy_cubes(prov) - nobles_on(prov)
        if diff > 0 and prov["enemy"][colour] > 0:
            _raid(ctx, p, colour, diff, b["enemies"][enemy_of(s, p)]["raids"])
        if p == "greater_poland" and prov["influence"] > nobles_on(prov):
            _spread_influence(ctx, prov["influence"] - nobles_on(prov), b["enemies"]["habsburgs"]["raids"])
    _turks_leave_habsburgs(ctx)


def _turks_leave_habsburgs(ctx: Ctx) -> None:
    """Phase 13: Turks on the Habsburgs' box move into Greater Poland, 2 staying as a garrison
    („Ha a Habsburgok dobozán van török kocka, átmennek onnét Nagy-Lengyelországba.”; fact 42).
    From rules version 3, not in round 4 while the box is a Turkish box: its cubes are its
    strength (the 5s of Phase 5, base 10 of Phase 11) and garrison, and that strength has just
    invaded Greater Poland. With the GM option ``turks_from_habsburgs=like-a-raid`` the move
    is a raid: not into Greater Poland while Turkish cubes stand there."""
    s = ctx.s
    box = s["box"]["habsburgs"]
    if box["turks"] <= HABSBURG_GARRISON:
        return
    if rule("turkish_box_keeps_cubes") and turkish_habsburgs(s):
        ctx.emit("Raid", enemy="turks", source="habsburgs_box", targets={}, why="the Turkish box of round 4")
        return
    if reading(s, "turks_from_habsburgs") == "like-a-raid" and s["prov"]["greater_poland"]["enemy"]["turks"]:
        ctx.emit("Raid", enemy="turks", source="habsburgs_box", targets={}, why="Turkish cubes stand on Greater Poland")
        return
    moving = box["turks"] - HABSBURG_GARRISON
    box["turks"] = HABSBURG_GARRISON  # fact 42: the box counts as holding 2 noble cubes
    fight = arrive(ctx, "greater_poland", "turks", moving, "raids/habsburgs_box/defence")
    ctx.emit("Raid", enemy="turks", source="habsburgs_box", targets={"greater_poland": moving}, defence=fight)


def raider(s: dict[str, Any], province: str) -> str:
    """The colour that raids out of a province: its own enemy's, whose arrows point out of it
    (Phase 13); in round 4 with the Turks holding the Habsburgs' box the purple arrows count
    as orange."""
    own = enemy_of(s, province)
    return "turks" if own == "habsburgs" and turkish_habsburgs(s) else own


def _raid(ctx: Ctx, source: str, colour: str, diff: int, arrows: list[str]) -> None:
    s = ctx.s
    targets = [t for t in arrows if s["prov"][t]["enemy"][colour] == 0]
    if not targets:
        return
    available = enemy_supply(s, colour) + s["box"][colour]["cubes"]
    want = diff * len(targets)
    counts = {t: diff for t in targets}
    if available < want:
        share, odd = divmod(available, len(targets))
        counts = {t: share for t in targets}
        if odd:
            lucky = ctx.stream("raids", source, "odd", words=f"{colour} raid from {source}, odd cube").choice(targets)
            counts[lucky] += odd
    from_box = max(0, sum(counts.values()) - enemy_supply(s, colour))
    s["box"][colour]["cubes"] -= from_box
    fights = {}
    for t, n in counts.items():
        if n > 0:
            fights[t] = arrive(ctx, t, colour, n, f"raids/{source}/{t}/defence")
    ctx.emit("Raid", enemy=colour, source=source, difference=diff, targets=counts, defence=fights)


def _spread_influence(ctx: Ctx, diff: int, arrows: list[str]) -> None:
    s = ctx.s
    spread = {}
    for t in arrows:
        n = min(diff, INFLUENCE - influence_on_board(s))
        if n <= 0:
            continue
        if enemy_cubes(s["prov"][t]):
            spread[t] = {"markers": n, "destroyed": True}
            continue
        spread[t] = {"markers": n, "removed": influence_strikes(s, t, n)}
    ctx.emit("InfluenceSpreads", targets=spread)


def _lose_estates(prov: dict[str, Any], count: int) -> list[int]:
    """Remove discs from the most valuable occupied estates; towns and stewards go too."""
    lost = []
    for i in range(len(prov["estates"]) - 1, -1, -1):
        if count <= 0:
            break
        e = prov["estates"][i]
        if e["owner"] is not None:
            lost.append(e["value"])
            e.update(owner=None, steward=False, town=False)
            count -= 1
    return lost


def estates(ctx: Ctx) -> None:
    """Phase 14: discs lost where enemies stand (at least one); income +1 in peace, 0 when
    the enemy was driven out, -1 with an enemy present; the Greater Poland influence rule
    in rounds 1-3 while the Turks do not hold the Habsburgs' box (fact 69); within 1-5."""
    s = ctx.s
    b = board(s)
    report = {}
    for p in b["province_order"]:
        prov = s["prov"][p]
        enemies, nobles = enemy_cubes(prov), nobles_on(prov)
        special = prov["influence"] > 0 or (p == "greater_poland" and s["round"] < 4 and not turks_overran(s))
        if enemies:
            lost, change = _lose_estates(prov, max(1, enemies - nobles)), -1
        elif special:
            lost = _lose_estates(prov, max(0, prov["influence"] - nobles))
            change = -1 if prov["influence"] else (1 if nobles >= 2 else 0)
        else:
            lost, change = [], (0 if prov["entered"] else 1)
        before = prov["track"]
        prov["track"] = max(b["track"]["min"], min(b["track"]["max"], before + change))
        report[p] = {"lost": lost, "track": [before, prov["track"]]}
    ctx.emit("Estates", provinces=report)


def victory_points(ctx: Ctx) -> None:
    """Phase 15: each box's VP to the most hit cubes (ties split, fractions lost; the king
    among the top takes a share that is lost); 2 VP per Sejm disc; 1 VP per 5 thalers."""
    s = ctx.s
    b = board(s)
    gained = {seat: 0 for seat in s["seats"]}
    boxes = {}
    for e in ENEMIES:
        box = s["box"][e]
        top = max([*box["nobles"].values(), box["royal"]])
        if top == 0:
            continue
        tied = [seat for seat, n in box["nobles"].items() if n == top]
        share = b["enemies"][e]["vp"] // (len(tied) + (1 if box["royal"] == top else 0))
        for seat in tied:
            gained[seat] += share
        boxes[e] = {"seats": tied, "king": box["royal"] == top, "each": share}
    sejm = {seat: 2 * sum(1 for o in s["sejm"].values() if o == seat) for seat in s["seats"]}
    money = {seat: s["money"][seat] // 5 for seat in s["seats"]}
    for seat in s["seats"]:
        gained[seat] += sejm[seat] + money[seat]
        s["money"][seat] -= 5 * money[seat]
        s["vp"][seat] += gained[seat]
    ctx.emit("VictoryPoints", boxes=boxes, sejm=sejm, money=money, gained=gained)


def end_of_round(ctx: Ctx) -> None:
    """Phase 16: boxes, the Sejm, armies and the treaty are cleared (at most 2 Turks stay on
    the Habsburgs' box); enemy cubes on a province fall to its noble cubes; nobles come
    back after round 2."""
    s = ctx.s
    for e in ENEMIES:
        box = s["box"][e]
        box.update(cubes=0, royal=0, treaty=False, influence=0, cossacks=0,
                   nobles={seat: 0 for seat in s["seats"]})
        box["turks"] = min(HABSBURG_GARRISON, box["turks"])
    if s["round"] == 3 and rule("turks_fixed_for_round"):  # Turkish for round 4 if Turks stay (reference page)
        s["turkish_habsburgs"] = s["box"]["habsburgs"]["turks"] > 0
    s["sejm"] = {p: None for p in s["sejm"]}
    s["cossack_box"] = 2
    s["royal"] = {"inf": 0, "cav": 0, "can": 0}
    for prov in s["prov"].values():
        prov["cossacks"] = 0
        prov["units"] = {seat: {"inf": 0, "cav": 0, "can": 0} for seat in s["seats"]}
        prov["entered"] = False
        prov["influence"] = 0
        excess = enemy_cubes(prov) - nobles_on(prov)
        for e in reversed(ENEMIES):
            take = min(max(0, excess), prov["enemy"][e])
            prov["enemy"][e] -= take
            excess -= take
    if s["round"] == 2:
        s["hand"] = {seat: list(NOBLES) for seat in s["seats"]}
    s["placed"] = {seat: {} for seat in s["seats"]}
    s["revealed"] = False
    s["treaty_made"] = False
    s["town_round"] = False
    s["plans"] = {seat: [] for seat in s["seats"]}
    ctx.emit("RoundEnded")


def end_of_game(ctx: Ctx) -> None:
    """End of the game: each estate scores its printed value, x3 with a town; the winner by
    VP, then noble cubes on the board, then money, then nearest the start player (fact 76)."""
    s = ctx.s
    scored = {seat: 0 for seat in s["seats"]}
    for prov in s["prov"].values():
        for e in prov["estates"]:
            if e["owner"] is not None:
                scored[e["owner"]] += e["value"] * (3 if e["town"] else 1)
    for seat, n in scored.items():
        s["vp"][seat] += n
    s["winner"] = winner_of(s)
    s["over"] = True
    s["phase"] = "over"
    ctx.emit("GameOver", estates=scored, vp=dict(s["vp"]), winner=s["winner"])


def winner_of(s: dict[str, Any]) -> str:
    """The rulebook's order: VP, noble cubes on the board, money, nearest the start player."""
    order = order_from(s, s["start"])
    return max(order, key=lambda seat: (s["vp"][seat], cubes_on_board(s, seat), s["money"][seat], -order.index(seat)))
