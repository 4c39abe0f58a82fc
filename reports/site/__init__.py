"""A static site of a game's public history (``pbem site G --out DIR``).

Pure: :func:`build_site` turns a :class:`SiteInput` (public reports already rendered by the
game's renderer for the ``@public`` viewer, the public score history, the record text, the
verification result) into file names and bytes. The pages work from ``file://`` and on any
static host: relative links only, no network, one small inline script for the turn slider
(every turn is also a plain link, so the site reads without scripts too).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache

import jinja2

from reports.files import report_files
from reports.model import Rendered


@dataclass
class SitePage:
    """One turn's page: its label, the public report rendered after it, and the turn's name
    in the game's words (``the end of round 2``; shown instead of the label when given)."""

    turn: str
    rendered: Rendered
    name: str = ""


@dataclass
class SiteInput:
    """Everything the site shows; all of it public (the shell decides what is)."""

    game_id: str
    game: str
    seats: list[str]
    status: str
    pages: list[SitePage]
    chart_png: bytes | None = None
    notes: list[str] = field(default_factory=list)  # branch, rollbacks: one line each
    record_text: str | None = None
    record_note: str = ""
    verified: bool = False
    verification: list[str] = field(default_factory=list)
    archive_name: str | None = None
    archive_bytes: bytes | None = None
    archive_note: str = ""
    commitment: str = ""
    seed: str | None = None


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("reports.site", "templates"), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def page_dir(index: int, turn: str) -> str:
    """The folder of the ``index``-th page (0-based): a number and the turn label, safe as a name."""
    return f"turns/{index + 1:03d}-{re.sub(r'[^A-Za-z0-9._-]+', '-', turn).strip('-') or 'turn'}"


def build_site(inp: SiteInput) -> dict[str, bytes]:
    """File name (relative, ``/``-separated) -> bytes of the whole site."""
    files: dict[str, bytes] = {}
    turns = []
    for i, page in enumerate(inp.pages):
        folder = page_dir(i, page.turn)
        for name, data in report_files(page.rendered).items():
            files[f"{folder}/{name}"] = data
        turns.append({"label": page.name or page.turn, "href": f"{folder}/report.html", "text": f"{folder}/report.txt"})
    if inp.chart_png:
        files["chart.png"] = inp.chart_png
    if inp.archive_name and inp.archive_bytes is not None:
        files[inp.archive_name] = inp.archive_bytes
    if inp.record_text is not None:
        files["record.txt"] = inp.record_text.encode("utf-8")
    from reports.gamenames import game_title

    context = {"inp": inp, "turns": turns, "turns_json": json.dumps(turns, ensure_ascii=True),
               "title": game_title(inp.game)}
    files["index.html"] = _env().get_template("index.html.j2").render(**context).encode("utf-8")
    files["record.html"] = _env().get_template("record.html.j2").render(**context).encode("utf-8")
    return files
