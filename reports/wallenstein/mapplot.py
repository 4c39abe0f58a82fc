"""The Wallenstein map picture: counties coloured by owner, as a deterministic PNG.

Drawn with matplotlib's object API (no pyplot, so no global figure state) on the Agg
canvas, and saved without metadata, so the same view gives byte-identical bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon

from reports import colors as col
from reports.wallenstein.geometry import County, borders, counties, extent

#: savefig options that keep the PNG free of version strings and timestamps.
PNG_OPTS: dict[str, Any] = {"format": "png", "metadata": {"Software": None}, "dpi": 100}
FIGSIZE = (9.0, 9.6)
REGION_LINE = "#3b2a14"
BATTLE = "#d40000"
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
    return save_png(map_figure(view, title))


def save_png(fig: Figure) -> bytes:
    """A figure as PNG bytes without metadata (byte-identical for identical figures)."""
    buf = io.BytesIO()
    fig.savefig(buf, **PNG_OPTS)
    return buf.getvalue()


def map_figure(view: Mapping[str, Any], title: str) -> Figure:
    """The map of ``view`` as a matplotlib figure (every artist added, not yet drawn)."""
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
    _draw_borders(ax)
    for county in geo.values():
        _draw_labels(ax, county, known.get(county.name), palette, county.name in battles)
    _region_names(ax, geo)
    xmin, xmax, ymin, ymax = extent([c.cell for c in geo.values()])
    ax.set_xlim(xmin - 1.3, xmax)  # room on the left for the legend
    ax.set_ylim(ymin, ymax)
    _legend(ax, palette)
    fig.suptitle(title, fontsize=13, y=0.985)
    return fig


#: The county in whose cell each region's name is written (spread out, so names never collide).
REGION_ANCHOR = {"Brandenburg": ("Neumark", -0.3), "Sachsen": ("Lausitz", -0.42),
                 "Kurpfalz": ("Erzbm. Trier", -0.42), "Bayern": ("Württemberg", -0.42),
                 "Österreich": ("Mähren", -0.42)}


def _region_names(ax: Any, geo: dict[str, County]) -> None:
    """Each region's name, large and faint, behind the labels of one of its counties."""
    for region, (anchor, dy) in REGION_ANCHOR.items():
        x, y = geo[anchor].centre
        ax.text(x, y + dy, region.upper(), ha="center", va="center", fontsize=15, color=REGION_LINE,
                alpha=0.3, fontweight="bold", zorder=1.5)


def _in_play(c: Mapping[str, Any] | None) -> bool:
    return c is not None and not c.get("out_of_play")


def _draw_cell(ax: Any, county: County, c: Mapping[str, Any] | None, palette: dict[str, str]) -> None:
    if not _in_play(c):
        ax.add_patch(Polygon(county.cell, closed=True, fc=col.OUT_OF_PLAY, ec="#e6e6e6", hatch="///", lw=0))
        return
    assert c is not None
    owner = c.get("owner")
    fill = col.lighten(palette[owner], 0.5) if owner in palette else col.NEUTRAL
    ax.add_patch(Polygon(county.cell, closed=True, fc=fill, ec="none", lw=0))


def _draw_borders(ax: Any) -> None:
    """Thin lines inside regions, thick ones around regions and the map, dashed links."""
    b = borders()
    ax.add_collection(LineCollection(b.inner, colors="#8a7a60", linewidths=0.7, zorder=2))
    ax.add_collection(LineCollection(b.region + b.closed, colors=REGION_LINE, linewidths=2.2, zorder=3,
                                     capstyle="round"))
    if b.closed:  # drawn touching on this schematic map, but no border in the game
        mids = [((p[0] + q[0]) / 2, (p[1] + q[1]) / 2) for p, q in b.closed]
        ax.plot([m[0] for m in mids], [m[1] for m in mids], "x", color=REGION_LINE, ms=6, mew=1.6, zorder=4)
    ax.add_collection(LineCollection(b.links, colors="#222222", linewidths=1.2, linestyles=(0, (4, 3)),
                                     zorder=5, alpha=0.8))


def _draw_labels(ax: Any, county: County, c: Mapping[str, Any] | None, palette: dict[str, str],
                 battle: bool) -> None:
    x, y = county.centre
    short = county.name.replace("Erzbm. ", "").replace("Bm. ", "").replace("Hm. ", "").replace("Gft. ", "")
    grey = not _in_play(c)
    if grey:
        ax.text(x, y, f"{short}\n(out of play)", ha="center", va="center", fontsize=6.5, color="#444444",
                zorder=8, bbox={"boxstyle": "round,pad=0.15", "fc": "#eeeeee", "ec": "none", "alpha": 0.85})
        return
    ax.text(x, y + 0.2, short, ha="center", va="center", fontsize=7.5, zorder=8, color="#1a1a1a",
            fontweight="bold")
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
