"""The God's Playground map: one PNG a player can plan from (matplotlib object API, Agg).

Drawn from the viewer's view alone. Every label sits in its own slot of a fixed layout
(:mod:`reports.gods_playground.layout`), so no label covers another
(tests/gods_playground_reports check the label boxes). Provisional board figures carry a
dagger; round 1's and the GM's report footers list them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

from reports.pngout import figure_png
from reports.colors import text_on
from reports.gods_playground import layout as L
from reports.gods_playground.canvas import DAGGER, FS, provisional_marks  # noqa: F401 - the map's API too
from reports.gods_playground.mapkey import Key
from reports.gods_playground.names import PHASES, enemy, phase_short, province
from reports.i18n import _, lang, pgettext, speaking


class _Map(Key):
    """One map being drawn: its parts, on a canvas with a key."""

    # -- parts -----------------------------------------------------------------------
    def title(self) -> None:
        v = self.v
        title = (_("God's Playground: the Commonwealth, round {round} of 4 -- game over") if v.get("over") else
                 _("God's Playground: the Commonwealth, round {round} of 4")).format(round=v.get("round"))
        self.text(0.8, L.TITLE_Y, title, fontsize=11, fontweight="bold", color="#3b2a14", room=59.0)
        start = v.get("start_player")
        if start:
            self.text(60.5, L.TITLE_Y, _("start player:"), fontsize=FS + 0.5, room=7.8)
            self.chip(68.5, L.TITLE_Y, start, "\u2605")
            self.text(71.4, L.TITLE_Y, str(start), fontsize=FS + 0.5, fontweight="bold")
        self.text(0.8, L.TRACK_Y, _("round"), fontsize=FS)
        for r in range(1, 5):
            x = 4.6 + (r - 1) * 2.4
            now = r == v.get("round")
            self.ax.add_patch(Rectangle((x, L.TRACK_Y - 0.9), 2.0, 1.8, facecolor="#b8862b" if now else "#ffffff",
                                        edgecolor="#5a4220", lw=0.8, zorder=3))
            self.text(x + 1.0, L.TRACK_Y, str(r), ha="center", fontweight="bold" if now else "normal")
        self.text(15.3, L.TRACK_Y, _("phase"), fontsize=FS, room=3.9)
        x = 19.4
        labels = [phase_short(ph) for ph in PHASES]
        # the track's boxes fit their labels; labels longer than the English ones squeeze the track into the row
        widths = [0.62 * len(label) + 0.8 for label in labels]
        k = min(1.0, (L.WIDTH - 0.4 - x - 0.3 * len(labels)) / sum(widths))
        for ph, label, w in zip(PHASES, labels, widths):
            w *= k
            now = ph == v.get("phase")
            self.ax.add_patch(Rectangle((x, L.TRACK_Y - 0.9), w, 1.8, facecolor="#b8862b" if now else "#ffffff",
                                        edgecolor="#5a4220", lw=0.6, zorder=3))
            self.text(x + w / 2, L.TRACK_Y, label, ha="center", fontsize=FS - 1,
                      fontweight="bold" if now else "normal", room=w - 0.2)
            x += w + 0.3

    def province(self, key: str, p: Mapping[str, Any]) -> None:
        b = L.PROVINCE_BOXES[key]
        x, y, w, h = b
        self.box(b, L.PROVINCE_FILL)
        top = y + h - 1.4
        self.text(x + 0.6, top, province(key), fontsize=FS + 1.5, fontweight="bold", color="#3b2a14", room=w - 10.0)
        self.text(x + w - 0.6, top, _("estate track {n}").format(n=p.get("estate_track")), ha="right", fontsize=FS,
                  room=8.6)
        # estate row, centre -> border (seed 004: values rise towards the border)
        self.text(x + 0.6, top - 2.3, _("estates") + self.dag(f"estates:{key}"), fontsize=FS - 0.5, room=5.2)
        ex = x + 6.0
        for e in p.get("estates") or []:
            owner = e.get("owner")
            fill = self.colors.get(owner, "#ffffff") if owner else "#ffffff"
            self.ax.add_patch(Rectangle((ex, top - 3.4), 2.6, 2.2, facecolor=fill, lw=1.0 if owner else 0.6,
                                        edgecolor="#000000" if owner else "#8a7a5a", ls="-" if owner else "--",
                                        zorder=4))
            self.text(ex + 1.3, top - 2.3, str(e.get("value")), ha="center", fontweight="bold",
                      color=text_on(fill) if owner else "#8a7a5a")
            # TRANSLATORS: S and T mark a steward and a town on an estate (the map's legend explains them)
            marks = (_("S") if e.get("steward") else "") + (_("T") if e.get("town") else "")
            if marks:
                self.text(ex + 1.3, top - 4.3, marks, ha="center", fontsize=FS - 1, fontweight="bold")
            ex += 3.1
        self.text(x + 0.6, top - 6.2, _("noble cubes"), fontsize=FS - 0.5, room=7.2)
        self.family_row(x + 8.0, top - 6.2, p.get("noble_cubes") or {})
        self._province_extras(x, top - 8.4, w, p)

    def _province_extras(self, x: float, y: float, w: float, p: Mapping[str, Any]) -> None:
        parts = [f"{enemy(e, self.v)} {n}" for e, n in (p.get("enemy_cubes") or {}).items() if n]
        line1 = _("enemy cubes: {cubes}").format(cubes=", ".join(parts) if parts else _("none"))
        if p.get("influence"):
            line1 += "; " + _("influence {n}").format(n=p["influence"])
        if p.get("cossacks"):
            line1 += "; " + _("Cossacks {n}").format(n=p["cossacks"])
        self.text(x + 0.6, y, line1, fontsize=FS - 0.5, room=w - 1.2,
                  color="#a01818" if parts or p.get("influence") else "#3b2a14")
        troops = []
        for seat, u in (p.get("units") or {}).items():
            if any(u.values()):
                # TRANSLATORS: i, c and g are the map's short marks for infantry, cavalry and cannon (guns)
                troops.append(_("{seat} {inf}i {cav}c {can}g").format(seat=seat, inf=u.get("inf", 0),
                                                                      cav=u.get("cav", 0), can=u.get("can", 0)))
        self.text(x + 0.6, y - 2.0, _("troops: {troops}").format(troops="; ".join(troops) if troops else _("none")),
                  fontsize=FS - 0.5, room=w - 1.2)

    def enemy_box(self, key: str, e: Mapping[str, Any]) -> None:
        b = L.ENEMY_BOXES[key]
        x, y, w, h = b
        color = L.ENEMY_COLORS[key]
        self.box(b, L.BOX_FILL, edge=color, lw=2.2)
        top = y + h - 1.4
        name = enemy(key, self.v)
        self.text(x + 0.6, top, name[:1].upper() + name[1:], fontsize=FS + 1.5, fontweight="bold", color="#222222",
                  room=w - 6.0)  # a title: capitalised (Hungarian writes peoples' names small: "a svédek")
        self.text(x + w - 0.6, top, _("VP {n}").format(n=e.get("vp")) + self.dag("vp:" + key), ha="right",
                  fontweight="bold")
        if e.get("strength") is None:
            line = _("influence {n} (no strength before round 4)").format(n=e.get("influence", 0)) + self.dag(
                "strength:" + key)  # the markers of the round's start: the track (rules version 3)
        else:
            line = (_("strength {n}").format(n=e.get("strength")) + self.dag("strength:" + key) + "   " +
                    _("cubes {n}").format(n=e.get("cubes")))
            if e.get("influence"):
                line += "   " + _("influence {n}").format(n=e["influence"])
        self.text(x + 0.6, top - 2.1, line, room=w - 1.2)
        self.text(x + 0.6, top - 4.2, _("hit cubes {n}:").format(n=e.get("hit_cubes")), fontsize=FS - 0.5, room=7.2)
        nx = self.family_row(x + 8.0, top - 4.2, e.get("noble_cubes") or {})
        self.text(nx + 0.2, top - 4.2, _("king {n}").format(n=e.get("royal_cubes", 0)), fontsize=FS - 0.5)
        extras = []
        if e.get("turks"):
            extras.append(_("Turkish cubes {n}").format(n=e["turks"]))
        if e.get("cossacks"):
            extras.append(_("Cossacks {n}").format(n=e["cossacks"]))
        raids = e.get("raids") or []
        if raids:
            extras.append(_("raids {provinces}").format(provinces=", ".join(province(r) for r in raids))
                          + self.dag("raids:" + key))
        self.text(x + 0.6, top - 6.3, "; ".join(extras) or " ", fontsize=FS - 1, room=w - 0.8)
        if e.get("treaty"):
            self.ax.add_patch(Circle((x + w - 2.0, top - 8.4), 1.2, facecolor="#ffffff", edgecolor="#000000",
                                     lw=1.2, zorder=4))
            # TRANSLATORS: the letter on the treaty disc
            self.text(x + w - 2.0, top - 8.4, pgettext("treaty disc", "T"), ha="center", fontweight="bold")
            self.text(x + w - 3.8, top - 8.4, _("treaty"), ha="right", fontsize=FS - 0.5, fontweight="bold", room=8.0)

    def raids(self) -> None:
        for key, e in (self.v.get("enemies") or {}).items():
            src = L.ENEMY_BOXES.get(key)
            for target in e.get("raids") or []:
                dst = L.PROVINCE_BOXES.get(target)
                if src is None or dst is None:
                    continue
                a, z = L.border_point(src, L.centre(dst)), L.border_point(dst, L.centre(src))
                a, z = _offset(a, z, 0.9 * (list(L.ENEMY_BOXES).index(key) - 2))
                self.ax.add_patch(FancyArrowPatch(a, z, arrowstyle="-|>", mutation_scale=14, lw=1.6,
                                                  color=L.ENEMY_COLORS[key], ls=(0, (4, 2)), zorder=1.5))

    def centre(self) -> None:
        b = L.CENTRE_BOX
        x, y, w, h = b
        v = self.v
        self.box(b, "#f6efe0")
        top = y + h - 1.4
        self.text(x + 0.6, top, _("The Sejm"), fontsize=FS + 1.5, fontweight="bold", color="#3b2a14")
        for i, (p, owner) in enumerate((v.get("sejm") or {}).items()):
            yy = top - 2.0 - i * 1.9
            self.text(x + 0.6, yy, province(p), fontsize=FS - 0.5, room=10.2)
            if owner:
                self.chip(x + 11.0, yy, owner, "")
                self.text(x + 13.8, yy, str(owner), fontsize=FS - 0.5)
            else:
                self.text(x + 11.0, yy, _("empty"), fontsize=FS - 0.5, color="#6b5a3a")
        yy = top - 12.2
        self.text(x + 0.6, yy, _("Royal army") + self.dag("royal_table"), fontsize=FS + 1, fontweight="bold")
        army = v.get("royal_army") or {}
        self.text(x + 0.6, yy - 2.0, _("troops: {inf} inf, {cav} cav, {can} cannon").format(
            inf=army.get("inf", 0), cav=army.get("cav", 0), can=army.get("can", 0)), fontsize=FS - 0.5, room=w - 1.2)
        nobles = v.get("nobles") or {}
        king = {s: n.get("royal", 0) for s, n in nobles.items() if isinstance(n, Mapping)}
        if king and len(king) == len(self.seats):
            self.text(x + 0.6, yy - 4.0, _("nobles on it (total {n}):").format(n=sum(king.values())), fontsize=FS - 0.5,
                      room=w - 1.2)
            self.family_row(x + 0.6, yy - 6.0, king)
        else:
            self.text(x + 0.6, yy - 4.0, _("nobles on it: face down"), fontsize=FS - 0.5, room=w - 1.2)
        self.vp_track(x, y + 1.3, w)

    def vp_track(self, x: float, y: float, w: float) -> None:
        seats = self.v.get("seats") or {}
        self.text(x + 0.6, y + 3.2 - 1.0, _("VP"), fontsize=FS, fontweight="bold")
        cx = x + 3.2
        for seat in self.seats:
            cx = self.chip(cx, y + 2.2, seat, str(seats[seat].get("vp", 0)))

    def draw(self) -> Figure:
        self.title()
        self.raids()
        for key, p in (self.v.get("provinces") or {}).items():
            if key in L.PROVINCE_BOXES:
                self.province(key, p)
        for key, e in (self.v.get("enemies") or {}).items():
            if key in L.ENEMY_BOXES:
                self.enemy_box(key, e)
        self.centre()
        self.legend()
        self.note()
        return self.fig


def _offset(a: tuple[float, float], z: tuple[float, float], d: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The segment a-z moved sideways by ``d`` (two arrows on one path stay apart)."""
    dx, dy = z[0] - a[0], z[1] - a[1]
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    ox, oy = -dy / n * d, dx / n * d
    return (a[0] + ox, a[1] + oy), (z[0] + ox, z[1] + oy)


def map_figure(view: Mapping[str, Any]) -> Figure:
    """The map of ``view`` as a matplotlib figure (tests measure its labels)."""
    return _Map(view).draw()


#: The parts of a view the map draws (seat views differing elsewhere share one picture).
MAP_KEYS = ("round", "phase", "over", "start_player", "seats", "provinces", "enemies", "sejm", "royal_army",
            "nobles", "provisional")


def map_png(view: Mapping[str, Any]) -> bytes:
    """The map of ``view`` as deterministic PNG bytes (the same drawn parts give the same
    bytes, so a picture is drawn once and reused)."""
    return _png(json.dumps({k: view.get(k) for k in MAP_KEYS}, sort_keys=True), lang())


@lru_cache(maxsize=16)
def _png(key: str, language: str) -> bytes:
    with speaking(language):  # the labels' words: one picture per language
        return figure_png(map_figure(json.loads(key)))


def clear_cache() -> None:
    """Forget the pictures drawn so far (tests of determinism draw twice)."""
    _png.cache_clear()
