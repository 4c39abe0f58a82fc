"""Small charts for reports (matplotlib object API, Agg, deterministic PNG bytes)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from matplotlib.figure import Figure

from reports.pngout import LOCK, SharedCanvas, figure_png

PNG_OPTS: dict[str, Any] = {"format": "png", "metadata": {"Software": None}, "dpi": 100}
#: A lower resolution for a report that shows a two-panel chart at 560 px: 672 px wide is
#: still wider than that, and the mail stays small. Tick labels grow a point.
SMALL_DPI = 80
#: The resolution at which a chart's margins are measured (matplotlib's default figure dpi;
#: text extents are rounded to whole pixels, so margins depend on it a little).
LAYOUT_DPI = 100
#: One marker shape per seat, in seat order (lines of equal values stay distinguishable).
MARKERS = ("o", "s", "^", "D", "v", "P")
#: Horizontal offset between seats' points, in turns (so equal values do not hide each other).
DODGE = 0.07


def series(history: Sequence[Mapping[str, Any]], key: str, seats: Sequence[str]) -> dict[str, list[float]]:
    """Per seat, the figure ``key`` (``scores``, ``armies``...) of each history entry (0 if absent)."""
    return {s: [float((h.get(key) or {}).get(s, 0)) for h in history] for s in seats}


def line_charts(history: Sequence[Mapping[str, Any]], panels: Sequence[tuple[str, str]],
                palette: Mapping[str, str], xlabel: str = "", dpi: int = 100) -> bytes:
    """One line chart per ``(key, title)`` panel, side by side, seats coloured by ``palette``,
    drawn at ``dpi``.

    Drawn once per process for the same figures (every viewer of a turn shares the public
    history): the result is cached by its inputs."""
    key = json.dumps({"history": [{k: h[k] for k in ("turn", *(k for k, _ in panels)) if k in h} for h in history],
                      "panels": [list(p) for p in panels], "palette": list(palette.items()), "xlabel": xlabel,
                      "dpi": dpi},
                     sort_keys=True, default=str)
    return _line_charts(key)


@lru_cache(maxsize=8)
def _line_charts(key: str) -> bytes:
    spec = json.loads(key)  # the inputs, as drawn
    return _draw(spec["history"], [tuple(p) for p in spec["panels"]], dict(spec["palette"]), spec["xlabel"],
                 spec["dpi"])


def clear_cache() -> None:
    """Forget the charts drawn so far (benchmarks and tests of determinism draw twice)."""
    _line_charts.cache_clear()


#: The figures drawn so far, one per chart layout (panels, palette, x label, resolution),
#: kept and filled again with the next history: making a figure's axes and their ticks
#: (every tick a line, a grid line and a label, each styled from rcParams) cost as much as
#: drawing it, and a season report draws the same layout every season. Filling a
#: kept figure draws the same pixels as a new one (``tests/reports/test_chart_reuse.py``).
_FIGURES: dict[str, Figure] = {}


def _draw(history: Sequence[Mapping[str, Any]], panels: Sequence[tuple[str, str]],
          palette: Mapping[str, str], xlabel: str, dpi: int) -> bytes:
    layout = json.dumps([[list(p) for p in panels], list(palette.items()), xlabel, dpi])
    with LOCK:  # one thread at a time fills and draws a kept figure
        fig = _FIGURES.get(layout)
        if fig is None:
            if len(_FIGURES) >= 8:
                _FIGURES.clear()
            fig = _FIGURES[layout] = _empty_figure(panels, xlabel, dpi)
        _fill(fig, history, panels, palette, xlabel, dpi)
        return figure_png(fig, dpi)


def _empty_figure(panels: Sequence[tuple[str, str]], xlabel: str, dpi: int) -> Figure:
    """A chart figure with its panels side by side, on a shared-renderer canvas: everything
    that does not depend on the history (titles, tick styles, grid, x label)."""
    fig = Figure(figsize=(4.2 * len(panels), 3.4), dpi=LAYOUT_DPI)
    SharedCanvas(fig)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (_, title) in zip(axes, panels):
        ax.set_title(title, fontsize=11, y=1.0)  # placed, not fitted over the ticks (nothing above)
        ax.tick_params(axis="y", labelsize=_sizes(dpi)[1])
        ax.grid(True, alpha=0.3)
        if xlabel:
            ax.set_xlabel(xlabel, fontsize=8)
    return fig


def _sizes(dpi: int) -> tuple[int, int]:
    """The font sizes of the x and y tick labels (a point larger in a smaller picture)."""
    return (7, 8) if dpi >= 100 else (8, 9)


def chart_figure(history: Sequence[Mapping[str, Any]], panels: Sequence[tuple[str, str]],
                 palette: Mapping[str, str], xlabel: str = "", dpi: int = 100) -> Figure:
    """The figure of :func:`line_charts` (every artist added and laid out, not drawn)."""
    fig = _empty_figure(panels, xlabel, dpi)
    _fill(fig, history, panels, palette, xlabel, dpi)
    return fig


def _fill(fig: Figure, history: Sequence[Mapping[str, Any]], panels: Sequence[tuple[str, str]],
          palette: Mapping[str, str], xlabel: str, dpi: int) -> None:
    """Draw ``history`` into the panels of ``fig`` (made by :func:`_empty_figure` with the
    same panels, x label and dpi), replacing the lines and ticks of an earlier history (its
    legend stays: it shows the seats of the layout's palette, drawn the same every time)."""
    labels = [str(h.get("turn", i + 1)) for i, h in enumerate(history)]
    fig.set_dpi(LAYOUT_DPI)  # margins are measured at this resolution, whatever it was drawn at
    axes = fig.axes
    for ax in axes:
        for line in list(ax.lines):
            line.remove()
    for ax, (key, _) in zip(axes, panels):
        data = series(history, key, list(palette))
        for i, (seat, values) in enumerate(data.items()):
            # equal lines stay visible: each seat its own marker shape, drawn a little to the
            # side of the others (dodged), earlier seats larger and wider underneath
            shift = DODGE * (i - (len(data) - 1) / 2)
            lw, xs = max(1.2, 3.0 - 0.4 * i), [x + shift for x in range(len(values))]
            edge = _outline(palette[seat])
            if edge:  # a light colour: a dark line underneath shows as its outline
                ax.plot(xs, values, lw=lw + 1.6, color=OUTLINE, zorder=1.9 + i)
            ax.plot(xs, values, marker=MARKERS[i % len(MARKERS)], ms=max(4.0, 7.5 - 0.8 * i), lw=lw,
                    color=palette[seat], label=seat, zorder=2 + i, **edge)
        _axes_limits(ax, data, len(labels))
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(_thin(labels), rotation=45, ha="right", fontsize=_sizes(dpi)[0])
    if axes[0].get_legend() is None:  # a kept figure keeps its legend: the same seats, colours, markers
        axes[0].legend(fontsize=8, loc="upper left")
    _fit_margins(fig, axes, labels, xlabel, *_sizes(dpi))


#: A seat colour lighter than this (white, yellow: relative luminance) is drawn with a dark
#: outline, so that its line and markers stand out from the white chart.
LIGHT = 0.6
OUTLINE = "#4d4d4d"


def _outline(color: str) -> dict[str, Any]:
    """The marker edge of a light seat colour (its line gets a dark line underneath); none
    for a colour that reads on white by itself."""
    from matplotlib import colors as mcolors

    r, g, b = mcolors.to_rgb(color)
    if 0.299 * r + 0.587 * g + 0.114 * b <= LIGHT:
        return {}
    return {"markeredgecolor": OUTLINE, "markeredgewidth": 1.0}


#: Space kept around the panels and between them, in points (what ``tight_layout``'s
#: default padding is: 1.08 x the 10 pt font), and a tick with its label's gap (3.5 + 3.5 pt).
PAD = 10.8
TICK = 7.0
#: The title's gap above the axes (matplotlib's ``axes.titlepad``) and the x label's.
TITLE_PAD, LABEL_PAD = 6.0, 4.0
SIN45 = 0.7071067811865476
#: Text extents measured so far, in pixels, by (text, font size, dpi): the same few tick
#: labels and season names are measured for every chart, and each measure lays the text out
#: with FreeType. Charts use the default font only.
_EXTENTS: dict[tuple[str, float, float], tuple[float, float]] = {}


def _fit_margins(fig: Figure, axes: Sequence[Any], labels: Sequence[str], xlabel: str, xsize: float,
                 ysize: float) -> None:
    """Margins that hold every tick label, title and axis label, worked out from the few
    texts that decide them (the widest y tick label, the longest x label, rotated 45 degrees,
    the title) instead of ``tight_layout``, which lays out every artist (a third of a chart's
    time). Measured with the renderer's text metrics; ``tests/reports/
    test_chart_margins.py`` checks that nothing is cut off or overlaps another panel."""
    from matplotlib.font_manager import FontProperties

    renderer = fig.canvas.get_renderer()
    scale = 72.0 / renderer.dpi

    def extent(text: str, size: float) -> tuple[float, float]:  # (width, height) in points
        key = (text, size, renderer.dpi)
        if key not in _EXTENTS:
            if len(_EXTENTS) >= 4096:
                _EXTENTS.clear()
            _EXTENTS[key] = renderer.get_text_width_height_descent(text, FontProperties(size=size), False)[:2]
        w, h = _EXTENTS[key]
        return w * scale, h * scale

    width, height = fig.get_size_inches() * 72.0
    ytick = max(extent(_tick_text(v), ysize)[0] for ax in axes for v in _yticks(ax))
    xw, xh = max((extent(lab, xsize) for lab in _thin(list(labels)) if lab), default=(0.0, 0.0))
    reach = (xw + xh) * SIN45  # a rotated x label, right-aligned under its tick: its width and height
    title = max(extent(str(ax.get_title()) or "x", 11)[1] for ax in axes)
    bottom = PAD + TICK + reach + (extent(xlabel, 8)[1] + LABEL_PAD if xlabel else 0.0)
    top = PAD + title + TITLE_PAD
    n, lo, hi = len(axes), max(1, len(labels)), max(len(labels) - 1, 1)
    left = gap = PAD + TICK + ytick
    for _ in range(2):  # the first x label may reach further left than the y tick labels
        panel = (width - left - PAD - (n - 1) * gap) / n
        first = 0.5 / (hi + 1.0) * panel  # x of the first tick (limits -0.5 .. hi + 0.5)
        over = max(0.0, reach - first - TICK - ytick) if lo else 0.0
        left = PAD + TICK + ytick + over
        gap = PAD + TICK + ytick + over
    panel = (width - left - PAD - (n - 1) * gap) / n
    fig.subplots_adjust(left=left / width, right=1 - PAD / width, bottom=bottom / height, top=1 - top / height,
                        wspace=gap / panel if n > 1 else 0.2)


def _yticks(ax: Any) -> list[float]:
    """The y tick values inside the axes' limits."""
    low, high = ax.get_ylim()
    return [v for v in ax.yaxis.get_major_locator().tick_values(low, high) if low <= v <= high] or [0.0]


def _tick_text(value: float) -> str:
    """A whole-number tick label as matplotlib writes it (a minus sign for negatives)."""
    return f"{int(round(value))}".replace("-", "\u2212")


def _axes_limits(ax: Any, data: Mapping[str, Sequence[float]], n: int) -> None:
    """Axes that make sense from the first season on: y from 0 (or the lowest value) to a
    little above the highest, at least 0..5, whole-number ticks; x with room either side."""
    from matplotlib.ticker import MaxNLocator

    values = [v for vs in data.values() for v in vs] or [0.0]
    low, high = min(0.0, min(values)), max(values)
    top = max(high + max(1.0, 0.08 * (high - low)), low + 5.0)
    ax.set_ylim(low - 0.04 * (top - low), top)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(-0.5, max(n - 1, 1) + 0.5)


def _thin(labels: list[str], most: int = 12) -> list[str]:
    """Blank out labels so that at most about ``most`` are written."""
    step = max(1, -(-len(labels) // most))
    return [lab if i % step == 0 or i == len(labels) - 1 else "" for i, lab in enumerate(labels)]
