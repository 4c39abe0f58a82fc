"""Winter (rule 4.2): grain loss, famine revolts, scoring, end of the year or of the game."""

from __future__ import annotations

from typing import Any

from adjudicator.wallenstein import combat
from adjudicator.wallenstein.data import BUILDINGS, counties, events, famine_row, rules
from adjudicator.wallenstein.notes import chosen
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.setup import draw_events
from adjudicator.wallenstein.state import Ctx, hand


def grain_loss(ctx: Ctx) -> None:
    """Rule 4.2.1: the remaining event card's grain loss; grain stops at 0 (provisional reading)."""
    state = ctx.state
    card = state["events"]["face_up"][0]
    loss = events()[card]["winter_grain_loss"]
    for p in state["players"].values():
        p["grain"] = max(0, p["grain"] - loss)
    ctx.emit("Winter", event=card, grain_loss=loss, grain={s: p["grain"] for s, p in state["players"].items()})


def famine(ctx: Ctx, orders: dict[str, list[str]] | None = None) -> None:
    """Rule 4.2.2: seats short of grain suffer famine revolts, in autumn turn order.

    "Ha valakinél több lázadás is kitör, ő dönti el, milyen sorrendben próbálja leverni
    ezeket": a seat's ``FAMINE`` order (``orders[seat]``, counties first to last) sets the
    order its revolts are fought in; counties it does not list follow in the order drawn.
    """
    state = ctx.state
    for seat in state["turn_order"]:
        cards = hand(state, seat)
        shortfall = len(cards) - state["players"][seat]["grain"]
        row = famine_row(shortfall)
        if row is None:
            continue
        label = ctx.label("famine", seat)
        # the left neighbour draws cards at random from the hand: a seeded draw
        drawn = ctx.stream(label).shuffled(cards)[: row["revolting_counties"]]
        ctx.emit("Famine", label=label, seat=seat, counties=len(cards), grain=state["players"][seat]["grain"],
                 shortfall=shortfall, revolts=row["revolting_counties"], extra_peasants=row["extra_peasants"],
                 drawn=drawn)
        wanted = (orders or {}).get(seat, []) if rule("famine_order") else []
        fight = [c for c in wanted if c in drawn] + [c for c in drawn if c not in wanted]
        if fight != drawn:
            ctx.emit("FamineOrder", seat=seat, order=fight)
        _order_note(ctx, seat, wanted, [c for c in drawn if c not in wanted])
        for county in fight:
            combat.revolt(ctx, seat, county, "famine", row["extra_peasants"])


def _order_note(ctx: Ctx, seat: str, wanted: list[str], unlisted: list[str]) -> None:
    """Tell the seat when two or more of its famine revolts were fought in the order drawn."""
    if len(unlisted) < 2:
        return
    why = "You sent no FAMINE line" if not wanted else f"{' and '.join(unlisted)} were not in your FAMINE line"
    chosen(ctx, seat, "famine_order", order=unlisted,
           note=f"{why}: your famine revolts in {', '.join(unlisted)} were fought in the order drawn (rule 4.2.2 lets "
                "you choose the order: FAMINE <county>, ... in your autumn plan).")


def score(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Rule 4.2.3: 1 VP per county and building; region majorities 3/2/1, tied leaders 1 fewer."""
    table = rules()["scoring"]
    detail = {s: {"counties": 0, "buildings": 0, "majorities": [], "total": 0} for s in state["seats"]}
    regions: dict[str, dict[str, dict[str, int]]] = {}
    for name, c in state["counties"].items():
        if c["owner"] is None:
            continue
        detail[c["owner"]]["counties"] += table["county"]
        detail[c["owner"]]["buildings"] += table["building"] * len(c["buildings"])
        per = regions.setdefault(counties()[name]["region"], {b: {} for b in BUILDINGS})
        for b in c["buildings"]:
            per[b][c["owner"]] = per[b].get(c["owner"], 0) + 1
    for region in sorted(regions):
        for b in BUILDINGS:
            held = regions[region][b]
            if not held:
                continue
            top = max(held.values())
            leaders = [s for s in state["seats"] if held.get(s) == top]
            points = table["majority"][b] - (table["tie_penalty"] if len(leaders) > 1 else 0)
            for s in leaders:
                detail[s]["majorities"].append({"region": region, "building": b, "points": points, "tied": len(leaders) > 1})
    for d in detail.values():
        d["total"] = d["counties"] + d["buildings"] + sum(m["points"] for m in d["majorities"])
    return detail


def resolve(ctx: Ctx, last: bool, famine_orders: dict[str, list[str]] | None = None) -> None:
    """The whole winter; after the last one the game is over (rule 6)."""
    state = ctx.state
    ctx.season = "winter"
    ctx.battles, ctx.battle_sites = 0, []
    grain_loss(ctx)
    famine(ctx, famine_orders)
    detail = score(state)
    for seat, d in detail.items():
        state["players"][seat]["vp"] += d["total"]
    ctx.emit("Scoring", detail=detail, vp={s: p["vp"] for s, p in state["players"].items()})
    state["events"]["used"] += state["events"]["face_up"]
    state["events"]["face_up"] = []
    if last:
        finish(ctx)
        return
    markers = 0
    for c in state["counties"].values():
        markers += c["markers"]
        c["markers"] = 0
    for p in state["players"].values():
        p["grain"] = 0
    ctx.emit("YearEnd", grain_reset=True, markers_removed=markers)
    draw_events(ctx)


def finish(ctx: Ctx) -> None:
    """Rule 6: most VP wins; a tie goes to more Taler; a tie in both has no single winner."""
    state = ctx.state
    players = state["players"]
    ranking = sorted(state["seats"], key=lambda s: (-players[s]["vp"], -players[s]["taler"], state["seats"].index(s)))
    best = ranking[0]
    tied = [s for s in ranking if (players[s]["vp"], players[s]["taler"]) == (players[best]["vp"], players[best]["taler"])]
    state["phase"], state["ranking"] = "over", ranking
    state["winner"] = best if len(tied) == 1 else None
    ctx.emit("GameOver", vp={s: players[s]["vp"] for s in state["seats"]},
             taler={s: players[s]["taler"] for s in state["seats"]}, ranking=ranking, winner=state["winner"])
