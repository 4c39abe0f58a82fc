"""The engine registry: imports run one way (registry -> engines -> base; registry -> games)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "adjudicator"
UPWARD = {"adjudicator.games", "adjudicator.registry"}


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at top level or inside functions."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_base_and_engines_never_import_the_registry():
    for path in [ROOT / "base.py", ROOT / "chance.py", *ROOT.glob("*/*.py")]:
        assert not (_imports(path) & UPWARD), f"{path} imports the registry: an import circle"


def test_every_builtin_engine_is_registered():
    from adjudicator.registry import BUILTIN, engine_names, get_engine

    for engine in BUILTIN:
        assert get_engine(engine.name) is engine
    assert {"wallenstein", "havoc"} <= set(engine_names())
