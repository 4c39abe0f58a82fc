"""Golden God's Playground text reports, and the HTML report in headless Chromium."""

from __future__ import annotations

import io

import pytest

from reports.files import write_report
from reports.render import render_report
from tests.gods_playground_reports.games import play, report_input
from tests.gods_playground_reports.golden import HERE, SEED, cases
from tests.reports.browser import WINDOW, chromium, screenshot


def test_golden_reports_unchanged():
    for name, _, text in cases():
        want = (HERE / name).read_text(encoding="utf-8")
        assert text == want, f"{name} differs: review, then regenerate with `make golden`"


@pytest.mark.skipif(chromium() is None, reason="Debian's chromium is not installed (apt-get install -y chromium)")
def test_report_html_and_map_render_in_chromium(tmp_path):
    from PIL import Image

    step = play(SEED)[60]
    paths = write_report(render_report(report_input(step, "blue", SEED)), tmp_path / "r")
    html = next(p for p in paths if p.suffix == ".html")
    shot = screenshot(html, tmp_path / "tall.png", window=(WINDOW[0], 9000))
    image = Image.open(io.BytesIO(shot.read_bytes())).convert("RGB")
    counts = {rgb: n for n, rgb in image.getcolors(maxcolors=10_000_000)}
    assert counts.get((0xff, 0xfd, 0xf8), 0) > 10_000  # the page's own background: styles applied
    assert counts.get((0xef, 0xe3, 0xc4), 0) > 5_000, "the map's province fill is not on the page"
    assert counts.get((0x00, 0x72, 0xb2), 0) > 50  # blue family pieces
