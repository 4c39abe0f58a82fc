"""The chart of a Havoc report: points by seat over the battles, from the public history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reports import charts
from reports.colors import seat_colors
from reports.i18n import _


def battle_key(turn: str) -> str:
    """The battle a turn label belongs to: ``b3/dogs/red`` -> ``b3``; ``final/castillon`` -> ``final``."""
    return str(turn).split("/", 1)[0]


def battle_label(key: str) -> str:
    """``b3`` -> ``3``; ``final`` -> ``Castillon``."""
    if key == "final":
        return "Castillon"
    return key[1:] if key.startswith("b") and key[1:].isdigit() else key


def by_battle(history: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One entry per battle: the scores after the last decision of each battle (``b<n>`` is
    the n-th battle fought, the label prefix of every decision up to its end), starting at 0."""
    out: dict[str, dict[str, Any]] = {}
    for h in history:
        key = battle_key(str(h.get("turn", "")))
        out[key] = {"turn": battle_label(key), "scores": dict(h.get("scores") or {})}
    if not out:
        return []
    seats = list(next(iter(out.values()))["scores"])
    return [{"turn": _("start"), "scores": {s: 0 for s in seats}}, *out.values()]


def points_chart(history: Sequence[Mapping[str, Any]], seats: Sequence[str],
                 names: Mapping[str, str] | None = None) -> bytes:
    """PNG bytes (deterministic): one line per seat in its colour (``names``: the game's), points
    after each battle."""
    palette = seat_colors(list(seats), names)
    return charts.line_charts(by_battle(history), (("scores", _("Points after each battle")),), palette,
                              xlabel=_("battle"))
