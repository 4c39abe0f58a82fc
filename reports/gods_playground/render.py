"""Render one God's Playground report: text (72 columns), HTML, the map and the chart."""

from __future__ import annotations

from reports.gods_playground.chart import vp_money_chart
from reports.gods_playground.content import build_doc
from reports.gods_playground.mapplot import map_png
from reports.gods_playground.names import family_colors
from reports.model import ReportInput, Rendered
from reports.templating import render_html, render_text


def render(inp: ReportInput) -> Rendered:
    """The report for ``inp.viewer``, built from ``inp.view``, the public history and the
    public derived events since the last report alone."""
    images = {"map.png": map_png(inp.view)}
    if inp.history:
        images["chart.png"] = vp_money_chart(inp.history, inp.view.get("seats") or {}, inp.seat_colors)
    doc, banner = build_doc(inp, images)
    palette = family_colors(inp.view.get("seats") or {}, inp.seat_colors)
    text = render_text("gods_playground.txt.j2", doc=doc, banner=banner)
    html = render_html("gods_playground.html.j2", doc=doc, banner=banner, palette=palette)
    return Rendered(text=text, html=html, images=images)
