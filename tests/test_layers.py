"""The directions of dependency: adjudicator and turns are pure; reports get views only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "adjudicator": {"pbem", "turns", "reports", "random", "time", "datetime", "sqlite3", "sqlite_utils",
                    "click", "smtplib", "socket", "urllib", "requests", "subprocess"},
    "turns": {"pbem", "reports", "random", "time", "datetime", "sqlite3", "sqlite_utils", "click",
              "smtplib", "socket", "subprocess"},
    "reports": {"pbem", "random", "sqlite3", "sqlite_utils", "click", "smtplib", "socket"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _modules():
    for package in FORBIDDEN:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield package, path


@pytest.mark.parametrize("package,path", list(_modules()), ids=lambda v: str(v).replace(str(ROOT) + "/", ""))
def test_no_forbidden_imports(package, path):
    bad = _imports(path) & FORBIDDEN[package]
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_pure_packages_write_no_files():
    for package in ("adjudicator", "turns"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for needle in ("open(", ".write_text(", ".write_bytes("):
                for line in text.splitlines():
                    if needle in line and "\"rb\"" not in line and "'rb'" not in line and "read" not in line \
                            and not line.strip().startswith("#"):
                        if needle == "open(" and ("encoding" in line and "\"w" not in line):
                            continue
                        pytest.fail(f"{path.relative_to(ROOT)} may write a file: {line.strip()}")
