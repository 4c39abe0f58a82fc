"""Every problem message the engines (adjudicator/) can write, found by reading their source.

A message reaches a reply as ``Problem(index, message, ...)``; ``message`` is a string, an
f-string, ``RELEASES.not_yet(point, what)``, or a name holding what a checking function
returned (``why = problem_bid(...)``). The scan follows names and calls to the functions of
adjudicator/ that return the text, and reads every ``problem*`` function's returns (the God's
Playground checks are called through a table). Each message is a :class:`Source`: its
literal parts and placeholders, and a sample made with placeholder values ``Q1``, ``Q2`` ...
An expression the scan cannot follow is reported, so a new kind of source fails loudly
rather than being skipped.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "adjudicator"
#: Functions whose every returned string is a problem message (called through tables too).
_PRODUCER = re.compile(r"^_?problem(_\w+)?$|^order_problem$|^plan_failure$")
#: How ``RELEASES.not_yet`` words a later version's order (adjudicator/versions.py).
NOT_YET = ("{what} came with {engine} rules version {since}; this game plays version {version} "
           "(the GM can move it to newer rules with pbem upgrade)")


@dataclass(frozen=True)
class Source:
    """One problem message as the code builds it."""

    where: str  # file:line
    parts: tuple[str | None, ...]  # literal text, None for a placeholder
    not_yet: str = ""  # the ``what`` of a RELEASES.not_yet message

    @property
    def sample(self) -> str:
        """The message with placeholder values ``Q1``, ``Q2`` ..."""
        out, n = [], 0
        for part in self.parts:
            if part is None:
                n += 1
                out.append(f"Q{n}")
            else:
                out.append(part)
        return "".join(out)

    @property
    def literals(self) -> list[str]:
        """The literal runs of the message (what a matching template must also say)."""
        return [p for p in self.parts if p]


class _Module:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.rel = str(path.relative_to(ROOT))
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.constants: dict[str, ast.expr] = {}
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self.constants[node.targets[0].id] = node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                self.constants[node.target.id] = node.value
        self.functions: dict[str, list[ast.FunctionDef]] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.FunctionDef):
                self.functions.setdefault(node.name, []).append(node)
        self.imports: dict[str, str] = {}  # a name imported from another engine module -> its module's path
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("adjudicator"):
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = node.module


class Scan:
    """The problem messages of adjudicator/ and the expressions the scan could not follow."""

    def __init__(self) -> None:
        self.modules = {p: _Module(p) for p in sorted(ENGINES.rglob("*.py"))}
        self.sources: list[Source] = []
        self.unresolved: list[str] = []
        self._seen: set[tuple[str, int]] = set()
        for mod in self.modules.values():
            parents = {child: node for node in ast.walk(mod.tree) for child in ast.iter_child_nodes(node)}
            for node in ast.walk(mod.tree):
                if isinstance(node, ast.Call) and _called(node) == "Problem":
                    message = node.args[1] if len(node.args) > 1 else next(
                        (k.value for k in node.keywords if k.arg == "message"), None)
                    if message is not None:
                        self._add(mod, message, _enclosing(node, parents))
                if isinstance(node, ast.FunctionDef) and _PRODUCER.match(node.name):
                    self._returns(mod, node)

    # -- following expressions ---------------------------------------------------------------
    def _add(self, mod: _Module, expr: ast.expr, func: ast.FunctionDef | None) -> None:
        for parts in self._parts(mod, expr, func, depth=0):
            if parts is not None:
                self.sources.append(Source(f"{mod.rel}:{expr.lineno}", _merged(parts[0]), parts[1]))

    def _returns(self, mod: _Module, func: ast.FunctionDef, element: int | None = None) -> None:
        key = (mod.rel, func.lineno if element is None else func.lineno * 10 + element)
        if key in self._seen:
            return
        self._seen.add(key)
        for node in ast.walk(func):
            if isinstance(node, ast.Return) and node.value is not None:
                value = node.value
                if element is not None:
                    if not isinstance(value, ast.Tuple):
                        continue
                    value = value.elts[element]
                self._add(mod, value, func)

    def _parts(self, mod: _Module, expr: ast.expr, func: ast.FunctionDef | None,
               depth: int, empty: bool = False) -> Iterator[tuple[tuple[str | None, ...], str] | None]:
        """The ways ``expr`` may read, each as (parts, not_yet's what); None: no message."""
        if depth > 6:
            self.unresolved.append(f"{mod.rel}:{expr.lineno}: too deep")
            return
        if isinstance(expr, ast.Constant):
            if isinstance(expr.value, str):
                if expr.value or empty:
                    yield (expr.value,), ""
                return
            if expr.value is None:
                return
        if isinstance(expr, ast.JoinedStr):
            yield from self._joined(mod, expr, func, depth)
            return
        if isinstance(expr, ast.IfExp):
            yield from self._parts(mod, expr.body, func, depth + 1, empty)
            yield from self._parts(mod, expr.orelse, func, depth + 1, empty)
            return
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            for left in self._parts(mod, expr.left, func, depth + 1, True):
                for right in list(self._parts(mod, expr.right, func, depth + 1, True)):
                    if left is not None and right is not None:
                        yield left[0] + right[0], left[1] or right[1]
            return
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Dict) and empty:
            for text in expr.value.values:  # a wording looked up in a table written in place
                yield from self._parts(mod, text, func, depth + 1, True)
            return
        if isinstance(expr, ast.Call):
            name = _called(expr)
            if name == "not_yet" and len(expr.args) == 2 and isinstance(expr.args[1], ast.Constant):
                what = expr.args[1].value
                yield (what, " came with ", None, " rules version ", None, "; this game plays version ", None,
                       " (the GM can move it to newer rules with pbem upgrade)"), what
                return
            if name == "join" and isinstance(expr.func, ast.Attribute) and isinstance(expr.func.value, ast.Constant):
                return  # reasons already scanned, joined (the reply translates each part)
            target = self._function(mod, name, _owner(expr))
            if target is not None and empty:  # a part of a message: the texts the function returns
                for node in ast.walk(target[1]):
                    if isinstance(node, ast.Return) and node.value is not None:
                        yield from self._parts(target[0], node.value, target[1], depth + 1, True)
                return
            if target is not None:
                self._returns(*target)
                return
        if isinstance(expr, ast.Name) and func is not None:
            yield from self._name(mod, expr, func, depth, empty)
            return
        if empty:  # within a message: a value
            yield (None,), ""
            return
        self.unresolved.append(f"{mod.rel}:{expr.lineno}: {ast.unparse(expr)}")

    def _joined(self, mod: _Module, expr: ast.JoinedStr, func: ast.FunctionDef | None,
                depth: int) -> Iterator[tuple[tuple[str | None, ...], str]]:
        variants: list[tuple[str | None, ...]] = [()]
        for value in expr.values:
            if isinstance(value, ast.Constant):
                variants = [v + (value.value,) for v in variants]
                continue
            options = self._inline(mod, value, func, depth) if value.conversion == -1 else None
            if options:  # a text the code chose (a constant, a local wording): part of the message
                variants = [v + o for v in variants for o in options]
            else:
                variants = [v + (None,) for v in variants]
        for v in variants:
            yield _merged(v), ""

    def _inline(self, mod: _Module, value: ast.FormattedValue, func: ast.FunctionDef | None,
                depth: int) -> list[tuple[str | None, ...]] | None:
        """The wordings of a placeholder that holds text the code wrote (a module constant, a
        local name assigned strings, a choice of strings), or None for a value (a name, a number)."""
        inner = value.value
        if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name):
            texts = [m.constants[inner.attr] for m in self.modules.values() if inner.attr in m.constants]
            inner = texts[0] if len(texts) == 1 else inner
        elif isinstance(inner, ast.Name) and inner.id in mod.constants:
            inner = mod.constants[inner.id]
        if not isinstance(inner, (ast.Constant, ast.JoinedStr, ast.IfExp, ast.BinOp, ast.Name, ast.Call,
                                  ast.Subscript)):
            return None
        if isinstance(inner, ast.Constant) and not isinstance(inner.value, str):
            return None
        before = len(self.unresolved)
        options = [p[0] for p in self._parts(mod, inner, func, depth + 1, empty=True) if p is not None]
        if len(self.unresolved) > before:
            del self.unresolved[before:]
            return None
        return options or None

    def _name(self, mod: _Module, expr: ast.Name, func: ast.FunctionDef,
              depth: int, empty: bool = False) -> Iterator[tuple[tuple[str | None, ...], str] | None]:
        found = False
        for node in ast.walk(func):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id == expr.id:
                found = True
                yield from self._parts(mod, node.value, func, depth + 1, empty)
            elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Call):
                names = [t.id if isinstance(t, ast.Name) else "" for t in target.elts]
                if expr.id in names:
                    found = True
                    called = self._function(mod, _called(node.value), _owner(node.value))
                    if called is None:
                        self.unresolved.append(f"{mod.rel}:{node.lineno}: {ast.unparse(node.value)}")
                    else:
                        self._returns(*called, element=names.index(expr.id))
        if not found and empty:
            yield (None,), ""
        elif not found:
            self.unresolved.append(f"{mod.rel}:{expr.lineno}: {expr.id}")

    def _function(self, mod: _Module, name: str, owner: str = "") -> tuple[_Module, ast.FunctionDef] | None:
        """The engine function ``name`` called from ``mod``: its own, else the one it imports
        (``owner``: the imported module it is called on, as in ``draft_asked.problem``)."""
        if owner in mod.imports:
            path = ROOT / (f"{mod.imports[owner]}.{owner}".replace(".", "/") + ".py")
            other = self.modules.get(path)
            return (other, other.functions[name][0]) if other is not None and name in other.functions else None
        if name in mod.functions:
            return mod, mod.functions[name][0]
        where = mod.imports.get(name)
        if where is not None:
            path = ROOT / (where.replace(".", "/") + ".py")
            other = self.modules.get(path)
            if other is not None and name in other.functions:
                return other, other.functions[name][0]
        return None


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _owner(call: ast.Call) -> str:
    func = call.func
    return func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""


def _enclosing(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.FunctionDef | None:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef):
            return node
    return None


def _merged(parts: tuple[str | None, ...]) -> tuple[str | None, ...]:
    out: list[str | None] = []
    for p in parts:
        if p is not None and out and out[-1] is not None:
            out[-1] = out[-1] + p
        elif p is None and out and out[-1] is None:  # one value made of several (n + 1)
            continue
        else:
            out.append(p)
    return tuple(out)


@lru_cache(maxsize=1)
def scan() -> Scan:
    """The scan of adjudicator/ (made once)."""
    return Scan()
