"""A map drawn into a kept figure (reports.wallenstein.mapplot keeps one per legend and
fills it again with the next season) has the same bytes as one drawn into a new figure:
seasons of a 5-seat and a 3-seat game, counties going out of play and back, battles, in
English and German."""

from __future__ import annotations

import copy

import pytest

from reports.i18n import speaking
from reports.pngout import LOCK, figure_png
from reports.wallenstein import mapplot
from tests.reports.games import play, report_input


@pytest.fixture(scope="module")
def views():
    five = play("map-reuse", ("red", "blue", "green", "yellow", "purple"))
    three = play("map-reuse-3", ("red", "blue", "green"))
    out = [report_input("k", "map-reuse", t, "red").view for t in (five[1], five[3])]
    small = report_input("k", "map-reuse-3", three[2], "blue").view
    every = set(mapplot.counties())
    assert set(small["counties"]) < every  # counties out of play (hatched)
    swapped = copy.deepcopy(small)  # a county out of play comes back, two others go out
    back = min(every - set(small["counties"]))
    swapped["counties"][back] = {"owner": "red", "armies": 3, "buildings": ["church"], "revolt_markers": 1}
    gone = sorted(swapped["counties"])[:2]
    del swapped["counties"][gone[0]]
    swapped["counties"][gone[1]] = {**swapped["counties"][gone[1]], "out_of_play": True}
    return [*out, small, swapped, small]


@pytest.mark.parametrize("language,count", [("en", 5), ("de", 2)])
def test_a_kept_figure_draws_what_a_new_one_draws(views, language, count):
    mapplot.clear_cache()
    with speaking(language), LOCK:
        for view in views[:count]:
            battles = bool(mapplot.battle_counties(view))
            kept = mapplot.kept_figure(view, f"after {len(view['counties'])} {battles}")
            assert figure_png(kept, mapplot.DPI) == figure_png(mapplot.map_figure(view, kept._suptitle.get_text()),
                                                               mapplot.DPI)
    assert len(mapplot._FIGURES) == (2 if count > 2 else 1)  # one per legend: the 5-seat and the 3-seat palette


def test_the_season_map_is_drawn_on_a_kept_figure(views):
    mapplot.clear_cache()
    first = mapplot.render_map(views[0], "t")
    assert len(mapplot._FIGURES) == 1
    second = mapplot.render_map(views[1], "t")
    assert len(mapplot._FIGURES) == 1 and first != second
    mapplot.clear_cache()
    assert mapplot.render_map(views[1], "t") == second  # as drawn on a new figure
