"""A chart draws no seat near-white on white: a white (or yellow) seat's line and markers get a
dark outline, so that every point of it is seen on the white chart (the site's chart, the
reports' charts). Checked on the PNG itself: around each of the white seat's points there is
a dark pixel, and none around a point of the chart drawn without outlines."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from reports import charts
from reports.colors import NAMED

HISTORY = [{"turn": f"round {i}", "scores": {"white": v, "blue": 2 * i}} for i, v in enumerate([5, 9, 14, 12], 1)]
PALETTE = {"white": NAMED["white"], "blue": NAMED["blue"], "yellow": NAMED["yellow"]}


def _points(seat: str) -> list[tuple[int, int]]:
    """The pixel of each of ``seat``'s points in the PNG (figure coordinates, y from the top)."""
    fig = charts.chart_figure(HISTORY, [("scores", "VP")], {s: PALETTE[s] for s in ("white", "blue")})
    fig.canvas.draw()
    ax = fig.axes[0]
    line = next(ln for ln in ax.lines if ln.get_label() == seat)
    height = fig.get_size_inches()[1] * fig.dpi
    return [(round(x), round(height - y)) for x, y in ax.transData.transform(line.get_xydata())]


def _darkest_near(png: bytes, points: list[tuple[int, int]], radius: int = 7) -> list[float]:
    image = Image.open(io.BytesIO(png)).convert("L")
    out = []
    for x, y in points:
        ring = [image.getpixel((x + dx, y + dy)) for dx in range(-radius, radius + 1)
                for dy in range(-radius, radius + 1) if 0 <= x + dx < image.width and 0 <= y + dy < image.height]
        out.append(min(ring) / 255)
    return out


def test_every_point_of_a_white_seat_has_a_dark_edge():
    charts.clear_cache()
    png = charts.line_charts(HISTORY, [("scores", "VP")], {s: PALETTE[s] for s in ("white", "blue")})
    assert max(_darkest_near(png, _points("white"))) < 0.45


def test_without_the_outline_the_white_seat_is_lost(monkeypatch):
    charts.clear_cache()
    charts._FIGURES.clear()
    monkeypatch.setattr(charts, "LIGHT", 1.0)  # no colour counts as light: the old drawing
    png = charts.line_charts(HISTORY, [("scores", "VP")], {s: PALETTE[s] for s in ("white", "blue")})
    charts._FIGURES.clear()
    charts.clear_cache()
    assert min(_darkest_near(png, _points("white"))) > 0.75  # the check above can fail


@pytest.mark.parametrize("colour, outlined", [("white", True), ("yellow", True), ("blue", False), ("red", False)])
def test_light_colours_are_the_ones_outlined(colour, outlined):
    assert bool(charts._outline(NAMED[colour])) is outlined
