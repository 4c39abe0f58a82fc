"""The map: no label over another label, each county's name inside its cell, symbols that
cannot be mistaken for each other."""

from __future__ import annotations

import pytest

from adjudicator.base import GM
from adjudicator.registry import get_engine
from reports.wallenstein.geometry import counties
from reports.wallenstein.mapplot import NAME, label_boxes, map_figure, name_fits, overlapping
from tests.reports.games import play

GAMES = [("real-3", ("red", "blue", "green"), {}), ("real-4", ("red", "blue", "green", "yellow"), {}),
         ("real-5", ("red", "blue", "green", "yellow", "purple"), {"setup": "draft"})]


@pytest.fixture(scope="module")
def maps():
    engine = get_engine("wallenstein")
    out = []
    for seed, seats, opts in GAMES:
        turns = play(seed, seats, opts)
        for turn in (turns[0], turns[2], turns[-1]):
            for viewer in (seats[0], GM):
                out.append((f"{seed} {turn.label} {viewer}", map_figure(engine.view(turn.state, viewer), seed)))
    return out


def test_no_label_box_overlaps_another(maps):
    for where, fig in maps:
        boxes = label_boxes(fig)
        assert len(boxes) > 60
        assert overlapping(boxes) == [], where


def test_every_name_fits_its_cell(maps):
    geo = counties()
    for where, fig in maps:
        ax = fig.axes[0]
        names = [t for t in ax.texts if str(t.get_gid() or "").startswith(NAME)]
        assert len(names) >= 30
        for text in names:
            county = str(text.get_gid())[len(NAME):]
            assert name_fits(fig, ax, text, geo[county].cell), (where, county, text.get_fontsize())
            if county in ("Hm. Paderborn", "Fm. Bayern"):  # once too thin: now at full size
                assert text.get_fontsize() == 7.5, (where, county, text.get_fontsize())


def test_region_names_are_drawn_clear_of_county_labels(maps):
    for where, fig in maps:
        texts = [t.get_text() for t in fig.axes[0].texts]
        assert {"BRANDENBURG", "SACHSEN", "KURPFALZ", "BAYERN", "ÖSTERREICH"} <= set(texts), where


def test_battle_and_closed_border_symbols_differ_from_each_other():
    """The battle outline is solid (dashed lines are neighbour links); a closed border is a
    hollow circle, not a cross like the battle's swords."""
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Polygon

    from reports.wallenstein.mapplot import BATTLE

    engine = get_engine("wallenstein")
    turn = play("real-3")[0]
    fig = map_figure(engine.view(turn.state, GM), "x")
    ax = fig.axes[0]
    outlines = [p for p in ax.patches if isinstance(p, Polygon) and p.get_edgecolor() == to_rgba(BATTLE)]
    assert outlines and all(p.get_linestyle() in ("-", "solid") for p in outlines)
    markers = [line.get_marker() for line in ax.lines]
    assert "x" not in markers and "+" not in markers


def test_every_army_badge_lies_in_its_county(maps):
    """Each county is big enough for its markers too (Fm. Bayern, Hm. Paderborn)."""
    from matplotlib.path import Path

    geo = counties()
    for where, fig in maps:
        ax, renderer = fig.axes[0], fig.canvas.get_renderer()
        badges = [t for t in ax.texts if t.get_bbox_patch() is not None
                  and type(t.get_bbox_patch().get_boxstyle()).__name__ == "Circle"]
        assert len(badges) >= 10, where
        for text in badges:
            x, y = text.get_position()  # the badge sits just below the county's centre
            county = min(geo.values(), key=lambda c: (c.centre[0] - x) ** 2 + (c.centre[1] - 0.05 - y) ** 2)
            text.update_bbox_position_size(renderer)
            corners = text.get_bbox_patch().get_window_extent(renderer).corners()
            assert Path(ax.transData.transform(county.cell)).contains_points(corners).all(), (where, county.name)
