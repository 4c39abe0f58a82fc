"""The HTML report opens in a real browser (headless Chromium) and renders."""

from __future__ import annotations

import io

import pytest

from reports.files import write_report
from reports.render import render_report
from tests.reports.browser import WINDOW, chromium, screenshot
from tests.reports.games import play, report_input
from tests.reports.pngcheck import png_size

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="Debian's chromium is not installed (apt-get install -y chromium)")


def test_report_html_screenshot(tmp_path):
    turn = play("browser-1")[2]
    rendered = render_report(report_input("browser", "browser-1", turn, "red"))
    paths = write_report(rendered, tmp_path / "report")
    html = next(p for p in paths if p.suffix == ".html")
    shot = screenshot(html, tmp_path / "shot.png")
    data = shot.read_bytes()
    assert png_size(data) == WINDOW
    # the page really rendered: many colours (text, table shading, the map's seat colours)
    from PIL import Image
    image = Image.open(io.BytesIO(data)).convert("RGB")
    colours = image.getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 200
    # the page background colour of the report is present (the stylesheet applied)
    assert any(rgb == (0xff, 0xfd, 0xf8) for _, rgb in colours)


def test_map_picture_loads_in_the_page(tmp_path):
    """A tall window shows the whole page: the map's county fill colours must be on it."""
    from PIL import Image

    from reports.colors import lighten, seat_colors

    turn = play("browser-1")[2]
    inp = report_input("browser", "browser-1", turn, "red")
    paths = write_report(render_report(inp), tmp_path / "report")
    html = next(p for p in paths if p.suffix == ".html")
    shot = screenshot(html, tmp_path / "tall.png", window=(1000, 9000))
    image = Image.open(shot).convert("RGB")
    counts = {rgb: n for n, rgb in image.getcolors(maxcolors=10_000_000)}
    fill = lighten(seat_colors(inp.view["seats"])["red"], 0.5).lstrip("#")
    rgb = tuple(int(fill[i:i + 2], 16) for i in (0, 2, 4))
    assert counts.get(rgb, 0) > 500, "the map picture did not show up in the page"
