"""Golden God's Playground reports (text) and the docs/img pictures, from one seeded game.

Regenerate with ``make golden`` and review the diff like code before committing it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from adjudicator.base import GM, PUBLIC
from reports.files import write_report
from reports.render import render_report
from tests.gods_playground_reports.games import play, report_input
from tests.reports.browser import chromium, screenshot

SEED = "gp-golden-1"
HERE = Path(__file__).resolve().parent / "golden"
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
#: (turn label prefix, viewer): the first report after a round's campaigns, the end.
CASES = (("r1/nobles", "white"), ("r2/counter", "blue"), ("r2/counter", PUBLIC), ("r4/counter", GM))


def cases() -> list[tuple[str, str, str]]:
    """(file name, viewer, rendered text) of every golden report."""
    steps = play(SEED)
    out = []
    for prefix, viewer in CASES:
        step = [s for s in steps if s.turn.startswith(prefix)][-1]
        text = render_report(report_input(step, viewer, SEED, game_id="golden")).text
        who = {GM: "gm", PUBLIC: "public"}.get(viewer, viewer)
        out.append((f"gp-{prefix.replace('/', '-')}-{who}.txt", viewer, text))
    return out


def regenerate() -> list[Path]:
    """Write the golden texts, docs/img/gods-playground-map.png and (with chromium)
    docs/img/gods-playground-report.png."""
    HERE.mkdir(exist_ok=True)
    paths = []
    for name, _, text in cases():
        (HERE / name).write_text(text, encoding="utf-8")
        paths.append(HERE / name)
    steps = play(SEED)
    step = [s for s in steps if s.turn.startswith("r2/counter")][-1]
    rendered = render_report(report_input(step, "blue", SEED, game_id="golden"))
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    (DOCS_IMG / "gods-playground-map.png").write_bytes(rendered.images["map.png"])
    paths.append(DOCS_IMG / "gods-playground-map.png")
    if chromium() is not None:
        with tempfile.TemporaryDirectory() as tmp:
            html = next(p for p in write_report(rendered, tmp) if p.suffix == ".html")
            paths.append(screenshot(html, DOCS_IMG / "gods-playground-report.png"))
    return paths
