"""The Wallenstein map picture: counties coloured by owner, as a deterministic PNG.

Drawn with matplotlib's object API (no pyplot, so no global figure state) on the Agg
canvas, and saved without metadata, so the same view gives byte-identical bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon

from reports.i18n import DEFAULT, _, lang, speaking
from reports import colors as col
from reports.pngout import LOCK, SharedCanvas, clear_stamps, figure_png
from reports.wallenstein.geometry import County, borders, counties, extent
from reports.wallenstein.labelboxes import BOXES as _BOXES
from reports.wallenstein.labelboxes import LEGEND
from reports.wallenstein.labelboxes import box as _box
from reports.wallenstein.labelboxes import legend_box as _legend_box
from reports.wallenstein.labelboxes import measured_box as _measured_box
from reports.wallenstein.labelboxes import text_box as _text_box

#: savefig options that keep the PNG free of version strings and timestamps (the benchmarks'
#: floor: a plain savefig of the map; pictures are written by :func:`reports.pngout.figure_png`).
#: The map's resolution: 720 x 768 px. A report shows it 640 px wide (see content.py), so
#: 80 dpi still has more pixels than the report shows, and the mail stays small (at
#: 100 dpi the map alone was 100 of a seat mail's 215 KB). Every label is sized in points
#: and placed on the figure, so it scales with the picture and fits as before.
DPI = 80
PNG_OPTS: dict[str, Any] = {"format": "png", "metadata": {"Software": None}, "dpi": DPI}
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


#: What the map draws of a county (a view may hold more; it does not change the picture).
DRAWN = ("owner", "armies", "buildings", "revolt_markers", "out_of_play")


def render_map(view: Mapping[str, Any], title: str) -> bytes:
    """The map of ``view`` as PNG bytes.

    Only what the map draws is used (the seats' colours, each county's drawn fields, the
    counties fought over), so every viewer whose view shows the same board gets the same
    picture, drawn once per process and reused (season reports: once per season)."""
    seats = view.get("seats", {})
    known = view.get("counties", {})
    key = {"title": title, "language": lang(), "palette": list(col.seat_colors(seats).items()),
           "counties": {n: None if c is None else {k: c.get(k) for k in DRAWN} for n, c in known.items()},
           "battles": sorted(battle_counties(view))}
    return _map_png(json.dumps(key, sort_keys=True))


@lru_cache(maxsize=8)
def _map_png(key: str) -> bytes:
    drawn = json.loads(key)
    view = {"seats": {s: {"color": c} for s, c in drawn["palette"]}, "counties": drawn["counties"],
            "log": [{"type": "Battle", "county": c} for c in drawn["battles"]]}
    with speaking(drawn["language"]), LOCK:  # the legend's words: one picture per language
        return save_png(kept_figure(view, drawn["title"]))


def clear_cache() -> None:
    """Forget the pictures drawn so far, the kept figures and the measured label boxes (tests
    of determinism draw twice)."""
    _map_png.cache_clear()
    _BOXES.clear()
    _FIGURES.clear()
    clear_stamps()


def save_png(fig: Figure) -> bytes:
    """A figure as palette PNG bytes at :data:`DPI`, without metadata (byte-identical for
    identical figures). The legend, beside the map on blank page, is drawn once per palette
    and copied in (:func:`reports.pngout.figure_png`'s stamp: the same pixels)."""
    legend = fig.axes[0].get_legend() if fig.axes else None
    stamp = legend if legend is not None and str(legend.get_gid() or "").startswith(LEGEND) else None
    return figure_png(fig, DPI, stamp)


def map_figure(view: Mapping[str, Any], title: str) -> Figure:
    """The map of ``view`` as a new matplotlib figure (every artist added, not yet drawn)."""
    fig = _board(col.seat_colors(view.get("seats", {})))
    _fill(fig, view, title)
    return fig


#: The map figures drawn so far, one per legend (the palette and the language), kept and
#: filled again with the next view: the page, the axes, the cells, the borders and the
#: legend are the same every season (making them was a third of building a map); each
#: season recolours the cells and replaces the labels. Filling a kept figure draws the same
#: pixels as a new one (``tests/reports/test_map_reuse.py``). Used under ``LOCK``.
_FIGURES: dict[str, Figure] = {}


def kept_figure(view: Mapping[str, Any], title: str) -> Figure:
    """The map of ``view`` on the kept figure of its legend (see :data:`_FIGURES`); draw it
    before the next call (under :data:`reports.pngout.LOCK`)."""
    palette = col.seat_colors(view.get("seats", {}))
    key = json.dumps([lang(), *palette.items()])
    fig = _FIGURES.get(key)
    if fig is None:
        if len(_FIGURES) >= 8:
            _FIGURES.clear()
        fig = _FIGURES[key] = _board(palette)
    _fill(fig, view, title)
    return fig


#: The gid of a battle's outline (a season's artist, like every text).
BATTLE_GID = "battle"


def _board(palette: dict[str, str]) -> Figure:
    """A map figure with what does not depend on the season: the axes, each county's cell in
    both looks (in play, coloured by :func:`_fill`; out of play, hatched), the borders, the
    limits and the legend of ``palette``."""
    fig = Figure(figsize=FIGSIZE)
    SharedCanvas(fig)  # a renderer to measure labels with (placing them without overlaps)
    fig._pbem_layout_dpi = fig.dpi  # type: ignore[attr-defined]  # a new figure's: labels are fitted at it
    ax = fig.add_axes((0.0, 0.0, 1.0, 0.95))
    ax.set_axis_off()
    ax.set_aspect("equal")
    geo = counties()
    cells = {county.name: _cells(ax, county) for county in geo.values()}
    fig._pbem_cells = cells  # type: ignore[attr-defined]
    _draw_borders(ax)
    xmin, xmax, ymin, ymax = extent([c.cell for c in geo.values()])
    ax.set_xlim(xmin - 1.3, xmax)  # room on the left for the legend
    ax.set_ylim(ymin, ymax)
    _legend(ax, palette)
    return fig


def _fill(fig: Figure, view: Mapping[str, Any], title: str) -> None:
    """The season of ``view`` on a figure made by :func:`_board` for its palette: the cells
    coloured, the labels of an earlier season replaced by this one's, fitted and placed."""
    # labels are fitted as on a new figure: at its resolution, and before drawing applied the
    # equal aspect to the axes (which moves them, and so every label's place in pixels)
    fig.set_dpi(fig._pbem_layout_dpi)  # type: ignore[attr-defined]
    ax = fig.axes[0]
    ax._set_position(ax.get_position(original=True), which="active")
    for artist in [*ax.texts, *(p for p in ax.patches if p.get_gid() == BATTLE_GID)]:
        artist.remove()
    palette = col.seat_colors(view.get("seats", {}))
    known = view.get("counties", {})
    battles = battle_counties(view)
    geo = counties()
    cells = fig._pbem_cells  # type: ignore[attr-defined]
    for county in geo.values():
        _colour_cell(*cells[county.name], known.get(county.name), palette)
    for county in geo.values():
        _draw_labels(ax, county, known.get(county.name), palette, county.name in battles)
    fig.suptitle(title, fontsize=13, y=0.985)
    _fit_names(fig, ax, geo)
    _declutter(fig, ax)
    _region_names(fig, ax, geo)


#: The gid prefix of a county's name label (``name:`` + the county).
NAME = "name:"
#: Font sizes and positions (offsets from the cell's centre) tried for a name that does not
#: fit its cell: the largest size first, then the nearest spot.
_NAME_SIZES = (7.5, 7.0, 6.5, 6.0, 5.5)
_NAME_SPOTS = sorted(((dx / 20, dy / 20) for dx in range(-6, 7) for dy in range(-6, 5)),
                     key=lambda d: (d[0] ** 2 + d[1] ** 2, d))  # offsets from the usual spot


def name_fits(fig: Figure, ax: Any, text: Any, cell: Any) -> bool:
    """True when the name label's box lies wholly inside its county's cell (measured by
    matplotlib, not remembered: the tests' check of the placement)."""
    from matplotlib.path import Path

    box = text.get_window_extent(fig.canvas.get_renderer())
    return bool(Path(ax.transData.transform(cell)).contains_points(box.corners()).all())


def _fits(ax: Any, text: Any, renderer: Any, cell: Any) -> bool:
    """:func:`name_fits` with the remembered box."""
    from matplotlib.path import Path

    return bool(Path(ax.transData.transform(cell)).contains_points(_text_box(text, renderer).corners()).all())


def _fit_names(fig: Figure, ax: Any, geo: dict[str, County]) -> None:
    """Each county's name inside its cell, clear of the county's other labels: a smaller
    font and another spot in the cell where the first one does not fit (thin counties)."""
    from matplotlib.path import Path

    renderer = fig.canvas.get_renderer()
    names = [t for t in ax.texts if str(t.get_gid() or "").startswith(NAME)]
    boxes: list[Any] = []
    for text in names:
        county = geo[str(text.get_gid())[len(NAME):]]
        if _fits(ax, text, renderer, county.cell):
            continue
        boxes = boxes or [_box(t, renderer) for t in ax.texts if t not in names and t.get_text().strip()]
        cell = Path(ax.transData.transform(county.cell))
        anchor = text.get_position()
        for size in _NAME_SIZES:
            text.set_fontsize(size)
            offset = _first_free(ax, _text_box(text, renderer), anchor, _NAME_SPOTS, boxes, cell)
            if offset is not None:
                break
        if offset is None:  # a cell too thin for any size: the smallest, clear of the other labels
            offset = _first_free(ax, _text_box(text, renderer), anchor, _NAME_SPOTS, boxes) or (0.0, 0.0)
        text.set_position((anchor[0] + offset[0], anchor[1] + offset[1]))


#: The gid of the small labels that may move a little when they would cover another label.
MOVABLE = "movable"
#: Offsets (map units) a small label may move by, nearest first.
_NUDGES = sorted(((dx / 20, dy / 20) for dx in range(-8, 9) for dy in range(-6, 7)),
                 key=lambda d: (d[0] ** 2 + d[1] ** 2, d))


def _first_free(ax: Any, box: Any, anchor: tuple[float, float], spots: Any, taken: list[Any],
                inside: Any = None) -> tuple[float, float] | None:
    """The first offset of ``spots`` (map units) moving ``box`` (drawn at ``anchor``) clear of
    every box in ``taken`` (and wholly ``inside`` a display-space path, when given)."""
    import numpy as np

    base = ax.transData.transform([anchor])[0]
    moved = ax.transData.transform([(anchor[0] + dx, anchor[1] + dy) for dx, dy in spots]) - base
    cand = np.column_stack([box.x0 + moved[:, 0], box.y0 + moved[:, 1], box.x1 + moved[:, 0], box.y1 + moved[:, 1]])
    ok = np.ones(len(spots), dtype=bool)
    if taken:
        t = np.array([b.extents for b in taken])
        hit = ((cand[:, None, 0] < t[None, :, 2]) & (cand[:, None, 2] > t[None, :, 0]) &
               (cand[:, None, 1] < t[None, :, 3]) & (cand[:, None, 3] > t[None, :, 1]))
        ok &= ~hit.any(axis=1)
    if inside is not None:
        corners = np.concatenate([cand[:, [0, 1]], cand[:, [2, 1]], cand[:, [0, 3]], cand[:, [2, 3]]])
        ok &= inside.contains_points(corners).reshape(4, -1).all(axis=0)
    found = np.flatnonzero(ok)
    if not len(found):
        return None
    dx, dy = spots[int(found[0])]
    return float(dx), float(dy)


def _declutter(fig: Figure, ax: Any) -> None:
    """Move each small label (markers, buildings, out-of-play names) that covers another
    label to the nearest spot where it covers none (no label over another label)."""
    import numpy as np

    renderer = fig.canvas.get_renderer()
    texts = [t for t in ax.texts if t.get_text().strip()]
    boxes = [_box(t, renderer) for t in texts]
    legend = ax.get_legend()
    fixed = [_legend_box(legend, renderer)] if legend is not None else []
    # every box's extents at once (as Bbox.overlaps: boxes that touch overlap)
    ext = np.array([b.extents for b in fixed + boxes]).reshape(-1, 4)
    for i, t in enumerate(texts):
        if t.get_gid() != MOVABLE:
            continue
        me = len(fixed) + i
        hit = (ext[:, 0] <= ext[me, 2]) & (ext[:, 2] >= ext[me, 0]) & (ext[:, 1] <= ext[me, 3]) & (ext[:, 3] >= ext[me, 1])
        hit[me] = False
        if not hit.any():
            continue
        others = fixed + boxes[:i] + boxes[i + 1:]
        x, y = t.get_position()
        offset = _first_free(ax, boxes[i], (x, y), _NUDGES, others)
        if offset is not None:
            t.set_position((x + offset[0], y + offset[1]))
            boxes[i] = _box(t, renderer)
            ext[me] = boxes[i].extents


def label_boxes(fig: Figure) -> list[tuple[str, Any]]:
    """Every label drawn on the map with its box in display units (the text, or its
    rounded box where it has one), after laying the figure out; the legend counts as one."""
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    out = [(t.get_text(), _measured_box(t, renderer)) for t in ax.texts if t.get_text().strip()]
    legend = ax.get_legend()
    if legend is not None:
        out.append(("legend", legend.get_window_extent(renderer)))
    return out


def overlapping(boxes: list[tuple[str, Any]]) -> list[tuple[str, str]]:
    """Pairs of labels whose boxes overlap."""
    return [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:] if ba.overlaps(bb)]


#: Where each region's name is tried first (a county of the region and an offset); the name
#: goes to the nearest spot around it where it covers no other label.
REGION_ANCHOR = {"Brandenburg": ("Neumark", -0.3), "Sachsen": ("Lausitz", -0.42),
                 "Kurpfalz": ("Erzbm. Trier", -0.42), "Bayern": ("Württemberg", -0.42),
                 "Österreich": ("Mähren", -0.42)}
#: Offsets (map units) tried around the anchor, nearest first.
_SPOTS = sorted(((dx / 10, dy / 10) for dx in range(-12, 13, 2) for dy in range(-12, 13, 2)),
                key=lambda d: (d[0] ** 2 + d[1] ** 2, d))


def _region_names(fig: Figure, ax: Any, geo: dict[str, County]) -> None:
    """Each region's name, large and faint, where it covers no county's label (tried nearest
    first around its anchor; the first spot when none is free)."""
    renderer = fig.canvas.get_renderer()
    taken = [_box(t, renderer) for t in ax.texts if t.get_text().strip()]
    legend = ax.get_legend()
    if legend is not None:
        taken.append(_legend_box(legend, renderer))
    for region, (anchor, dy) in REGION_ANCHOR.items():
        x, y = geo[anchor].centre
        text = ax.text(x, y + dy, region.upper(), ha="center", va="center", fontsize=13, color=REGION_LINE,
                       alpha=0.3, fontweight="bold", zorder=1.5)
        offset = _first_free(ax, _text_box(text, renderer), (x, y + dy), _SPOTS, taken) or (0.0, 0.0)
        text.set_position((x + offset[0], y + dy + offset[1]))
        taken.append(_text_box(text, renderer))


def short_name(name: str) -> str:
    """A county's name on the map: without its title (``Erzbm. Trier`` -> ``Trier``)."""
    for title in ("Erzbm. ", "Bm. ", "Hm. ", "Gft. ", "Fm. "):
        name = name.replace(title, "")
    return name


def _add(ax: Any, patch: Polygon) -> Polygon:
    """``ax.add_patch`` without growing the data limits (the map sets its limits itself; the
    limits' update was a tenth of building the map)."""
    ax.add_artist(patch)
    return patch


def _in_play(c: Mapping[str, Any] | None) -> bool:
    return c is not None and not c.get("out_of_play")


def _cells(ax: Any, county: County) -> tuple[Polygon, Polygon]:
    """The county's cell in play (its colour set by :func:`_colour_cell`) and out of play
    (hatched), one after the other; one of them is shown."""
    return (_add(ax, Polygon(county.cell, closed=True, fc=col.NEUTRAL, ec="none", lw=0)),
            _add(ax, Polygon(county.cell, closed=True, fc=col.OUT_OF_PLAY, ec="#e6e6e6", hatch="///", lw=0)))


def _colour_cell(in_play: Polygon, out: Polygon, c: Mapping[str, Any] | None, palette: dict[str, str]) -> None:
    """Show the county's cell in play, in its owner's colour (neutral without one), or out of play."""
    shown = _in_play(c)
    in_play.set_visible(shown)
    out.set_visible(not shown)
    if shown:
        assert c is not None
        owner = c.get("owner")
        in_play.set_facecolor(col.lighten(palette[owner], 0.5) if owner in palette else col.NEUTRAL)


def _draw_borders(ax: Any) -> None:
    """Thin lines inside regions, thick ones around regions and the map, dashed links."""
    b = borders()
    ax.add_collection(LineCollection(b.inner, colors="#8a7a60", linewidths=0.7, zorder=2))
    ax.add_collection(LineCollection(b.region + b.closed, colors=REGION_LINE, linewidths=2.2, zorder=3,
                                     capstyle="round"))
    if b.closed:  # drawn touching on this schematic map, but no border in the game
        mids = [((p[0] + q[0]) / 2, (p[1] + q[1]) / 2) for p, q in b.closed]
        ax.plot([m[0] for m in mids], [m[1] for m in mids], "o", mfc="white", mec=REGION_LINE, ms=6, mew=1.6,
                zorder=4)
    ax.add_collection(LineCollection(b.links, colors="#222222", linewidths=1.2, linestyles=(0, (4, 3)),
                                     zorder=5, alpha=0.8))


def _draw_labels(ax: Any, county: County, c: Mapping[str, Any] | None, palette: dict[str, str],
                 battle: bool) -> None:
    x, y = county.centre
    short = short_name(county.name)
    grey = not _in_play(c)
    if grey:  # the hatching says "out of play" (see the legend)
        ax.text(x, y, short, ha="center", va="center", fontsize=6.5, color="#444444", fontstyle="italic",
                zorder=8, gid=MOVABLE, bbox={"boxstyle": "round,pad=0.15", "fc": "#eeeeee", "ec": "none",
                                             "alpha": 0.85})
        return
    ax.text(x, y + 0.2, short, ha="center", va="center", fontsize=7.5, zorder=8, color="#1a1a1a",
            fontweight="bold", gid=NAME + county.name)
    assert c is not None
    if battle:  # a solid outline: dashed lines are the neighbour links
        _add(ax, Polygon(county.cell, closed=True, fc="none", ec=BATTLE, lw=2.6, zorder=6, gid=BATTLE_GID))
        ax.text(x - 0.33, y - 0.08, "\u2694", ha="center", va="center", fontsize=10, color=BATTLE, zorder=9,
                gid=MOVABLE)
    _army_badge(ax, x, y - 0.05, c, palette)
    buildings = " ".join(BUILDING_GLYPH.get(b, b[:1].upper()) for b in c.get("buildings") or [])
    if buildings:
        ax.text(x, y - 0.3, buildings, ha="center", va="center", fontsize=7, zorder=8, family="monospace",
                gid=MOVABLE, bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "#555555", "lw": 0.5})
    revolt = int(c.get("revolt_markers") or 0)
    if revolt:
        ax.text(x + 0.34, y - 0.05, f"\u25b2{revolt}", ha="center", va="center", fontsize=8, color=BATTLE,
                fontweight="bold", zorder=9, gid=MOVABLE)


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
        Patch(fc=col.NEUTRAL, ec="#333333", label=_("neutral")),
        Patch(fc=col.OUT_OF_PLAY, ec="#333333", hatch="///", label=_("out of play")),
        Patch(fc="none", ec=BATTLE, lw=2, label="\u2694 " + _("battle this season (red outline)")),
        Line2D([], [], color="#222222", ls="--", label=_("neighbours (not touching here)")),
        Line2D([], [], color=REGION_LINE, marker="o", mfc="white", ls="none", label=_("touching, but no border")),
        Line2D([], [], color=BATTLE, marker="^", ls="none", label=_("revolt markers")),
        # TRANSLATORS: the letters are drawn on the map (P palace, C church, T trading post): keep them
        Line2D([], [], color="none", label=_("P palace  C church  T trade")),
        Line2D([], [], color="none", label=_("(n) armies in the county")),
    ]
    legend = ax.legend(handles=handles, loc="upper left", fontsize=8, frameon=True, framealpha=0.9,
                       bbox_to_anchor=(0.0, 1.0))
    # what the legend shows (its other entries are fixed but for their language): drawn once per
    # palette and language (save_png)
    legend.set_gid(LEGEND + json.dumps([lang(), *palette.items()]) if lang() != DEFAULT else
                   LEGEND + json.dumps(list(palette.items())))
