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


# -- the shell's rooms and the import graph ---------------------------------------------------
#: The rooms of pbem/, lowest first: a module may import modules of its own room and of the
#: rooms before it, never of a room after it (the arrows of data and imports in
#: docs/architecture.md, "The rooms"). ``pbem/errors.py`` and ``pbem/outfiles.py`` are the
#: shared ground every room stands on; ``pbem/__main__.py`` is the command line's.
ROOMS = ("ground", "store", "mailout", "mailin", "club", "archives", "loop", "cli")
GROUND = {"pbem", "pbem.errors", "pbem.outfiles"}
PACKAGES = ("adjudicator", "turns", "reports", "pbem")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _all_modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def _arrows(path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ours that ``path`` imports: import statements at module level and inside
    functions both count (a function-level import runs as surely, only later), except those
    under ``if TYPE_CHECKING:``, which never run. ``from pkg import name`` is an arrow to
    ``pkg.name`` when that is a module, else to ``pkg``. A module found by a name computed at
    run time (``importlib.import_module(f"turns.{game}")``: a game's own module, a command
    module loaded on demand) is a plug-in looked up, not an arrow: the code that looks it up
    names no module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
    me = _module_name(path)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {name for name in found if name in modules and name != me}


def _graph() -> dict[str, set[str]]:
    modules = _all_modules()
    return {name: _arrows(path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each with one
    circle through it spelled out."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(_circle(graph, sorted(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _circle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One circle from the first module of ``component`` back to it (breadth first)."""
    start, inside = component[0], set(component)
    came: dict[str, str] = {}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & inside):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return [*reversed(path), start]
            if w not in came:
                came[w] = v
                todo.append(w)
    return component


#: Import circles still to be broken, by their modules; the list may only shrink (none now).
KNOWN_CIRCLES: list[set[str]] = []


def test_no_import_cycles_anywhere():
    """No module of adjudicator/, turns/, reports/ or pbem/ reaches itself through imports
    (but the circles of :data:`KNOWN_CIRCLES`, which must still be there)."""
    cycles = _cycles(_graph())
    new = [c for c in cycles if set(c) not in KNOWN_CIRCLES]
    assert not new, "import circles: " + "; ".join(" -> ".join(c) for c in new)
    gone = [sorted(k) for k in KNOWN_CIRCLES if k not in [set(c) for c in cycles]]
    assert not gone, f"circles broken (take them off KNOWN_CIRCLES): {gone}"


def _room(module: str) -> str:
    if module in GROUND:
        return "ground"
    parts = module.split(".")
    return "cli" if parts[1] == "__main__" else parts[1]


def test_every_module_of_pbem_is_in_a_room():
    rooms = {_room(m) for m in _all_modules() if m.startswith("pbem")}
    assert rooms <= set(ROOMS), f"pbem/ has modules outside the rooms: {sorted(rooms - set(ROOMS))}"


def test_the_rooms_import_one_way():
    """A room imports only its own modules and those of the rooms below it."""
    wrong = []
    for module, targets in sorted(_graph().items()):
        if not module.startswith("pbem"):
            continue
        mine = ROOMS.index(_room(module))
        wrong += [f"{module} -> {t}" for t in sorted(targets)
                  if t.startswith("pbem") and ROOMS.index(_room(t)) > mine]
    assert not wrong, "imports against the rooms' direction: " + "; ".join(wrong)


def test_the_graph_sees_circles_and_upward_arrows():
    """The checks above can fail: a made-up circle and a made-up upward arrow are found."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    graph = _graph()
    assert "pbem.store.events" in graph["pbem.store.heads"]  # a function-level import is an arrow
    assert ROOMS.index(_room("pbem.loop.ingest")) > ROOMS.index(_room("pbem.store.db"))


def test_docs_open_with_the_map_of_the_rooms():
    """docs/architecture.md opens with the rooms (each room's path in the table of its first
    section) and the direction of imports, as :data:`ROOMS` has them."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    opening = text.split("\n## ", 2)[1]
    assert opening.startswith("The rooms")
    for room in ROOMS[1:]:
        assert f"`pbem/{room}/`" in opening, f"docs/architecture.md's map of the rooms lacks pbem/{room}/"
    arrows = [f"pbem/{room}" for room in reversed(ROOMS[1:])]
    assert " -> ".join(arrows) in opening, "the map's arrow of imports is not the order of ROOMS"


CODE_DIRS = ("pbem", "adjudicator", "turns", "reports", "bench", "tests")


def test_code_cites_rules_and_reasons_not_issue_numbers():
    """A reader of the code has no issue tracker: comments and docstrings say what the code
    does and why (the rule, the reason), never which issue asked for it."""
    import re

    pattern = re.compile(r"\bissues?\s+#?\d", re.IGNORECASE)
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
             for package in CODE_DIRS for path in sorted((ROOT / package).rglob("*.py"))
             if "compat/corpus" not in str(path)
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found, "issue numbers in code:\n" + "\n".join(found[:20])


#: Modules and classes still over the sizes below, each to be split along what it does; the
#: list may only shrink (a new one over the limit fails, and so does one that got under it).
#: None is left: a module or class that grows past a limit is split along what it does.
STILL_LARGE: set[str] = set()
MODULE_LINES, CLASS_LINES = 500, 250


def test_modules_and_classes_stay_small():
    """No module over about 500 lines and no class over about 250: a reader finds a part of the
    system by its file, and a class does one thing."""
    large = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            name = str(path.relative_to(ROOT))
            if text.count("\n") > MODULE_LINES:
                large.add(name)
            large |= {f"{name}:{node.name}" for node in ast.walk(ast.parse(text))
                      if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > CLASS_LINES}
    assert large <= STILL_LARGE, f"over the size limits: {sorted(large - STILL_LARGE)}"
    assert large >= STILL_LARGE, f"now within the limits (take them off STILL_LARGE): {sorted(STILL_LARGE - large)}"


#: What a command of pbem/cli/commands/ never touches: the store's transactions and SQL, and
#: any private part of the objects below it (their logic belongs to the rooms below).
_NOT_FOR_COMMANDS = {"transaction", "group_commit", "conn", "execute", "rows", "db"}


def _reaches_in(tree: ast.AST) -> list[str]:
    """What a command module does that is the rooms' work: a transaction, SQL or a private part
    of an object below; a private name imported from a room below; a method of the store called
    by the command itself (it reads or writes what a room's function should); a game loaded by
    the command (to decide what to do or say: the room's function that acts knows it)."""
    found = [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
             if isinstance(node, ast.Attribute)
             and (node.attr in _NOT_FOR_COMMANDS or node.attr.startswith("_") and not node.attr.startswith("__"))]
    found += [f"{node.lineno}: from {node.module} import {a.name}" for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pbem.")
              and not (node.module or "").startswith("pbem.cli")
              for a in node.names if a.name.startswith("_")]
    found += [f"{node.lineno}: {ast.unparse(node.func)}(...)" for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and (ast.unparse(node.func.value) in ("app.store", "app.service.store")
                   or ast.unparse(node.func) == "app.service.load")]
    return found


#: Commands that still do some of a room's work (the places ``_reaches_in`` finds, by file and
#: line text); the list may only shrink. None is left: a command that does a room's work moves
#: it into a typed function of that room.
STILL_DOING_WORK: set[str] = set()


def test_commands_are_thin_adapters():
    """A command parses its options, calls one typed operation of the rooms below (pbem/loop,
    pbem/club, pbem/archives, ...) and prints what it returns: it opens no transaction, writes
    no SQL, reaches into no private part of the service or the store, calls no method of the
    store and loads no game itself."""
    found = {f"{path.name}:{where.split(': ', 1)[1]}"
             for path in sorted((ROOT / "pbem" / "cli" / "commands").glob("*.py"))
             for where in _reaches_in(ast.parse(path.read_text(encoding="utf-8")))}
    assert found <= STILL_DOING_WORK, "commands doing the rooms' work: " + "; ".join(sorted(found - STILL_DOING_WORK))
    assert found >= STILL_DOING_WORK, f"now thin (take them off STILL_DOING_WORK): {sorted(STILL_DOING_WORK - found)}"


def test_the_thin_adapter_check_sees_the_rooms_work():
    """Each kind of work the check refuses is seen in a made-up command."""
    made_up = ("from pbem.archives.records import _options\n"
               "def cmd(app):\n    with app.store.transaction():\n        app.service._project(None)\n"
               "    rows = app.store.outbox()\n"
               "    done = make(app.service)\n    if not app.service.load('g').over:\n        pass\n"
               "def fine(app):\n    emit(run(app.store, app.service), app.service.void('g', 'red', 'why'))\n")
    found = _reaches_in(ast.parse(made_up))
    assert {w.split(": ", 1)[1] for w in found} == {
        "app.store.transaction", "app.service._project", "from pbem.archives.records import _options",
        "app.store.transaction(...)", "app.store.outbox(...)", "app.service.load(...)"}, found


# -- run-time lookups: a game's modules found through its registry entry --------------------------
#: The calls that import a module by a name computed at run time.
_COMPUTED_IMPORTS = {"import_module", "__import__", "games.resolve"}
#: The modules allowed to import by a computed name: the registry of games (each game's entry
#: module, and what :func:`adjudicator.games.hook` resolves for its callers, whose arrows are
#: counted where they call it), the ``reports`` package (its public names, loaded lazily) and
#: the command line (its command modules, loaded when a command is asked for). Any other
#: module finds a game's module through ``games.hook(game, "<field>")``.
LOADERS = {"adjudicator.games", "reports", "pbem.cli.main"}


def _called(func: ast.expr) -> str:
    """What a call calls: ``hook``, ``games.hook``, ``import_module`` (``importlib.`` left off)."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else ""
        return f"games.{func.attr}" if owner == "games" else func.attr if owner == "importlib" else ""
    return ""


def _lookups(tree: ast.AST) -> tuple[set[str], list[str]]:
    """The registry fields a module looks up (``hook(game, "renderer")``: ``renderer``; a field
    not written out: ``?``) and the lines that import by a computed name."""
    fields: set[str] = set()
    computed: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node.func)
        if name in ("hook", "games.hook"):
            what = node.args[1] if len(node.args) > 1 else None
            fields.add(what.value if isinstance(what, ast.Constant) and isinstance(what.value, str) else "?")
        elif name in _COMPUTED_IMPORTS and not (node.args and isinstance(node.args[0], ast.Constant)):
            computed.append(f"{node.lineno}: {ast.unparse(node)}")
    return fields, computed


def _entry_modules() -> dict[str, set[str]]:
    """Each field of the built-in games' registry entries that names modules of ours -> those
    modules (every game's)."""
    import dataclasses

    from adjudicator import games

    modules = _all_modules()
    found: dict[str, set[str]] = {}
    for name in games.BUILTIN_PACKAGES:
        entry = games.info(name)
        for field in dataclasses.fields(entry):
            value = getattr(entry, field.name)
            for dotted in value if isinstance(value, tuple) else (value,):
                if isinstance(dotted, str) and dotted.partition(":")[0] in modules:
                    found.setdefault(field.name, set()).add(dotted.partition(":")[0])
    return found


def _run_time_arrows() -> dict[str, set[str]]:
    """The arrows the run-time lookups make: a module calling ``games.hook(game, FIELD)``
    imports every game's module of ``FIELD``; the registry imports each game's entry module and
    the ``reports`` package its public names' modules, the command line's group each command
    module (whose commands it adds when one is asked for; a command module imports
    :mod:`pbem.cli.commandset`, never the group)."""
    import reports
    from adjudicator import games

    named = _entry_modules()
    modules = _all_modules()
    from pbem.cli.main import COMMAND_MODULES

    arrows = {"adjudicator.games": {f"{package}.game" for package in games.BUILTIN_PACKAGES.values()},
              "reports": set(reports._HOMES.values()),
              "pbem.cli.main": {f"pbem.cli.commands.{name}" for name in COMMAND_MODULES}}
    for module, path in modules.items():
        fields, _ = _lookups(ast.parse(path.read_text(encoding="utf-8")))
        for field in fields:
            arrows.setdefault(module, set()).update(named.get(field, set()))
    return arrows


def test_every_run_time_lookup_is_one_the_layers_test_can_follow():
    """A game's module is found at run time only through ``games.hook(game, "<field>")`` with
    the field written out (or by one of the :data:`LOADERS`), so the graph below can count it."""
    unread, computed = [], []
    for module, path in sorted(_all_modules().items()):
        fields, lines = _lookups(ast.parse(path.read_text(encoding="utf-8")))
        unread += [module] if "?" in fields else []
        computed += [f"{module}:{line}" for line in lines] if module not in LOADERS else []
    assert not unread, f"registry lookups whose field is not written out: {unread}"
    assert not computed, "imports by a computed name (use games.hook(game, FIELD)): " + "; ".join(computed)
    made_up = "def f(g, x):\n    games.hook(g, 'renderer')\n    importlib.import_module(x)\n    hook(g, x)\n"
    fields, lines = _lookups(ast.parse(made_up))
    assert fields == {"renderer", "?"} and len(lines) == 1  # the check sees all three


def test_no_circle_through_a_run_time_lookup():
    """Counting every run-time lookup as an import (a game's grammar, warnings, renderer,
    report content, names, bot, ... and the loaders' modules), no circle either: a game's
    module and what it imports never reach back to the module that looks it up (turns.base,
    which every grammar imports, holds the registrations and imports no grammar)."""
    graph = _graph()
    extra = _run_time_arrows()
    for module, fields in {"turns.games": "grammar", "turns.warnings": "warnings", "reports.render": "renderer",
                           "reports.decisions": "content", "reports.gamenames": "names",
                           "pbem.club.bots": "bot", "adjudicator.registry": "engine",
                           "pbem.mailout.problemtext": "problems"}.items():
        assert _entry_modules()[fields] <= extra[module], f"{module}'s lookup of {fields} is not counted"
    for module, targets in extra.items():
        assert targets <= set(graph), sorted(targets - set(graph))
        graph[module] = graph[module] | targets
    cycles = _cycles(graph)
    assert not cycles, "import circles through a run-time lookup: " + "; ".join(" -> ".join(c) for c in cycles)


def _lazy_names(tree: ast.AST) -> list[str]:
    """The lines importing a name the ``reports`` package loads lazily (``from reports import
    render_report``) instead of from the module holding it (``reports.render``)."""
    import reports

    return [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "reports" and node.level == 0
            and any(alias.name in reports._HOMES for alias in node.names)]


def test_callers_import_the_report_functions_from_their_modules():
    """``from reports.render import render_report``, not ``from reports import render_report``:
    the package's lazy names hide the real import from the graph above."""
    found = [f"{path.relative_to(ROOT)}:{line}" for package in CODE_DIRS
             for path in sorted((ROOT / package).rglob("*.py")) if path != ROOT / "reports" / "__init__.py"
             and "compat/corpus" not in str(path)
             for line in _lazy_names(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, "imports of the reports package's lazy names: " + "; ".join(found)
    assert _lazy_names(ast.parse("from reports import charts, render_report")) == [
        "1: from reports import charts, render_report"]
