"""Golden report files: a fixed seeded game rendered, diffed by the tests, regenerated
by ``make golden`` (``python -m tests.golden_regen``) and reviewed like code."""

from __future__ import annotations

from pathlib import Path

from adjudicator.base import GM, PUBLIC
from reports.wallenstein.render import render_documents
from tests.reports.games import play, report_input

GOLDEN_DIR = Path(__file__).parent / "golden"
GAME_ID = "golden"
SEED = "golden-seed-1"
SEATS = ("red", "blue", "green")
#: (turn, viewer, format) of every golden file. A seat sees every season; the public and
#: the GM are kept for the first winter and for the end of the game.
CASES = ([(t, "red", "txt") for t in ("1618-spring", "1618-summer", "1618-autumn", "1619-spring",
                                      "1619-summer", "1619-autumn")]
         + [(t, v, "txt") for t in ("1618-autumn", "1619-autumn") for v in ("blue", PUBLIC, GM)]
         + [("1618-autumn", "red", "html")])


def file_name(turn: str, viewer: str, fmt: str) -> str:
    """``golden-1618-autumn-red.txt``; ``@public``/``@gm`` become ``public``/``gm``."""
    return f"{GAME_ID}-{turn}-{viewer.lstrip('@')}.{fmt}"


def render_all() -> dict[str, str]:
    """File name -> expected contents for every golden case."""
    turns = {t.label: t for t in play(SEED, SEATS)}
    out = {}
    for turn, viewer, fmt in CASES:
        text, html = render_documents(report_input(GAME_ID, SEED, turns[turn], viewer))
        out[file_name(turn, viewer, fmt)] = text if fmt == "txt" else html
    return out


def regenerate() -> list[Path]:
    """Rewrite every golden file (and remove stale ones); the paths written."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    wanted = render_all()
    for old in GOLDEN_DIR.glob(f"{GAME_ID}-*"):
        if old.name not in wanted:
            old.unlink()
    paths = []
    for name, text in wanted.items():
        path = GOLDEN_DIR / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths
