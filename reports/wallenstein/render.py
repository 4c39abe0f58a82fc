"""Render one Wallenstein season report: text, HTML, map and chart."""

from __future__ import annotations

from reports import charts
from reports.colors import seat_colors
from reports.model import ReportInput, Rendered
from reports.templating import render_html, render_text
from reports.wallenstein.content import build_doc
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
    title = f"Wallenstein {inp.game_id} after {inp.turn}"
    images = {"map.png": render_map(inp.view, title)}
    if inp.history:
        palette = seat_colors(inp.view.get("seats", {}))
        images["chart.png"] = charts.line_charts(inp.history, (("scores", "Victory points"), ("armies", "Armies")),
                                                 palette, dpi=charts.SMALL_DPI)
    return images


def render(inp: ReportInput) -> Rendered:
    """The report for ``inp.viewer``, built from ``inp.view`` alone."""
    text, html = render_documents(inp)
    return Rendered(text=text, html=html, images=render_images(inp))
