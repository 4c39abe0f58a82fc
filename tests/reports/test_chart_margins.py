"""The charts' fixed margins (worked out from a few texts instead of ``tight_layout``,
which cost more than the chart): every label inside the picture, no panel's labels over another panel."""

from __future__ import annotations

import pytest

from reports.charts import SMALL_DPI, chart_figure

PALETTE = {"red": "#c0392b", "blue": "#2c6fbb", "green": "#d4a017", "yellow": "#333333", "purple": "#8e44ad"}
SEASONS = ("spring", "summer", "autumn")
TWO = (("scores", "Victory points"), ("armies", "Armies"))


def _history(n: int, big: int) -> list[dict]:
    return [{"turn": f"{1618 + i // 3}-{SEASONS[i % 3]}", "scores": {s: big * i - 3 * j for j, s in enumerate(PALETTE)},
             "armies": {s: 20 + i for s in PALETTE}} for i in range(n)]


CASES = [
    ("one season", _history(1, 1), TWO, "", SMALL_DPI),
    ("four seasons", _history(4, 5), TWO, "", SMALL_DPI),
    ("thirty seasons, three digits", _history(30, 40), TWO, "", SMALL_DPI),
    ("negative", _history(5, -9), TWO, "", SMALL_DPI),
    ("thirty seasons, one digit", [dict(h, scores={s: 1 for s in PALETTE}, armies={s: 2 for s in PALETTE})
                                   for h in _history(30, 1)], (("scores", "Victory points"),), "", SMALL_DPI),
    ("battles, one panel, x label", [{"turn": t, "scores": {s: i for s in PALETTE}}
                                     for i, t in enumerate(("start", "b1", "b2"))],
     (("scores", "Points after each battle"),), "battle", 100),
    ("rounds, x label", [{"turn": t, "scores": {s: 7 * i for s in PALETTE}, "money": {s: 1000 * i for s in PALETTE}}
                         for i, t in enumerate(("start", "r1", "r2", "r3", "r4"))],
     (("scores", "VP after each round"), ("money", "Thalers after each round")), "round", 100),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_label_lies_inside_the_picture_and_off_the_other_panels(case):
    _, history, panels, xlabel, dpi = case
    fig = chart_figure(history, panels, PALETTE, xlabel, dpi)
    fig.set_dpi(dpi)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    axes = fig.axes
    for i, ax in enumerate(axes):
        texts = [ax.title, ax.xaxis.label, *ax.get_xticklabels(), *ax.get_yticklabels()]
        for text in texts:
            if not text.get_visible() or not text.get_text():
                continue
            box = text.get_window_extent(renderer)
            assert page.x0 - 0.5 <= box.x0 and box.x1 <= page.x1 + 0.5, (case[0], text.get_text())
            assert page.y0 - 0.5 <= box.y0 and box.y1 <= page.y1 + 0.5, (case[0], text.get_text())
            for other in axes[:i] + axes[i + 1:]:
                assert not box.overlaps(other.bbox), (case[0], text.get_text(), "over another panel")
    legend = axes[0].get_legend().get_window_extent(renderer)
    assert axes[0].bbox.contains(legend.x0, legend.y0) and axes[0].bbox.contains(legend.x1, legend.y1)


def test_the_margins_are_not_wasteful():
    """The panels take most of the picture (margins near what the labels need)."""
    fig = chart_figure(_history(4, 5), TWO, PALETTE, "", SMALL_DPI)
    sp = fig.subplotpars
    assert sp.left < 0.07 and sp.right > 0.97 and sp.bottom < 0.3 and sp.top > 0.86
