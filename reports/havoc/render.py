"""Render one Havoc report: text, HTML and the points chart."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from reports.havoc.chart import points_chart
from reports.havoc.content import build_doc
from reports.model import ReportInput, Rendered
from reports.templating import html_env, text_env

_LOADER = jinja2.PackageLoader("reports.havoc", "templates")


@lru_cache(maxsize=1)
def _envs() -> tuple[jinja2.Environment, jinja2.Environment]:
    """The shared environments (filters, autoescape for HTML) with the Havoc templates added."""
    def overlay(env: jinja2.Environment) -> jinja2.Environment:
        return env.overlay(loader=jinja2.ChoiceLoader([_LOADER, env.loader]))  # type: ignore[list-item]
    return overlay(text_env()), overlay(html_env())


def render(inp: ReportInput) -> Rendered:
    """The report for ``inp.viewer``, built from ``inp.view`` and the public history alone."""
    doc, banner = build_doc(inp)
    text_e, html_e = _envs()
    raw = text_e.get_template("havoc.txt.j2").render(doc=doc, banner=banner)
    text = "\n".join(line.rstrip() for line in raw.splitlines()) + "\n"
    html = html_e.get_template("havoc.html.j2").render(doc=doc, banner=banner)
    images = {}
    if inp.history:
        images["chart.png"] = points_chart(inp.history, list(inp.view.get("seats") or []), inp.seat_colors)
    return Rendered(text=text, html=html, images=images)
