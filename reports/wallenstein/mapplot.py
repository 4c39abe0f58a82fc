"""The Wallenstein map picture: counties coloured by owner, as a deterministic PNG.

Drawn with matplotlib's object API (no pyplot, so no global figure state) on the Agg
canvas, and saved without metadata, so the same view gives byte-identical bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon

from reports import colors as col
from reports.wallenstein.geometry import County, cell_edges, counties

#: savefig options that keep the PNG free of version strings and timestamps.
PNG_OPTS: dict[str, Any] = {"format": "png", "metadata": {"Software": None}, "dpi": 100}
FIGSIZE = (9.0, 9.6)
REGION_LINE = "#3b2a14"
BATTLE = "#d40000"
#: Where each region's name is written (projected map units), outside the counties.
REGION_LABELS = {"Brandenburg": (8.3, 55.05), "Kurpfalz": (2.75, 49.9), "Bayern": (6.2, 46.35),
                 "Österreich": (10.7, 46.55), "Sachsen": (10.3, 51.95)}
BUILDING_GLYPH = {"palace": "P", "church": "C", "trade": "T"}


def battle_counties(view: Mapping[str, Any]) -> set[str]:
    """Counties fought over this season (from the view's log)."""
    found = set()
    for e in view.get("log", []):
        if e.get("type") == "Battle":
            where = e.get("county") or e.get("to")
            if isinstance(where, str):
                found.add(where)
    return found


def render_map(view: Mapping[str, Any], title: str) -> bytes:
    """The map of ``view`` as PNG bytes."""
    fig = Figure(figsize=FIGSIZE)
    ax = fig.add_axes((0.0, 0.0, 1.0, 0.95))
    ax.set_axis_off()
    ax.set_aspect("equal")
    seats = view.get("seats", {})
    palette = col.seat_colors(seats)
    known = view.get("counties", {})
    battles = battle_counties(view)
    geo = counties()
    for county in geo.values():
        _draw_cell(ax, county, known.get(county.name), palette)
    _draw_borders(ax, geo)
    _draw_links(ax, geo)
    for county in geo.values():
        _draw_labels(ax, county, known.get(county.name), palette, county.name in battles)
    for region, (x, y) in REGION_LABELS.items():
        ax.text(x, y, region.upper(), ha="center", va="center", fontsize=11, color=REGION_LINE,
                fontstyle="italic", alpha=0.75)
    ax.set_xlim(1.9, 11.7)
    ax.set_ylim(45.9, 55.4)
    _legend(ax, palette)
    fig.suptitle(title, fontsize=13, y=0.985)
    buf = io.BytesIO()
    fig.savefig(buf, **PNG_OPTS)
    return buf.getvalue()


def _in_play(c: Mapping[str, Any] | None) -> bool:
    return c is not None and not c.get("out_of_play")


def _draw_cell(ax: Any, county: County, c: Mapping[str, Any] | None, palette: dict[str, str]) -> None:
    if not _in_play(c):
        ax.add_patch(Polygon(county.cell, closed=True, fc=col.OUT_OF_PLAY, ec="none", hatch="///", lw=0))
        return
    assert c is not None
    owner = c.get("owner")
    fill = col.lighten(palette[owner], 0.5) if owner in palette else col.NEUTRAL
    ax.add_patch(Polygon(county.cell, closed=True, fc=fill, ec="none", lw=0))


def _draw_borders(ax: Any, geo: dict[str, County]) -> None:
    """Thin lines between counties of a region, thick ones around regions and the map."""
    for county in geo.values():
        for p, q, other in cell_edges(county):
            if other is not None and other < county.name:
                continue  # each inner edge once
            inner = other is not None and geo[other].region == county.region
            closed = other is not None and other not in county.neighbours
            if inner and not closed:
                ax.plot([p[0], q[0]], [p[1], q[1]], color="#8a7a60", lw=0.7, zorder=2)
            else:
                ax.plot([p[0], q[0]], [p[1], q[1]], color=REGION_LINE, lw=2.2, zorder=3,
                        solid_capstyle="round")
            if closed:  # drawn touching on this schematic map, but no border in the game
                mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
                ax.plot([mx], [my], marker="x", color=REGION_LINE, ms=6, mew=1.6, zorder=4)


def _draw_links(ax: Any, geo: dict[str, County]) -> None:
    """Dashed links for neighbours whose cells do not touch on this schematic map."""
    touching = {(county.name, other) for county in geo.values() for _, _, other in cell_edges(county) if other}
    for county in geo.values():
        for other in county.neighbours:
            if county.name < other and (county.name, other) not in touching:
                o = geo[other]
                ax.plot([county.x, o.x], [county.y, o.y], color="#222222", lw=1.0, ls=(0, (4, 3)),
                        zorder=5, alpha=0.8)


def _draw_labels(ax: Any, county: County, c: Mapping[str, Any] | None, palette: dict[str, str],
                 battle: bool) -> None:
    x, y = county.x, county.y
    short = county.name.replace("Erzbm. ", "").replace("Bm. ", "").replace("Hm. ", "").replace("Gft. ", "")
    grey = not _in_play(c)
    ax.text(x, y + 0.2, short, ha="center", va="center", fontsize=7.5, zorder=8,
            color="#777777" if grey else "#1a1a1a", fontweight="bold" if not grey else "normal")
    if grey:
        ax.text(x, y - 0.05, "out of play", ha="center", va="center", fontsize=6, color="#666666", zorder=8)
        return
    assert c is not None
    if battle:
        ax.add_patch(Polygon(county.cell, closed=True, fc="none", ec=BATTLE, lw=2.4, ls=(0, (3, 2)), zorder=6))
        ax.text(x - 0.33, y - 0.05, "\u2694", ha="center", va="center", fontsize=12, color=BATTLE, zorder=9)
    _army_badge(ax, x, y - 0.05, c, palette)
    buildings = " ".join(BUILDING_GLYPH.get(b, b[:1].upper()) for b in c.get("buildings") or [])
    if buildings:
        ax.text(x, y - 0.3, buildings, ha="center", va="center", fontsize=7, zorder=8, family="monospace",
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "#555555", "lw": 0.5})
    revolt = int(c.get("revolt_markers") or 0)
    if revolt:
        ax.text(x + 0.34, y - 0.05, f"\u25b2{revolt}", ha="center", va="center", fontsize=8, color=BATTLE,
                fontweight="bold", zorder=9)


def _army_badge(ax: Any, x: float, y: float, c: Mapping[str, Any], palette: dict[str, str]) -> None:
    armies = int(c.get("armies") or 0)
    owner = c.get("owner")
    if owner not in palette and not armies:
        return
    fc = palette.get(owner, "#777777")
    ax.text(x, y, str(armies), ha="center", va="center", fontsize=9, fontweight="bold", zorder=9,
            color=col.text_on(fc), bbox={"boxstyle": "circle,pad=0.25", "fc": fc, "ec": "#222222", "lw": 0.6})


def _legend(ax: Any, palette: dict[str, str]) -> None:
    handles: list[Any] = [Patch(fc=col.lighten(c, 0.5), ec="#333333", label=s) for s, c in palette.items()]
    handles += [
        Patch(fc=col.NEUTRAL, ec="#333333", label="neutral"),
        Patch(fc=col.OUT_OF_PLAY, ec="#333333", hatch="///", label="out of play"),
        Patch(fc="none", ec=BATTLE, ls="--", lw=2, label="battle this season"),
        Line2D([], [], color="#222222", ls="--", label="neighbours (not touching here)"),
        Line2D([], [], color=REGION_LINE, marker="x", ls="none", label="touching, but no border"),
        Line2D([], [], color=BATTLE, marker="^", ls="none", label="revolt markers"),
        Line2D([], [], color="none", label="P palace  C church  T trade"),
        Line2D([], [], color="none", label="(n) armies in the county"),
    ]
    ax.legend(handles=handles, loc="upper left", fontsize=8, frameon=True, framealpha=0.9,
              bbox_to_anchor=(0.0, 1.0))
