"""The God's Playground map's drawing surface: one matplotlib figure in map units (the fixed
layout of :mod:`reports.gods_playground.layout`), labels that shrink to their slot, boxes and
family-coloured chips, and the dagger that marks a provisional board figure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from reports.colors import text_on
from reports.gods_playground import layout as L
from reports.gods_playground.names import family_colors

DAGGER = "\u2020"
FS = 7.5  # points: about 10 px at 100 dpi


def provisional_marks(view: Mapping[str, Any]) -> set[str]:
    """The provisional figures as short keys: ``estates:ukraine``, ``strength:black``
    (this round's), ``vp:black``, ``raids:black``, ``royal_table``, ``court``."""
    rnd = int(view.get("round") or 1)
    out = set()
    for p in view.get("provisional") or []:
        path = str(p).split(" = ")[0]
        parts = path.split(".")
        if parts[0] == "provinces" and len(parts) > 2:
            out.add(f"{parts[2]}:{parts[1]}")
        elif parts[0] == "enemies" and len(parts) > 2:
            field = parts[2]
            if field.startswith("strength["):
                if field == f"strength[{rnd - 1}]":
                    out.add(f"strength:{parts[1]}")
            else:
                out.add(f"{field}:{parts[1]}")
        elif path.startswith("royal_army_table"):
            out.add("royal_table")
        elif path.startswith("court_troops"):
            out.add("court")
    return out


class Canvas:
    """One map being drawn: its figure and the viewer's view, and how labels and chips go on it."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.v = view
        self.seats = list(view.get("seats") or {})
        self.colors = family_colors(view.get("seats") or {})  # each seat's "color": the game's (pbem.mailout.colours)
        self.prov = provisional_marks(view)
        self.fig = Figure(figsize=L.FIGSIZE, facecolor=L.BACKGROUND)
        self.ax = self.fig.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, L.WIDTH)
        self.ax.set_ylim(0, L.HEIGHT)
        self.ax.set_axis_off()

    def dag(self, key: str) -> str:
        return DAGGER if key in self.prov else ""

    def text(self, x: float, y: float, s: str, room: float | None = None, **kw: Any) -> None:
        """A label at (x, y); with ``room`` (map units) set smaller where it would take more
        (the slots fit the English labels; a longer translation shrinks to its slot)."""
        kw.setdefault("fontsize", FS)
        kw.setdefault("va", "center")
        kw.setdefault("zorder", 5)
        if room is not None:
            kw["fontsize"] = self.fit(s, room, kw["fontsize"], kw.get("fontweight", "normal"))
        self.ax.text(x, y, s, **kw)

    def fit(self, s: str, room: float, fontsize: float, weight: str = "normal") -> float:
        """The font size at which ``s`` takes at most ``room`` map units (1 unit = 0.1 inch)."""
        from matplotlib.font_manager import FontProperties

        renderer = self._renderer()
        width = renderer.get_text_width_height_descent(s, FontProperties(size=fontsize, weight=weight), False)[0]
        units = width / renderer.dpi * 10.0
        return fontsize if units <= room else fontsize * room / units

    def _renderer(self) -> Any:
        from reports.pngout import canvas

        return canvas(self.fig).get_renderer()

    def box(self, b: tuple[float, float, float, float], fill: str, edge: str = "#5a4220", lw: float = 1.2) -> None:
        x, y, w, h = b
        self.ax.add_patch(Rectangle((x, y), w, h, facecolor=fill, edgecolor=edge, lw=lw, zorder=2))

    def chip(self, x: float, y: float, seat: str, label: str, size: float = 1.7) -> float:
        """A family-coloured square with ``label`` in it; returns the x after it."""
        color = self.colors.get(seat, "#999999")
        self.ax.add_patch(Rectangle((x, y - size / 2), size * 1.25, size, facecolor=color, edgecolor="#000000",
                                    lw=0.8, zorder=4))
        self.text(x + size * 0.625, y, label, ha="center", color=text_on(color), fontsize=FS - 0.5,
                  fontweight="bold")
        return x + size * 1.25 + 0.5

    def family_row(self, x: float, y: float, values: Mapping[str, Any]) -> float:
        """One chip per family with its number (zeros too: every family is always shown)."""
        for seat in self.seats:
            x = self.chip(x, y, seat, str(values.get(seat, 0)))
        return x
