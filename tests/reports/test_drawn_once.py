"""A season's pictures are drawn once for all its viewers, and stay small and exact."""

from __future__ import annotations

import copy
import io

import pytest

import reports.charts as charts
import reports.wallenstein.mapplot as mapplot
from reports.render import render_report
from tests.reports.games import play, report_input, viewers

SEATS = ("red", "blue", "green", "yellow", "purple")


@pytest.fixture(scope="module")
def turns():
    return play("drawn-once", SEATS)[2:4]


def _count(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_one_map_and_one_chart_per_season_for_every_viewer(monkeypatch, turns):
    mapplot.clear_cache()
    charts.clear_cache()
    maps = _count(monkeypatch, mapplot, "kept_figure")
    drawn = _count(monkeypatch, charts, "_draw")
    for turn in turns:
        out = [render_report(report_input("once", "drawn-once", turn, v)) for v in viewers(turn.state)]
        assert len({r.images["map.png"] for r in out}) == 1
        assert len({r.images["chart.png"] for r in out}) == 1
    assert len(maps) == len(turns) and len(drawn) == len(turns)


def test_the_map_changes_with_what_it_draws(turns):
    mapplot.clear_cache()
    view = report_input("once", "drawn-once", turns[0], "red").view
    first = mapplot.render_map(view, "t")
    changed = copy.deepcopy(view)
    county = next(c for c in changed["counties"].values() if c and c.get("owner"))
    county["armies"] = int(county.get("armies") or 0) + 7
    assert mapplot.render_map(changed, "t") != first
    assert mapplot.render_map(view, "t") == first


def test_pictures_are_palette_pngs_without_visible_loss(turns):
    """8-bit palette PNGs; the background and the seat colours exact; hardly any pixel off."""
    import numpy as np
    from PIL import Image

    view = report_input("once", "drawn-once", turns[0], "red").view
    fig = mapplot.map_figure(view, "t")
    full = io.BytesIO()
    fig.savefig(full, **mapplot.PNG_OPTS)
    small = mapplot.save_png(fig)
    assert Image.open(io.BytesIO(small)).mode == "P" and len(small) < len(full.getvalue()) / 2
    a = np.asarray(Image.open(io.BytesIO(full.getvalue())).convert("RGB"), dtype=int)
    b = np.asarray(Image.open(io.BytesIO(small)).convert("RGB"), dtype=int)
    err = np.abs(a - b).sum(axis=2)
    assert err.mean() < 2 and (err > 48).mean() < 0.005
    assert (b[0, 0] == 255).all()  # the white page stays white


def test_the_legend_is_drawn_once_and_copied_in_with_the_same_pixels(turns):
    """The map's legend (blank page around it) is drawn once per palette and its pixels
    copied into later maps: the same bytes as drawing every map in full."""
    from reports import pngout

    view = report_input("once", "drawn-once", turns[0], "red").view
    later = report_input("once", "drawn-once", turns[1], "blue").view
    mapplot.clear_cache()
    for v in (view, later, view):
        plain = pngout.figure_png(mapplot.map_figure(v, "t"), mapplot.DPI)  # no stamp: drawn in full
        assert mapplot.save_png(mapplot.map_figure(v, "t")) == plain
    assert len(pngout._STAMPS) == 1  # one palette, one legend drawn


def test_a_legend_with_something_under_it_is_drawn_in_place(turns):
    from reports import pngout

    view = report_input("once", "drawn-once", turns[0], "red").view
    mapplot.clear_cache()
    mapplot.save_png(mapplot.map_figure(view, "t"))  # the legend remembered
    figs = [mapplot.map_figure(view, "t") for _ in range(2)]
    for fig in figs:  # a label over the legend's corner: the legend is no longer on blank page
        fig.axes[0].text(0.02, 0.9, "OVER", transform=fig.axes[0].transAxes, fontsize=12, zorder=9)
    assert mapplot.save_png(figs[0]) == pngout.figure_png(figs[1], mapplot.DPI)


def test_a_legend_over_the_map_is_drawn_in_place_at_once(monkeypatch, turns):
    """A legend whose words reach over the map (German) is drawn in place; once that is
    known, each later map of that legend is drawn once, not first without it: the same bytes."""
    from reports import pngout
    from reports.i18n import speaking

    views = [report_input("once", "drawn-once", t, "red").view for t in turns]
    mapplot.clear_cache()
    draws = []
    real = pngout.SharedCanvas.draw
    monkeypatch.setattr(pngout.SharedCanvas, "draw", lambda self: draws.append(1) or real(self))
    with speaking("de"):
        for v in (*views, *views):
            draws.clear()
            known = bool(pngout._IN_PLACE)
            stamped = mapplot.save_png(mapplot.map_figure(v, "t"))
            assert len(draws) == (1 if known else 2)
            assert stamped == pngout.figure_png(mapplot.map_figure(v, "t"), mapplot.DPI)
    assert pngout._IN_PLACE and not pngout._STAMPS
