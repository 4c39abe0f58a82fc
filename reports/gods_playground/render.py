"""A plain God's Playground report from one viewer's view: the round, each seat, the
provinces, the enemy boxes, the Sejm, what is awaited, the viewer's own plan, and the
footer every report carries. The HTML part is the same text, escaped, in a <pre>."""

from __future__ import annotations

import html
from typing import Any

from reports.common import footer, viewer_label
from reports.model import ReportInput, Rendered

PROVINCE_NAMES = {"royal_prussia": "Royal Prussia", "lithuania": "Lithuania", "ukraine": "Ukraine",
                  "little_poland": "Little Poland", "greater_poland": "Greater Poland"}


def _estates(prov: dict[str, Any]) -> str:
    out = []
    for e in prov["estates"]:
        mark = (e["owner"] or "-") + ("+steward" if e["steward"] else "") + ("+town" if e["town"] else "")
        out.append(f"{e['value']}:{mark}")
    return " ".join(out)


def _counts(d: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items() if v) or "none"


def lines(inp: ReportInput) -> list[str]:
    """The report's text lines."""
    v = inp.view
    out = [f"God's Playground {inp.game_id}: report for {viewer_label(inp.viewer)} after {inp.turn}",
           f"Round {v['round']} of 4, phase {v['phase']}; start player: {v['start_player']}"]
    if v["over"]:
        out.append(f"The game is over. Winner: {v['winner']}")
    out += ["", "Seats:"]
    for seat, row in v["seats"].items():
        out.append(f"  {seat:6} VP {row['vp']:3}  thalers {row['money']:3}  cubes in supply {row['noble_cubes_supply']:2}"
                   f"  nobles in hand {row['nobles_in_hand']:2}  discs in supply {row['discs_supply']:2}")
    out += ["", "Provinces (estates as printed value:owner, from the centre to the border):"]
    for key, prov in v["provinces"].items():
        out.append(f"  {PROVINCE_NAMES.get(key, key)}: estate track {prov['estate_track']}; {_estates(prov)}")
        out.append(f"    noble cubes: {_counts(prov['noble_cubes'])}; enemy cubes: {_counts(prov['enemy_cubes'])}"
                   f"; influence {prov['influence']}; Cossacks {prov['cossacks']}")
    out += ["", "Enemy boxes:"]
    for key, e in v["enemies"].items():
        out.append(f"  {e['name']}: strength {e['strength']}, cubes {e['cubes']}, hit cubes {e['hit_cubes']}"
                   f" ({_counts(e['noble_cubes'])}; king {e['royal_cubes']}), VP {e['vp']}"
                   + (", TREATY" if e["treaty"] else "") + (f", Turks {e['turks']}" if e["turks"] else ""))
    sejm = ", ".join(f"{PROVINCE_NAMES.get(k, k)}: {s or '-'}" for k, s in v["sejm"].items())
    out += ["", f"Sejm: {sejm}", f"Royal army: {_counts(v['royal_army'])}",
            f"Nobles placed: {v['nobles']}"]
    p = v.get("pending")
    if p:
        out += ["", f"Awaited: {', '.join(p['seats'])} for {p['kind']} ({p['turn']})"]
        failed = (p.get("info") or {}).get("plan_failed") or {}
        if inp.viewer in failed:
            out.append(f"Your pre-sent order for this decision cannot be used: {failed[inp.viewer]}")
    plans = (v.get("plans") or {}).get(inp.viewer)
    if plans is not None:
        out.append(f"Your pre-sent orders still to use: {len(plans)} line(s)")
    if inp.order_help:
        out += ["", inp.order_help]
    out += [""] + list(footer(inp, f"Report for {viewer_label(inp.viewer)}.", "Provisional board figures in use:"))
    return out


def render(inp: ReportInput) -> Rendered:
    """The report for ``inp.viewer`` (text, and the same text as HTML)."""
    text = "\n".join(line.rstrip() for line in lines(inp)) + "\n"
    return Rendered(text=text, html=f"<html><body><pre>{html.escape(text)}</pre></body></html>\n")
