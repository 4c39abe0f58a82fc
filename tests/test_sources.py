"""Product files cite sources, never paths outside the repository.

Data files, views, report footers and docs name the seed file, a rule section or a public
page; a path of the team's shared folder or of a development machine means nothing to a
reader of a report.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("adjudicator", "turns", "reports", "pbem", "docs")
SUFFIXES = {".py", ".json", ".md", ".j2", ".html", ".txt", ".toml"}
# a shared-folder path, or an absolute path of a development machine
FORBIDDEN = re.compile(r"/work/|\bshared/(data|rules|seeds)\b|FINDINGS[\w.]*\.md|/Users/|[A-Z]:\\\\")


def _files() -> list[Path]:
    out = [ROOT / "README.md"]
    for top in PRODUCT:
        out += [p for p in (ROOT / top).rglob("*") if p.suffix in SUFFIXES and p.is_file()]
    return out


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_path_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    hits = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in FORBIDDEN.finditer(text)]
    assert not hits, f"{path.relative_to(ROOT)} cites a path outside the repository: {hits}"


def test_views_name_no_path() -> None:
    from adjudicator.havoc import ENGINE as HAVOC
    from adjudicator.wallenstein import ENGINE as WALLENSTEIN

    for engine, seats in ((WALLENSTEIN, ["a", "b", "c"]), (HAVOC, ["a", "b"])):
        state, _ = engine.create(seats, {}, "seed")
        text = repr(engine.view(state, "@public").get("provisional"))
        assert not FORBIDDEN.search(text), text
