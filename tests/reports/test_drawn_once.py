"""A season's pictures are drawn once for all its viewers, and stay small and exact."""

from __future__ import annotations

import copy
import io

import pytest

import reports.charts as charts
import reports.wallenstein.mapplot as mapplot
from reports import render_report
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
    maps = _count(monkeypatch, mapplot, "map_figure")
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
