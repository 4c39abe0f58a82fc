"""Small charts for reports (matplotlib object API, Agg, deterministic PNG bytes)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from matplotlib.figure import Figure

from reports.pngout import SharedCanvas, figure_png

PNG_OPTS: dict[str, Any] = {"format": "png", "metadata": {"Software": None}, "dpi": 100}
#: A lower resolution for a report that shows a two-panel chart at 560 px: 672 px wide is
#: still wider than that, and the mail stays small (issue 14). Tick labels grow a point.
SMALL_DPI = 80
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


def _draw(history: Sequence[Mapping[str, Any]], panels: Sequence[tuple[str, str]],
          palette: Mapping[str, str], xlabel: str, dpi: int) -> bytes:
    labels = [str(h.get("turn", i + 1)) for i, h in enumerate(history)]
    fig = Figure(figsize=(4.2 * len(panels), 3.4))
    SharedCanvas(fig)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (key, title) in zip(axes, panels):
        data = series(history, key, list(palette))
        for i, (seat, values) in enumerate(data.items()):
            # equal lines stay visible: each seat its own marker shape, drawn a little to the
            # side of the others (dodged), earlier seats larger and wider underneath
            shift = DODGE * (i - (len(data) - 1) / 2)
            ax.plot([x + shift for x in range(len(values))], values, marker=MARKERS[i % len(MARKERS)],
                    ms=max(4.0, 7.5 - 0.8 * i), lw=max(1.2, 3.0 - 0.4 * i), color=palette[seat],
                    label=seat, zorder=2 + i)
        _axes_limits(ax, data, len(labels))
        ax.set_title(title, fontsize=11)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(_thin(labels), rotation=45, ha="right", fontsize=7 if dpi >= 100 else 8)
        ax.tick_params(axis="y", labelsize=8 if dpi >= 100 else 9)
        ax.grid(True, alpha=0.3)
        if xlabel:
            ax.set_xlabel(xlabel, fontsize=8)
    axes[0].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return figure_png(fig, dpi)


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
