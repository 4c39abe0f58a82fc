"""Texts drawn from remembered layouts and glyphs (reports.glyphs) give matplotlib's own
pixels: maps and charts in three languages, drawn afresh and again from memory."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from reports import charts, glyphs
from reports.i18n import speaking
from reports.glyphs import GlyphRenderer
from reports.pngout import SharedCanvas
from reports.wallenstein import mapplot
from tests.reports.games import play, report_input

pytestmark = pytest.mark.skipif(not glyphs._AVAILABLE, reason="this matplotlib lays text out another way")


@pytest.fixture(scope="module")
def turn():
    return play("glyphs", ("red", "blue", "green", "yellow"))[3]


def _pixels(fig, canvas_type) -> np.ndarray:
    canvas = canvas_type(fig)
    canvas.draw()
    return np.array(np.asarray(canvas.buffer_rgba()))


def _figures(turn, language):
    inp = report_input("g", "glyphs", turn, "red")
    with speaking(language):
        yield mapplot.map_figure(inp.view, f"Wallenstein g ({language})")
        history = [{**h, "turn": str(h["turn"])} for h in inp.history]
        yield charts.chart_figure(history, (("scores", "VP"), ("armies", "Armee")), dict(
            (s, d["color"]) for s, d in inp.view["seats"].items()), dpi=charts.SMALL_DPI)


@pytest.mark.parametrize("language", ["en", "de", "hu"])
def test_pictures_are_the_pixels_matplotlib_draws(turn, language):
    glyphs.clear()
    for fig in _figures(turn, language):
        fig.set_dpi(mapplot.DPI)
        fresh = _pixels(fig, SharedCanvas)  # every glyph rendered now
        assert glyphs.remembering() and glyphs._GLYPHS and glyphs._LAYOUTS
        again = _pixels(fig, SharedCanvas)  # every glyph from memory
        plain = _pixels(fig, FigureCanvasAgg)  # matplotlib's own renderer
        assert (fresh == plain).all() and (again == plain).all()


def test_the_check_finds_a_glyph_out_of_place(monkeypatch):
    """The once-per-process check compares with matplotlib's drawing: a glyph rendered at
    the wrong sub-pixel phase, or put a pixel off, is found (and texts are then drawn as
    matplotlib draws them)."""
    assert glyphs._same_pixels()
    real = glyphs._render
    monkeypatch.setattr(glyphs, "_render", lambda f, s, d, g, m, px, py, fl, aa: real(f, s, d, g, m, 0, 0, fl, aa))
    assert not glyphs._same_pixels()

    def shifted(*args):
        bitmap, left, top = real(*args)
        return bitmap, left + 1, top

    monkeypatch.setattr(glyphs, "_render", shifted)
    assert not glyphs._same_pixels()


def test_without_the_check_texts_are_drawn_as_matplotlib_draws_them(monkeypatch, turn):
    monkeypatch.setattr(glyphs, "_checked", [False])
    glyphs.clear()
    fig = next(_figures(turn, "en"))
    fig.set_dpi(mapplot.DPI)
    assert (_pixels(fig, SharedCanvas) == _pixels(fig, FigureCanvasAgg)).all()
    assert not glyphs._GLYPHS and not glyphs._LAYOUTS


@pytest.mark.parametrize("dpi", [80, 100])
def test_texts_are_laid_out_with_matplotlibs_font_heights(dpi):
    """The renderer answers matplotlib's question for a font's ascent, descent and line gap
    from memory: every text's box is the one matplotlib's own renderer gives."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.figure import Figure

    glyphs.clear()
    fig = Figure(figsize=(4, 3), dpi=dpi)
    texts = [fig.text(0.1 + i / 20, 0.1 + i / 25, words, fontsize=size, fontweight=weight, family=family,
                      rotation=rotation)
             for i, (words, size, weight, family, rotation) in enumerate(
                 [("Mähren 12", 7.5, "bold", "sans-serif", 0), ("⚔ ▲3", 10, "normal", "sans-serif", 0),
                  ("P C T", 7, "normal", "monospace", 0), ("1619 autumn\nzwei Zeilen", 8, "normal", "serif", 45),
                  ("ÖSTERREICH", 13, "bold", "sans-serif", 0)])]
    mine, plain = GlyphRenderer(400, 300, dpi), RendererAgg(400, 300, dpi)
    def laid_out(text, renderer):  # the layout's boxes, lines and descent, comparable
        return repr([part.bounds if hasattr(part, "bounds") else part for part in text._get_layout(renderer)])

    for text in texts:
        assert laid_out(text, mine) == laid_out(text, plain)
    assert glyphs._HEIGHTS  # answered from memory
