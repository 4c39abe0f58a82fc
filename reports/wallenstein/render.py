"""Render one Wallenstein season report: text, HTML, map and chart."""

from __future__ import annotations

from reports import charts
from reports.colors import seat_colors
from reports.i18n import _
from reports.model import ReportInput, Rendered
from reports.templating import render_html, render_text
from reports.wallenstein.content import build_doc
from reports.wallenstein.court import turn_label
from reports.wallenstein.mapplot import render_map


def render_documents(inp: ReportInput) -> tuple[str, str]:
    """The text and HTML of the report (no pictures; cheap)."""
    doc, banner = build_doc(inp)
    palette = seat_colors(inp.view.get("seats", {}))
    return (render_text("wallenstein.txt.j2", doc=doc, banner=banner),
            render_html("wallenstein.html.j2", doc=doc, banner=banner, palette=palette))


def render_images(inp: ReportInput) -> dict[str, bytes]:
    """The map, and the chart once there is history, as PNG bytes."""
    # no viewer in the title: every viewer of a turn shares one public map picture
    title = _("Wallenstein {game} after {turn}").format(game=inp.game_id, turn=turn_label(inp.turn))
    images = {"map.png": render_map(inp.view, title)}
    if inp.history:
        palette = seat_colors(inp.view.get("seats", {}))
        history = [{**h, "turn": turn_label(str(h.get("turn", "")))} for h in inp.history]  # x labels in words
        images["chart.png"] = charts.line_charts(history, (("scores", _("Victory points")), ("armies", _("Armies"))),
                                                 palette, dpi=charts.SMALL_DPI)
    return images


def render(inp: ReportInput) -> Rendered:
    """The report for ``inp.viewer``, built from ``inp.view`` alone."""
    text, html = render_documents(inp)
    return Rendered(text=text, html=html, images=render_images(inp))
