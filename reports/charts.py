"""Small charts for reports (matplotlib object API, Agg, deterministic PNG bytes)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from matplotlib.figure import Figure

PNG_OPTS: dict[str, Any] = {"format": "png", "metadata": {"Software": None}, "dpi": 100}


def series(history: Sequence[Mapping[str, Any]], key: str, seats: Sequence[str]) -> dict[str, list[float]]:
    """Per seat, the figure ``key`` (``scores``, ``armies``...) of each history entry (0 if absent)."""
    return {s: [float((h.get(key) or {}).get(s, 0)) for h in history] for s in seats}


def line_charts(history: Sequence[Mapping[str, Any]], panels: Sequence[tuple[str, str]],
                palette: Mapping[str, str], xlabel: str = "") -> bytes:
    """One line chart per ``(key, title)`` panel, side by side, seats coloured by ``palette``."""
    labels = [str(h.get("turn", i + 1)) for i, h in enumerate(history)]
    fig = Figure(figsize=(4.2 * len(panels), 3.4))
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (key, title) in zip(axes, panels):
        for seat, values in series(history, key, list(palette)).items():
            ax.plot(range(len(values)), values, marker="o", ms=3.5, lw=1.8, color=palette[seat], label=seat)
        ax.set_title(title, fontsize=11)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(_thin(labels), rotation=45, ha="right", fontsize=7)
        ax.tick_params(axis="y", labelsize=8)
        ax.grid(True, alpha=0.3)
        if xlabel:
            ax.set_xlabel(xlabel, fontsize=8)
    axes[0].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, **PNG_OPTS)
    return buf.getvalue()


def _thin(labels: list[str], most: int = 12) -> list[str]:
    """Blank out labels so that at most about ``most`` are written."""
    step = max(1, -(-len(labels) // most))
    return [lab if i % step == 0 or i == len(labels) - 1 else "" for i, lab in enumerate(labels)]
