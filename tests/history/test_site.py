"""``pbem site`` — a static site of a game's public history, for every game."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from adjudicator.base import PUBLIC
from pbem.archives.archive import verify_archive
from pbem.store.events import fold_steps
from pbem.mailout.reporting import history, render_turn
from pbem.loop.reopen import rollback
from pbem.archives.site import write_site
from tests.reports.browser import FLAGS, chromium, screenshot
from tests.history.common import cli_game, play

SEED = "site-seed-" + "x" * 40
GAMES = [("wallenstein", {}, 2), ("wallenstein", {"expansion": "court"}, 2), ("havoc", {}, 8),
         ("gods-playground", {}, 2)]
LINK = re.compile(r'(?:href|src)="([^"#]+)(?:#[^"]*)?"')


def _play(service, game_id, engine, options, steps):
    return play(service, game_id, engine, options, steps, SEED)


def _links(out: Path) -> list[tuple[Path, str]]:
    """Every (page, target) of an href or src in the site's HTML files."""
    found = []
    for page in out.rglob("*.html"):
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if not target.startswith(("cid:", "data:")):
                found.append((page, target))
    return found


@pytest.mark.parametrize("engine,options,steps", GAMES, ids=lambda v: str(v))
def test_site_of_a_running_game_shows_only_public_reports(quiet, service, tmp_path, engine, options, steps):
    game = _play(service, "g1", engine, options, steps)
    out = tmp_path / "site"
    done = write_site(service, "g1", out)
    assert done["verified"] and not done["over"] and not done["record"] and done["archive"] is None
    assert done["pages"] >= 1 and (out / "index.html").is_file() and (out / "chart.png").is_file()
    for page, target in _links(out):
        assert not target.startswith(("http:", "https:", "/")), (page, target)  # works offline, anywhere
        assert (page.parent / target).resolve().is_file(), (page, target)  # every link resolves
    files = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert not any(SEED.encode() in data for data in files.values())  # the seed stays secret while running
    assert not (out / "record.txt").exists() and not list(out.glob("*.pbem.json"))
    # each page is exactly the public report of its turn (the reports' own leak tests cover those)
    events = service.store.events("g1")
    hist = history("g1", events, game.seed)
    last = next(s for i, s in enumerate(fold_steps("g1", events, game.seed)) if i == len(hist) - 1)
    want = render_turn(last, last.turns[-1], hist, only=[PUBLIC])[0].rendered.html.encode()
    pages = sorted(out.glob("turns/*/report.html"))
    assert pages[-1].read_bytes() == want
    index = (out / "index.html").read_text()
    assert "checked by the GM with the secret seed" in index  # running: the public cannot re-check yet
    assert all(json.dumps({"label": t})[1:-1] in index for t in done["names"])  # the slider's list, by name
    assert not any(json.dumps({"label": t})[1:-1] in index for t in done["turns"] if t not in done["names"])


def test_site_of_a_finished_game_has_record_archive_and_seed(quiet, service, tmp_path):
    _play(service, "w1", "wallenstein", {}, 2)
    rollback(service, "w1", "1618-summer", "a wrong order was recorded")
    service.adjudicate("w1", force=True)
    service.abandon("w1", "a test")
    out = tmp_path / "site"
    done = write_site(service, "w1", out)
    assert done["over"] and done["record"] and done["archive"] == "w1.pbem.json"
    assert verify_archive(json.loads((out / "w1.pbem.json").read_text())).ok
    index = (out / "index.html").read_text()
    assert SEED in index and "Rollback event" in index and "a wrong order was recorded" in index
    assert '[Game &#34;w1&#34;]' in (out / "record.html").read_text()
    assert '[Game "w1"]' in (out / "record.txt").read_text()
    assert done["turns"] == ["1618-spring", "1618-summer"]  # the set-aside turn has no page


def test_cli_site_json(tmp_path):
    run = cli_game(tmp_path)
    out = run("site", "w1", "--out", str(tmp_path / "s"), "--json")
    assert out.exit_code == 0, out.output
    assert set(json.loads(out.output)) == {"game", "out", "index", "pages", "turns", "names", "files", "verified",
                                           "over", "archive", "record"}


def _console(url: str) -> tuple[str, list[str]]:
    """The DOM after the page's scripts ran, and every console message Chromium logged."""
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        done = subprocess.run([str(chromium()), *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr",
                               "--v=0", "--virtual-time-budget=3000", "--dump-dom", url],
                              capture_output=True, text=True, timeout=180, check=False)
    return done.stdout, [line for line in done.stderr.splitlines() if ":CONSOLE" in line]


@pytest.mark.skipif(chromium() is None, reason="Debian's chromium is not installed (apt-get install -y chromium)")
def test_site_in_headless_chromium(quiet, service, tmp_path):
    _play(service, "w1", "wallenstein", {}, 3)
    out = tmp_path / "site"
    write_site(service, "w1", out)
    dom, console = _console((out / "index.html").as_uri() + "#turn=2")
    assert console == []  # no console errors (a missing picture or a script error would log one)
    assert 'data-ready="yes"' in dom  # the slider's script ran from file://
    assert re.search(r'id="turn-label">summer 1618<', dom) and "002-1618-summer/report.html" in dom
    for page in sorted(out.glob("turns/*/report.html")) + [out / "record.html"]:
        assert _console(page.as_uri())[1] == [], page
    shot = screenshot(out / "index.html", tmp_path / "site.png", window=(1100, 1600))
    from PIL import Image

    colours = Image.open(shot).convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 200  # the map and chart really show


def test_cli_site_text(tmp_path):
    run = cli_game(tmp_path)
    out = tmp_path / "s"
    said = run("site", "w1", "--out", str(out))
    assert said.exit_code == 0, said.output
    pages = json.loads(run("site", "w1", "--out", str(out), "--json").output)["pages"]
    assert pages >= 1 and said.output == (f"wrote the site of w1 to {out / 'index.html'}: {pages} turn page(s); "
                                          "verified; record and archive left out until the game ends\n")
