"""The God's Playground map's key: the families' box (VP, thalers, cubes), the symbols, the
enemies' colours, and the note on provisional figures and abbreviations."""

from __future__ import annotations

from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

from reports.colors import text_on
from reports.gods_playground import layout as L
from reports.gods_playground.canvas import DAGGER, FS, Canvas
from reports.gods_playground.names import enemy
from reports.i18n import _


class Key(Canvas):
    """The map's legend and note, drawn on its canvas."""

    def legend(self) -> None:
        b = L.LEGEND_BOX
        x, y, w, h = b
        self.box(b, "#ffffff", lw=0.8)
        top = y + h - 1.4
        self.text(x + 0.6, top, _("Families"), fontsize=FS + 1, fontweight="bold")
        seats = self.v.get("seats") or {}
        self.text(x + 9.0, top - 1.8, _("VP"), fontsize=FS - 0.5, ha="center")
        self.text(x + 13.5, top - 1.8, _("thalers"), fontsize=FS - 0.5, ha="center")
        self.text(x + 19.5, top - 1.8, _("cubes"), fontsize=FS - 0.5, ha="center")
        for i, seat in enumerate(self.seats):
            yy = top - 3.6 - i * 1.9
            self.chip(x + 0.6, yy, seat, "")
            self.text(x + 3.2, yy, seat, fontweight="bold")
            row = seats.get(seat) or {}
            self.text(x + 9.0, yy, str(row.get("vp", 0)), ha="center")
            self.text(x + 13.5, yy, str(row.get("money", 0)), ha="center")
            self.text(x + 19.5, yy, str(row.get("noble_cubes_supply", 0)), ha="center")
        yy = top - 3.6 - len(self.seats) * 1.9 - 0.8
        self.text(x + 0.6, yy, _("Symbols"), fontsize=FS + 1, fontweight="bold")
        rows = [("estate", _("estate: printed value, owner colour")), ("free", _("free estate")),
                ("S", _("S steward (+2 income), T town")), ("chip", _("noble cubes / Sejm disc of a family")),
                ("treaty", _("treaty disc on an enemy box")), ("arrow", _("raid arrow (enemy colour)")),
                ("dagger", f"{DAGGER} " + _("provisional board figure"))]
        for j, (kind, label) in enumerate(rows):
            ly = yy - 2.0 - j * 1.9
            self._symbol(kind, x + 0.6, ly)
            self.text(x + 4.2, ly, label, fontsize=FS - 1, room=w - 4.6)
        ly = yy - 2.0 - len(rows) * 1.9
        self.text(x + 0.6, ly, _("enemy cubes:"), fontsize=FS - 1)
        for k, key in enumerate(L.ENEMY_COLORS):
            ky = ly - 1.8 - (k // 3) * 1.8
            kx = x + 0.6 + (k % 3) * 8.0
            self.ax.add_patch(Rectangle((kx, ky - 0.6), 1.2, 1.2, facecolor=L.ENEMY_COLORS[key], edgecolor="#000000",
                                        lw=0.5, zorder=4))
            self.text(kx + 1.6, ky, enemy(key, self.v), fontsize=FS - 1.5, room=6.2)  # this round's name (black)

    def _symbol(self, kind: str, x: float, y: float) -> None:
        if kind in ("estate", "free"):
            fill = self.colors.get(self.seats[0], "#ffffff") if kind == "estate" and self.seats else "#ffffff"
            self.ax.add_patch(Rectangle((x, y - 0.8), 2.2, 1.6, facecolor=fill if kind == "estate" else "#ffffff",
                                        edgecolor="#000000" if kind == "estate" else "#8a7a5a",
                                        ls="-" if kind == "estate" else "--", lw=0.8, zorder=4))
            self.text(x + 1.1, y, "3", ha="center", fontsize=FS - 1, fontweight="bold",
                      color=text_on(fill) if kind == "estate" else "#8a7a5a")
        elif kind == "S":
            self.text(x + 1.1, y, _("S") + " " + _("T"), ha="center", fontsize=FS - 1, fontweight="bold")
        elif kind == "chip" and self.seats:
            self.chip(x, y, self.seats[min(1, len(self.seats) - 1)], "2", size=1.5)
        elif kind == "treaty":
            self.ax.add_patch(Circle((x + 1.1, y), 0.8, facecolor="#ffffff", edgecolor="#000000", lw=1.0, zorder=4))
        elif kind == "arrow":
            self.ax.add_patch(FancyArrowPatch((x, y), (x + 3.0, y), arrowstyle="-|>", mutation_scale=10, lw=1.4,
                                              color="#7B3F99", ls=(0, (4, 2)), zorder=4))
        elif kind == "dagger":
            self.text(x + 1.1, y, DAGGER, ha="center", fontsize=FS + 1, fontweight="bold")

    def note(self) -> None:
        x, y, w, h = L.NOTE_BOX
        n = len(self.v.get("provisional") or [])
        # TRANSLATORS: the map's note, one line each (about 42 characters: the box is narrow)
        lines = [f"{DAGGER} " + _("{n} provisional board figures are in use:").format(n=n) if n else
                 _("No provisional figures."),
                 _("no source prints them; round 1's and"),
                 _("the GM's reports list each. Estate rows"),
                 _("run from the centre (left) to the border."),
                 _("Troops: i infantry, c cavalry, g cannon."),
                 _("Hit cubes: nobles' and the king's"),
                 _("cubes on an enemy box.")]
        for i, line in enumerate(lines):
            self.text(x + 0.6, y + h - 1.4 - i * 1.9, line, fontsize=FS - 1, color="#3b2a14", room=w - 1.0)
