"""A chart drawn into a kept figure (reports.charts keeps one per layout and fills it again
with the next history) has the same bytes as one drawn into a new figure."""

from __future__ import annotations

import random

import pytest

from reports import charts
from reports.pngout import figure_png

SEATS = ("red", "blue", "green", "yellow", "purple")
PALETTE = dict(zip(SEATS, ("#c0392b", "#2e86c1", "#27ae60", "#f1c40f", "#8e44ad")))
TWO = (("scores", "Victory points"), ("armies", "Armies"))


def _history(n: int, rng: random.Random) -> list[dict]:
    return [{"turn": f"{1618 + i // 2}-{'autumn' if i % 2 else 'spring'}",
             "scores": {s: rng.randint(-3, 40) for s in SEATS},
             "armies": {s: rng.randint(0, 90) for s in SEATS}} for i in range(n)]


@pytest.mark.parametrize("panels,xlabel,dpi", [(TWO, "", charts.SMALL_DPI), (TWO[:1], "Battle", 100)])
def test_a_kept_figure_draws_what_a_new_one_draws(panels, xlabel, dpi):
    rng = random.Random(7)
    for n in (1, 3, 2, 9, 5, 14, 1):  # longer and shorter histories than the one before
        history = _history(n, rng)
        kept = charts._draw(history, panels, PALETTE, xlabel, dpi)
        new = figure_png(charts.chart_figure(history, panels, PALETTE, xlabel, dpi), dpi)
        assert kept == new, n


def test_the_layout_is_kept_per_figure_not_per_history():
    rng = random.Random(8)
    charts._draw(_history(3, rng), TWO, PALETTE, "", charts.SMALL_DPI)
    before = dict(charts._FIGURES)
    charts._draw(_history(6, rng), TWO, PALETTE, "", charts.SMALL_DPI)
    assert charts._FIGURES == before  # the same figure, filled again
