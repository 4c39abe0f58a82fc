"""Battles applied to the state: throw through the tower, resolve, move the cubes (rule 5).

Armies thrown in leave the board (or the supply, for bonus armies); everything lying in
the tray is thrown in with them (rule 5.1). Of the cubes that fall out, the two sides'
go to the supply or back onto the county; cubes of uninvolved owners, and peasants that
fight for nobody, stay in the tray (rule 5.5).
"""

from __future__ import annotations

from typing import Any

from adjudicator.recorded import label_words
from adjudicator.wallenstein import tower
from adjudicator.wallenstein.battle import Outcome, resolve
from adjudicator.wallenstein.data import rules
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.state import PEASANTS, Ctx, colours, empty_cubes, nonzero, reading


def _from_supply(ctx: Ctx, seat: str, wanted: int) -> int:
    """Take up to ``wanted`` armies from ``seat``'s supply; return how many were taken."""
    player = ctx.state["players"][seat]
    got = min(wanted, player["supply"])
    player["supply"] -= got
    return got


def _peasants(ctx: Ctx, wanted: int) -> int:
    """Take up to ``wanted`` peasants from the supply; the box has 20 ("20 zöld fakocka", rule 1).

    The rulebook says nothing about running short; the peasants fight with what the supply
    still has (the others are in the tower or the tray), and the short draw is recorded.
    """
    got = min(wanted, ctx.state["peasants"])
    ctx.state["peasants"] -= got
    if got < wanted and rule("box_pieces"):  # reported from version 1.1 on
        box = rules()["pieces"]["value"]["peasants"]
        ctx.emit("OutOfPieces", piece="peasants", box=box, wanted=wanted, taken=got,
                 note=f"Only {got} of the {wanted} peasant armies called for are in the supply "
                      f"(the box has {box}; the rest are in the tower or the tray).")
    return got


def devastate(ctx: Ctx, county: str) -> None:
    """Rules 5.5.1/5.5.2: buildings and revolt markers go, the card goes beside the board."""
    c = ctx.state["counties"][county]
    ctx.hand_over(c["owner"], county)
    ctx.emit("Devastated", county=county, owner=c["owner"], buildings=list(c["buildings"]), markers=c["markers"])
    c.update(owner=None, buildings=[], markers=0)


def _throw(ctx: Ctx, thrown: dict[str, int], county: str) -> tuple[dict[str, int], dict[str, int], str]:
    """Throw ``thrown`` plus the tray into the tower for a battle in ``county``; return
    ``(out, tray_in, label)``.

    The draw's label counts the season's battles (``.../battle/2/tower``: it keys the seeded
    draw, so it never changes); a recorded line names the county, as the rulebook's examples
    do: ``1618-summer battle 2 for Anhalt`` (or ``battle for Anhalt``: the second such line is
    the season's second battle for Anhalt; the old ``battle 2 tower`` is read too).
    """
    state = ctx.state
    tray_in = dict(state["tray"])
    ctx.battles += 1
    ctx.battle_sites.append(county)
    label = ctx.label("battle", ctx.battles, "tower")
    words: list[tuple[str, int]] = []
    if ctx.chance.names_draws:  # only recorded chance reads (or writes) the draw's words
        season = label_words(ctx.label())
        words = [(f"{season} battle {ctx.battles} for {county}", 0),
                 (f"{season} battle for {county}", ctx.battle_sites.count(county) - 1)]
    incoming = {c: thrown.get(c, 0) + tray_in.get(c, 0) for c in colours(state)}
    out, after = tower.throw(state["tower"], incoming, colours(state), ctx.stream(label, words))
    state["tower"], state["tray"] = after, empty_cubes(state)
    return out, tray_in, label


def _settle(ctx: Ctx, out: dict[str, int], sides: tuple[str | None, str | None], fighting_peasants: bool) -> None:
    """Return the fighting sides' fallen cubes to supply; the rest stays in the tray."""
    state = ctx.state
    for colour, n in out.items():
        if colour == PEASANTS:
            if fighting_peasants:
                state["peasants"] += n
            else:
                state["tray"][PEASANTS] += n
        elif colour in sides:
            state["players"][colour]["supply"] += n
        else:
            state["tray"][colour] += n


def _record(ctx: Ctx, outcome: Outcome, **fields: Any) -> None:
    state = ctx.state
    ctx.emit("Battle", **fields, attacker_out=outcome.attacker_out,
             defender_out=outcome.defender_out, result=outcome.result, peasant_only_tie=outcome.peasant_only_tie,
             losses={"attacker": outcome.attacker_losses, "defender": outcome.defender_losses,
                     "peasants": outcome.peasant_losses},
             survivors=outcome.survivors, tower=nonzero(state["tower"]), tray=nonzero(state["tray"]))


def attack(ctx: Ctx, seat: str, origin: str, target: str, armies: int) -> None:
    """Manoeuvre A/B into a county not ``seat``'s own (rules 4.1.3 item 9, 5.3, 5.5.1)."""
    state = ctx.state
    tgt = state["counties"][target]
    defender = tgt["owner"]
    state["counties"][origin]["armies"] -= armies
    thrown = {seat: armies}
    bonus = {"attack": 0, "defend": 0, "palace": 0}
    if ctx.has_tile(seat, "attack"):  # bonus tile: +1 army when attacking (rule 4.1.2)
        bonus["attack"] = _from_supply(ctx, seat, 1)
    peasants = 0
    if defender is None:  # rule 5.3: a neutral county is defended by 1 peasant (2 under the event)
        ev = ctx.effect("neutral_peasants")
        peasants = _peasants(ctx, ev["peasants"] if ev else rules()["neutral_peasants"]["value"])
    else:
        thrown[defender] = tgt["armies"]
        tgt["armies"] = 0
        if ctx.has_tile(defender, "defend"):  # bonus tile: +1 army when defending
            bonus["defend"] = _from_supply(ctx, defender, 1)
        ev = ctx.effect("palace_defence")
        if ev and "palace" in tgt["buildings"]:  # event: +1 defending army in a county with a palace
            bonus["palace"] = _from_supply(ctx, defender, ev["armies"])
        thrown[defender] += bonus["defend"] + bonus["palace"]
    thrown[seat] += bonus["attack"]
    thrown[PEASANTS] = peasants
    out, tray_in, label = _throw(ctx, thrown, target)
    side = "defender" if tgt["markers"] == 0 else "none"  # rule 5.5.1
    outcome = resolve(out.get(seat, 0), out.get(defender, 0) if defender else 0, out[PEASANTS], side)
    _settle(ctx, out, (seat, defender), side != "none")
    _record(ctx, outcome, label=label, cause="attack", county=target, attacker=seat, defender=defender, **{"from": origin},
            thrown=nonzero(thrown), bonus=bonus, tray_in=nonzero(tray_in), out=nonzero(out), peasants_side=side)
    _apply(ctx, outcome, seat, defender, target)


def _apply(ctx: Ctx, outcome: Outcome, seat: str, defender: str | None, target: str) -> None:
    state = ctx.state
    tgt = state["counties"][target]
    if outcome.result == "attacker":
        state["players"][seat]["supply"] -= outcome.survivors
        ctx.hand_over(defender, target)
        tgt.update(owner=seat, armies=outcome.survivors)
        ctx.emit("Conquest", seat=seat, county=target, armies=outcome.survivors, **{"from": defender})
    elif outcome.result == "defender":
        state["players"][defender]["supply"] -= outcome.survivors  # type: ignore[index]
        tgt["armies"] = outcome.survivors
    else:
        devastate(ctx, target)


def revolt(ctx: Ctx, seat: str, county: str, cause: str, extra: int = 0) -> bool:
    """Peasants against a player (rules 5.3, 5.4, 5.5.2); True when the player wins."""
    state = ctx.state
    c = state["counties"][county]
    peasants = _peasants(ctx, c["markers"] + extra)
    ctx.emit("Revolt", seat=seat, county=county, cause=cause, markers=c["markers"], peasants=peasants)
    thrown = {seat: c["armies"], PEASANTS: peasants}
    c["armies"] = 0
    bonus: dict[str, int] = {}
    ev = ctx.effect("palace_defence")
    if ev and "palace" in c["buildings"] and rule("reading_options") and reading(state, "palace_event") == "revolts":
        # the GM's reading: in a revolt the player "számít védekezőnek" (counts as the defender), 5.3
        bonus["palace"] = _from_supply(ctx, seat, ev["armies"])
        thrown[seat] += bonus["palace"]
    out, tray_in, label = _throw(ctx, thrown, county)
    outcome = resolve(0, out.get(seat, 0), out[PEASANTS], "attacker")
    _settle(ctx, out, (seat,), True)
    _record(ctx, outcome, label=label, cause=cause, county=county, attacker=PEASANTS, defender=seat, **{"from": None},
            thrown=nonzero(thrown), bonus=bonus, tray_in=nonzero(tray_in), out=nonzero(out), peasants_side="attacker")
    if outcome.result == "defender":
        state["players"][seat]["supply"] -= outcome.survivors
        c["armies"] = outcome.survivors
        return True
    devastate(ctx, county)
    return False
