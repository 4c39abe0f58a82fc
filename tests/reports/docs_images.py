"""The pictures in docs/img: a rendered map and a browser screenshot of an HTML report,
both from the golden seeded game (regenerated with the golden files: ``make golden``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from reports.files import write_report
from reports.render import render_report
from tests.reports.browser import chromium, screenshot
from tests.reports.games import play, report_input
from tests.reports.golden import GAME_ID, SEATS, SEED

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
TURN, VIEWER = "1618-autumn", "red"


def regenerate() -> list[Path]:
    """Write docs/img/wallenstein-map.png and (with chromium) wallenstein-report.png."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    turn = next(t for t in play(SEED, SEATS) if t.label == TURN)
    rendered = render_report(report_input(GAME_ID, SEED, turn, VIEWER))
    paths = [DOCS_IMG / "wallenstein-map.png"]
    paths[0].write_bytes(rendered.images["map.png"])
    if chromium() is None:
        print("chromium not installed: docs/img/wallenstein-report.png not regenerated")
        return paths
    with tempfile.TemporaryDirectory() as tmp:
        html = next(p for p in write_report(rendered, tmp) if p.suffix == ".html")
        paths.append(screenshot(html, DOCS_IMG / "wallenstein-report.png"))
    return paths
