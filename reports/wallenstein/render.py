"""Render one Wallenstein season report: text, HTML, map and chart."""

from __future__ import annotations

from reports import charts
from reports.colors import seat_colors
from reports.model import ReportInput, Rendered
from reports.templating import render_html, render_text
from reports.wallenstein.content import build_doc, viewer_label
from reports.wallenstein.mapplot import render_map


def render(inp: ReportInput) -> Rendered:
    """The report for ``inp.viewer``, built from ``inp.view`` alone."""
    doc, banner = build_doc(inp)
    text = render_text("wallenstein.txt.j2", doc=doc, banner=banner)
    html = render_html("wallenstein.html.j2", doc=doc, banner=banner)
    title = f"Wallenstein {inp.game_id} after {inp.turn} ({viewer_label(inp.viewer)})"
    images = {"map.png": render_map(inp.view, title)}
    if inp.history:
        palette = seat_colors(inp.view.get("seats", {}))
        images["chart.png"] = charts.line_charts(inp.history, (("scores", "Victory points"), ("armies", "Armies")),
                                                 palette)
    return Rendered(text=text, html=html, images=images)
