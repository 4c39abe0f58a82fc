"""The phases that need no decision (seed 004, "A játék menete", phases 1-16).

Each function works on a :class:`Ctx` and records what happened as derived events, every
die with its chance label. Decisions (nobles, bids, estates, special actions, recruitment,
campaigns, counterattacks) are in :mod:`adjudicator.gods_playground.decisions`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.gods_playground.board import ENEMIES, PROVINCES, board
from adjudicator.gods_playground.combat import clash, remove_enemy, roll
from adjudicator.gods_playground.releases import RELEASES, rule
from adjudicator.gods_playground.state import (
    INFLUENCE, Ctx, cube_supply, disc_supply, enemy_cubes, enemy_supply, enemy_words, income_of, influence_from_track,
    influence_on_board, nobles_on, pay_out, province_of, turkish_habsburgs, turks_hold_habsburgs, turn_order)

MIN_INCOME = 10


def income(ctx: Ctx) -> None:
    """Phase 1: track value per estate, +2 per steward, at least 10 thalers (fact 18). From
    rules version 3 the bank pays no more than its 132 thalers hold, in turn order from the
    start player (the rulebook does not say who goes short: the order of every other phase)."""
    s = ctx.s
    due = {seat: max(MIN_INCOME, sum(income_of(s, seat, p) for p in PROVINCES)) for seat in s["seats"]}
    order = turn_order(s) if rule("bank_limit") else s["seats"]
    got = {seat: pay_out(s, seat, due[seat]) for seat in order}
    paid = {seat: got[seat] for seat in s["seats"]}
    short = {seat: due[seat] - paid[seat] for seat in s["seats"] if due[seat] > paid[seat]}
    ctx.emit("Income", paid=paid, **({"short": short} if short else {}))


def influence_at_round_start(ctx: Ctx) -> None:
    """Rounds 1-3 under ``habsburg_influence=track`` (rules version 3): the Habsburgs' box gets
    the influence markers of its strength track for the round (Phase 11 Example 2: „A forduló
    elején 4 befolyásjelző került fel a dobozra, a 11. fázis elején még egy”; Example 3: six
    in round 3), as many as the 10 markers allow; the 5s rolled add theirs later."""
    s = ctx.s
    if s["round"] > 3 or not influence_from_track(s):
        return
    want = (board(s).get("influence_track") or [None, None, None])[s["round"] - 1] or 0
    placed = min(want, INFLUENCE - influence_on_board(s))
    if want:
        s["box"]["habsburgs"]["influence"] += placed
        ctx.emit("HabsburgInfluence", markers=placed, track=want)


def reveal_nobles(ctx: Ctx) -> list[str]:
    """Phase 2: turn the nobles face up; place cubes; return the seats short of cubes."""
    s = ctx.s
    ctx.emit("NoblesRevealed", nobles={seat: dict(s["placed"][seat]) for seat in s["seats"]})
    s["revealed"] = True
    short = []
    for seat in turn_order(s):
        need = sum(v for k, v in s["placed"][seat].items() if k != "royal")
        if need <= cube_supply(s, seat):
            for p in PROVINCES:
                s["prov"][p]["nobles"][seat] += s["placed"][seat][p]
        else:
            short.append(seat)
    if not short:
        ctx.emit("NobleCubesPlaced")
    return short


def elect_king(ctx: Ctx) -> list[str]:
    """Phase 3: the highest noble on the royal army box takes the start player marker; the
    tied seats are returned (they bid) when there is a tie (main text, not the reference page)."""
    s = ctx.s
    royal = {seat: s["placed"][seat]["royal"] for seat in s["seats"]}
    top = max(royal.values())
    tied = [seat for seat in turn_order(s) if royal[seat] == top]
    if len(tied) == 1:
        _new_start(ctx, tied[0], "highest noble on the royal army box")
        return []
    return tied


def settle_bids(ctx: Ctx, bids: dict[str, int]) -> list[str]:
    """Phase 3 bids: all paid to the bank; the highest wins; tied again -> bid again (the
    tied seats are returned: „új licitet kell tartanotok, addig, amíg valaki nem győz”); no
    tied seat has money -> the marker stays. Rules versions 1 and 2: all bid 0 -> it stays."""
    s = ctx.s
    for seat, amount in bids.items():
        s["money"][seat] -= amount
    top = max(bids.values())
    tied = [seat for seat in turn_order(s) if seat in bids and bids[seat] == top]
    ctx.emit("KingBids", bids=dict(bids))
    if len(tied) == 1:
        _new_start(ctx, tied[0], "highest bid")
        return []
    if all(s["money"][seat] == 0 for seat in tied):
        ctx.emit("StartPlayer", seat=s["start"], why="the tied seats have no money: the marker stays")
        return []
    if top == 0 and not rule("rebid_all_zero"):  # versions 1-2: nobody offers anything, the marker stays
        ctx.emit("StartPlayer", seat=s["start"], why="every tied seat bid 0: the marker stays")
        return []
    return tied


def _new_start(ctx: Ctx, seat: str, why: str) -> None:
    ctx.s["start"] = seat
    ctx.emit("StartPlayer", seat=seat, why=why)


def royal_army(ctx: Ctx) -> None:
    """Phase 4: court troops of the round + the table by the nobles' total; no cannon in
    round 1; at most 4/4/1 (facts 25-28)."""
    s = ctx.s
    b = board(s)
    total = sum(s["placed"][seat]["royal"] for seat in s["seats"])
    row = [r for r in b["royal_table"] if r["min"] <= total][-1]
    court = b["court"][s["round"] - 1]
    army = {u: min(b["royal_max"][u], court[u] + row[u]) for u in ("inf", "cav", "can")}
    if s["round"] == 1:
        army["can"] = 0
    s["royal"] = army
    ctx.emit("RoyalArmy", total=total, court=dict(court), table=dict(row), army=dict(army))


def _dice(ctx: Ctx, phase: str) -> list[int]:
    rng = ctx.stream(phase, "dice", words=phase)
    dice = [rng.die() for _ in range(4)]
    return dice


def _place_die(ctx: Ctx, face: int, skip: set[str]) -> str | None:
    """One die of Events or Invasions: a cube on the enemy box whose face it shows (fact 33)."""
    s = ctx.s
    b = board(s)
    enemy = next((e for e in ENEMIES if b["enemies"][e]["die"] == face), None)
    if enemy is None or enemy in skip:
        return None
    box = s["box"]
    if enemy == "habsburgs" and s["round"] < 4 and not turks_hold_habsburgs(s):
        if box["habsburgs"]["influence"] + sum(p["influence"] for p in s["prov"].values()) < INFLUENCE:
            box["habsburgs"]["influence"] += 1
        return "influence"
    if enemy == "habsburgs" and turks_hold_habsburgs(s):
        if enemy_supply(s, "turks") > 0:
            box["habsburgs"]["turks"] += 1  # Phase 5: in round 4 a 5 is a Turkish cube there
        return "turks@habsburgs"
    if enemy_supply(s, enemy) > 0:
        box[enemy]["cubes"] += 1
    return enemy


def events(ctx: Ctx) -> None:
    """Phase 5: the start player rolls four dice; each 1-5 strengthens an enemy; 6 nothing."""
    dice = _dice(ctx, "events")
    placed = [_place_die(ctx, d, set()) for d in dice]
    ctx.emit("Events", label=f"gods_playground/{ctx.s['round']}/events/dice", dice=dice, placed=placed)


def elections(ctx: Ctx) -> None:
    """Phase 6: clockwise from Royal Prussia, the sole most noble cubes wins: one cube off,
    one disc on the Sejm space of the province; a tie: nobody (fact 47)."""
    s = ctx.s
    results = {}
    for p in board(s)["province_order"]:
        cubes = s["prov"][p]["nobles"]
        top = max(cubes.values())
        winners = [seat for seat, n in cubes.items() if n == top]
        if top == 0 or len(winners) > 1 or s["sejm"][p] is not None:
            results[p] = None
            continue
        seat = winners[0]
        cubes[seat] -= 1
        if disc_supply(s, seat) > 0:
            s["sejm"][p] = seat
        results[p] = seat
    ctx.emit("Elections", winners=results)


def cossacks_to_tatars(ctx: Ctx) -> None:
    """Phase 9: Cossacks nobody hired go to the Tatars' box."""
    s = ctx.s
    n = s["cossack_box"]
    if n:
        s["cossack_box"] = 0
        s["box"]["tatars"]["cossacks"] += n
        ctx.emit("CossacksJoinTatars", count=n)


def strength(s: dict[str, Any], enemy: str) -> int:
    """An enemy's total strength: its track for the round + cubes on its box (+ Cossacks on
    the Tatars' box); the Turks in round 4 have 3, or 10 holding the Habsburgs' box (fact 37)."""
    b = board(s)
    r = s["round"]
    box = s["box"][enemy]
    if enemy == "turks" and turkish_habsburgs(s):
        return b["turks_round4_with_box"] + box["cubes"]
    if enemy == "habsburgs" and turkish_habsburgs(s):
        return b["turks_round4_with_box"] + box["turks"]
    base = b["enemies"][enemy]["strength"][r - 1] or 0
    return base + box["cubes"] + box["cossacks"]


def hit_cubes(s: dict[str, Any], enemy: str) -> int:
    """Every hit cube on an enemy box: noble and royal alike (translator's note 13)."""
    box = s["box"][enemy]
    return sum(box["nobles"].values()) + box["royal"]


def invasion_dice(ctx: Ctx) -> None:
    """Phase 11 opening roll: as Events, but a treaty breaks on two dice of its enemy (no
    cubes for those dice), and in round 2 each 6 turns a Cossack (at most 2)."""
    s = ctx.s
    b = board(s)
    dice = _dice(ctx, "invasions")
    treaty = next((e for e in ENEMIES if s["box"][e]["treaty"]), None)
    skip: set[str] = set()
    if treaty is not None and sum(1 for d in dice if d == b["enemies"][treaty]["die"]) >= 2:
        s["box"][treaty]["treaty"] = False
        skip.add(treaty)
        ctx.emit("TreatyBroken", enemy=treaty)
    placed = [_place_die(ctx, d, skip) for d in dice]
    defected = 0
    if s["round"] == 2:
        for _ in range(min(2, dice.count(6))):
            defected += _defect(s)
    ctx.emit("InvasionDice", label=f"gods_playground/{s['round']}/invasions/dice", dice=dice, placed=placed,
             cossacks_defected=defected)


def _defect(s: dict[str, Any]) -> int:
    """One Cossack moves to the Tatars' box: from Ukraine first, else from the Cossacks' box."""
    if s["prov"]["ukraine"]["cossacks"]:
        s["prov"]["ukraine"]["cossacks"] -= 1
    elif s["cossack_box"]:
        s["cossack_box"] -= 1
    else:
        return 0
    s["box"]["tatars"]["cossacks"] += 1
    return 1


def defend(ctx: Ctx, province: str, invader: str, label: str) -> dict[str, Any]:
    """Every Polish unit on the province rolls once; hits remove the invader's cubes first,
    then other colours (Phase 11). A cannon adds +1: from rules version 3 any cannon on the
    province to every roll there (Phase 10: „Ha a tartományon van ágyú, minden dobás
    eredményéhez +1 járul.”), before only each seat's own to its rolls (the Cossacks' with
    any). The Cossacks: see :func:`cossacks_defend`."""
    s = ctx.s
    prov = s["prov"][province]
    rng = ctx.stream(label, words=f"defence of {province} against {enemy_words(invader)}")
    hits, rolls = 0, {}
    any_cannon = any(u["can"] for u in prov["units"].values())
    for seat in s["seats"]:
        u = prov["units"][seat]
        if u["inf"] or u["cav"]:
            cannon = any_cannon if rule("cannon_on_province") else bool(u["can"])
            r = roll(rng, {"inf": u["inf"], "cav": u["cav"]}, cannon)
            u["inf"] -= r["lost"]["inf"]
            u["cav"] -= r["lost"]["cav"]
            hits += r["hits"]
            rolls[seat] = r["rolls"]
    unit_hits, removed = hits, 0
    if cossacks_defend(prov, invader):
        r = roll(rng, {"cossack": prov["cossacks"]}, any_cannon)
        prov["cossacks"] -= r["lost"]["cossack"]
        s["cossack_box"] += r["lost"]["cossack"]
        rolls["cossacks"] = r["rolls"]
        hits += r["hits"]
        if rule("cossacks_tatars_only"):  # version 3: their hits take Tatar cubes only (first)
            removed = min(r["hits"], prov["enemy"]["tatars"])
            prov["enemy"]["tatars"] -= removed
        else:
            unit_hits = hits
    removed += remove_enemy(prov, unit_hits, invader)
    return {"label": f"gods_playground/{s['round']}/{label}", "rolls": rolls, "hits": hits, "removed": removed}


def cossacks_defend(prov: dict[str, Any], invader: str) -> bool:
    """True when the Cossacks on a province roll in its defence. Rules version 3: only against
    the Tatars (Phase 10: „A kozákok csak a tatárokat támadják.”; Phase 11: the combat rules are
    those of the campaigns) and only beside a Polish infantry or cavalry there (Phase 10: they
    join a player's attacking unit; reference page: „A felfogadott kozákokat bárki
    felhasználhatja, akinek van lovasa vagy gyalogosa Ukrajnán.”). Versions 1-2: whenever
    any stand there."""
    if not prov["cossacks"]:
        return False
    if not rule("cossacks_tatars_only"):
        return True
    return invader == "tatars" and any(u["inf"] + u["cav"] for u in prov["units"].values())


def arrive(ctx: Ctx, province: str, enemy: str, count: int, label: str) -> dict[str, Any]:
    """``count`` cubes of ``enemy`` enter a province: influence markers go, the units there
    defend, then colours clash (Phase 11 and the reference page's order 1-2-3)."""
    s = ctx.s
    prov = s["prov"][province]
    prov["enemy"][enemy] += count
    prov["entered"] = True
    prov["influence"] = 0
    fight = defend(ctx, province, enemy, label)
    fight["clash"] = clash(prov, enemy)
    return fight


def invasions(ctx: Ctx) -> None:
    """Phase 11: each enemy in order attacks with (strength - hit cubes) cubes unless a
    treaty holds; the Habsburgs use influence in rounds 1-3; the Turks strike the Habsburgs'
    box in round 3."""
    s = ctx.s
    for enemy in board(s)["enemy_order"]:
        if enemy == "habsburgs" and s["round"] < 4 and not turks_hold_habsburgs(s):
            _influence(ctx)
            continue
        if s["box"][enemy]["treaty"]:
            ctx.emit("Invasion", enemy=enemy, treaty=True, cubes=0)
            continue
        force = strength(s, enemy) - hit_cubes(s, enemy)
        turkish = turkish_habsburgs(s) if rule("turks_fixed_for_round") else turks_hold_habsburgs(s)  # v1: any round
        kind = "turks" if enemy == "habsburgs" and turkish else enemy
        count = min(max(0, force), enemy_supply(s, kind))
        if enemy == "turks" and s["round"] == 3:
            _turks_on_habsburgs(ctx, count, force)
            continue
        if count <= 0:
            ctx.emit("Invasion", enemy=enemy, strength=strength(s, enemy), hit_cubes=hit_cubes(s, enemy), cubes=0)
            continue
        target = province_of(s, enemy)
        fight = arrive(ctx, target, kind, count, f"invasions/{enemy}/defence")
        ctx.emit("Invasion", enemy=enemy, strength=strength(s, enemy), hit_cubes=hit_cubes(s, enemy),
                 cubes=count, province=target, defence=fight)


def _turks_on_habsburgs(ctx: Ctx, count: int, force: int) -> None:
    s = ctx.s
    box = s["box"]["habsburgs"]
    if count > 0:
        box["influence"] = 0  # removed at once (Phase 11, The Ottoman Empire)
        box["turks"] += count
        if rule("turks_fixed_for_round"):
            s["turks_overran"] = True
    ctx.emit("Invasion", enemy="turks", strength=strength(s, "turks"), hit_cubes=hit_cubes(s, "turks"),
             cubes=max(0, count), province="habsburgs_box")


def _influence(ctx: Ctx) -> None:
    """Rounds 1-3: each marker on the Habsburgs' box cancels a noble cube on Greater Poland,
    taken in turn order from the start player; the rest go onto Greater Poland."""
    s = ctx.s
    box = s["box"]["habsburgs"]
    gp = s["prov"]["greater_poland"]
    removed = {seat: 0 for seat in s["seats"]}
    while box["influence"] and nobles_on(gp):
        for seat in turn_order(s):
            if box["influence"] and gp["nobles"][seat]:
                gp["nobles"][seat] -= 1
                box["influence"] -= 1
                removed[seat] += 1
    left = box["influence"]
    box["influence"] = 0
    if left and enemy_cubes(gp) == 0:
        gp["influence"] += left
    ctx.emit("Influence", removed=removed, onto_greater_poland=left if enemy_cubes(gp) == 0 else 0)


def influence_strikes(s: dict[str, Any], province: str, markers: int) -> dict[str, int]:
    """Markers arriving on a province cancel noble cubes there in turn order (Phase 13)."""
    prov = s["prov"][province]
    removed = {seat: 0 for seat in s["seats"]}
    while markers and nobles_on(prov):
        for seat in turn_order(s):
            if markers and prov["nobles"][seat]:
                prov["nobles"][seat] -= 1
                removed[seat] += 1
                markers -= 1
    prov["influence"] += markers
    return removed


def province_enemy(prov: dict[str, Any]) -> str | None:
    """The colour with the most cubes on a province (enemy order breaks ties)."""
    top = max(prov["enemy"].values())
    return None if top == 0 else next(e for e in ENEMIES if prov["enemy"][e] == top)
