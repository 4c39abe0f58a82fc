"""The mail modules import each other without a circle (mailin -> notify ->
replies -> mailin): their shared part, pbem/mailout/mailbase.py, imports none of them."""

from __future__ import annotations

import ast
from pathlib import Path

PBEM = Path(__file__).resolve().parents[2] / "pbem"
MAIL = {"pbem.mailin.parse", "pbem.mailout.notify", "pbem.mailout.replies", "pbem.mailout.mailbase", "pbem.loop.ingest", "pbem.mailout.reporting"}


def imports(module: str) -> set[str]:
    """Every pbem module ``module`` imports, at the top or inside a function."""
    tree = ast.parse((PBEM / (module.split(".", 1)[1].replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {name for name in found if (PBEM / (name.split(".", 1)[-1].replace(".", "/") + ".py")).is_file()
            and name.startswith("pbem.")}


def reach(start: str) -> set[str]:
    """The pbem modules reachable from ``start`` through imports."""
    seen, todo = set(), [start]
    while todo:
        for name in imports(todo.pop()):
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return seen


def test_mailbase_imports_no_mail_module():
    assert not imports("pbem.mailout.mailbase") & MAIL


def test_no_mail_module_reaches_itself():
    for module in sorted(MAIL):
        assert module not in reach(module), module
