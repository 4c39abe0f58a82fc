"""Seat colours shared by the map, the charts and the HTML tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matplotlib import colors as mcolors

#: Used when a view gives no (or an unknown) colour for a seat, in seat order.
FALLBACK = ("#c0392b", "#2e6fbf", "#2e9a4a", "#e0b000", "#8e44ad", "#e67e22")
#: Softer shades for the usual seat colour names (pure "red" and "blue" glare on a map).
NAMED = {"red": "#c0392b", "blue": "#2e6fbf", "green": "#2e9a4a", "yellow": "#e0b000",
         "purple": "#8e44ad", "orange": "#e67e22", "black": "#333333", "white": "#f0f0f0"}
NEUTRAL = "#f3ecdc"
OUT_OF_PLAY = "#c8c8c8"


def seat_colors(seats: Mapping[str, Any] | Sequence[str], names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Hex colour per seat: the game's colour name of the seat (``names``, the report input's
    ``seat_colors``), else the view's ``color``, when matplotlib knows it; else a fallback.

    The seat name itself is tried too (seats are often called ``red``, ``blue``...).
    """
    out: dict[str, str] = {}
    for i, seat in enumerate(seats):
        given = seats[seat].get("color") if isinstance(seats, Mapping) and seats[seat] else None
        for candidate in ((names or {}).get(seat), given, seat):
            if isinstance(candidate, str) and candidate.lower() in NAMED:
                out[seat] = NAMED[candidate.lower()]
                break
            if isinstance(candidate, str) and mcolors.is_color_like(candidate):
                out[seat] = mcolors.to_hex(candidate)
                break
        else:
            out[seat] = FALLBACK[i % len(FALLBACK)]
    return out


def lighten(color: str, amount: float = 0.55) -> str:
    """``color`` mixed with white (``amount`` = share of white)."""
    r, g, b = mcolors.to_rgb(color)
    return mcolors.to_hex((r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount))


def text_on(color: str) -> str:
    """Black or white, whichever reads better on ``color``."""
    r, g, b = mcolors.to_rgb(color)
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#ffffff"
