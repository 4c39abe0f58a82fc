"""The order-language core shared by every game's grammar.

A grammar turns the order lines of one mail block into the engine's order dicts
(see :mod:`adjudicator.base`), collecting *every* problem with its line number rather than
stopping at the first. Rule problems found by ``engine.validate`` refer to an order's
index; :func:`check_orders` maps them back to lines, so a player sees one numbered list.

Names (counties, cards) are matched by :class:`NameIndex`: ignoring case, accents and
punctuation, in any of the names a player may know a thing by, with suggestions
("did you mean ...") for unknown names.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.base import Engine, Order, Problem, State


#: How many "did you mean" names a problem shows; a name index offers a wider pool
#: (:data:`SUGGESTION_POOL`) so that :func:`check_orders` can put the seat's own names first.
SHOWN_SUGGESTIONS = 3
SUGGESTION_POOL = 6


@dataclass(frozen=True)
class LineProblem:
    """A problem tied to a line of the player's text (1-based; 0 = the block as a whole)."""

    line: int
    message: str
    suggestions: tuple[str, ...] = ()
    stage: str = "syntax"
    text: str = ""

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "orders"
        shown = self.suggestions[:SHOWN_SUGGESTIONS]
        hint = f" (did you mean: {', '.join(shown)}?)" if shown else ""
        quoted = f": {self.text.strip()}" if self.text.strip() else ""
        return f"{where}{quoted}\n    {self.message}{hint}"


@dataclass
class ParseResult:
    """Orders parsed from text: ``orders[i]`` came from line ``lines[i]``."""

    orders: list[Order] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)

    def add(self, order: Order, line: int) -> None:
        """Record one parsed order and the line it came from."""
        self.orders.append(order)
        self.lines.append(line)

    @property
    def ok(self) -> bool:
        """True when there is no problem."""
        return not self.problems


def normalise(name: str) -> str:
    """The matching key of a name: no accents, lower case, letters and digits only.

    ``ß`` becomes ``ss`` and ``ł`` ``l`` (they have no decomposition); e.g. ``"Kärnten"`` -> ``"karnten"``, ``"Hm. Jülich"`` -> ``"hmjulich"``.
    """
    text = name.replace("ß", "ss").replace("ẞ", "ss").replace("ł", "l").replace("Ł", "L")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[^0-9a-z]", "", text.casefold())


class NameIndex:
    """Resolves the names players write to canonical names."""

    def __init__(self, aliases: Mapping[str, Iterable[str]]) -> None:
        """``aliases`` maps each canonical name to its other names (any language)."""
        self._by_key: dict[str, set[str]] = {}
        self._display: dict[str, str] = {}
        for canonical, others in aliases.items():
            for alias in [canonical, *others]:
                key = normalise(alias)
                if key:
                    self._by_key.setdefault(key, set()).add(canonical)
                    self._display.setdefault(key, alias)

    def resolve(self, written: str) -> tuple[str | None, tuple[str, ...]]:
        """``(canonical, ())`` when ``written`` names one thing, else ``(None, suggestions)``."""
        key = normalise(written)
        found = self._by_key.get(key, set())
        if len(found) == 1:
            return next(iter(found)), ()
        if len(found) > 1:
            return None, tuple(sorted(found))
        import difflib  # only for a name that matches nothing (a mail's good orders need none)

        close = difflib.get_close_matches(key, list(self._by_key), n=SUGGESTION_POOL, cutoff=0.6)
        prefixed = [k for k in self._by_key if key and k.startswith(key)][:SUGGESTION_POOL]
        names: list[str] = []
        for k in [*prefixed, *close]:
            for canonical in sorted(self._by_key[k]):
                if canonical not in names:
                    names.append(canonical)
        return None, tuple(names[:SUGGESTION_POOL])


def strip_comment(line: str) -> str:
    """The line without its ``#`` comment and surrounding blanks."""
    return line.split("#", 1)[0].strip()


Grammar = Callable[[str, State | None], ParseResult]


def check_orders(engine: Engine, grammar: Grammar, state: State, seat: str, text: str,
                 first_line: int = 1) -> ParseResult:
    """Parse ``text`` with ``grammar`` and validate it with ``engine``; all problems by line.

    ``first_line`` is the line number of the text's first line within the player's mail,
    so problems point at the line the player actually wrote.
    """
    result = grammar(text, state)
    offset = first_line - 1
    own = _own_names(engine, state, seat)
    problems = [LineProblem(p.line + offset if p.line else 0, p.message, prefer(p.suggestions, own),
                            p.stage, p.text)
                for p in result.problems]
    source = text.splitlines()
    layered = getattr(engine, "name", None) in _LAYERED
    if not result.problems:
        found = list(engine.validate(state, seat, result.orders))
        problems += [_line_problem(problem, result.lines, source, offset) for problem in found]
        if layered:
            problems += _beneath(engine, state, seat, result, found, source, offset)
    elif result.orders and layered:  # the lines that could be read are checked too: one resend fixes all
        found = list(engine.validate(state, seat, result.orders))
        problems += [_line_problem(p, result.lines, source, offset) if p.index is not None
                     else _partial(p) for p in found]
        problems += _beneath(engine, state, seat, result, found, source, offset)
    result.lines = [n + offset for n in result.lines]
    result.problems = problems
    return result


#: Games whose orders are a set judged as a whole (a season plan: per-line checks,
#: then the card counts), checked also without their faulty lines (:func:`check_whole_set`).
_LAYERED: set[str] = set()


def check_whole_set(game: str) -> None:
    """Say that ``game``'s order blocks are judged as a set: a block with faulty lines is
    also checked without them, so that the problems of the set as a whole (too few actions)
    come in the same reply. (A sequential decision is not: without its one faulty line, the
    line it needs would only be reported missing.)"""
    _LAYERED.add(game)


#: Said of a problem of the block as a whole found without the lines that have problems.
PARTIAL = " (counting only the lines without a problem listed here)"


@functools.cache
def _order_number() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(r"\border \d+\b")


def _partial(problem: Problem) -> LineProblem:
    return LineProblem(0, problem.message + PARTIAL, problem.suggestions, problem.stage)


def _beneath(engine: Engine, state: State, seat: str, result: ParseResult, found: Sequence[Problem],
             source: Sequence[str], offset: int) -> list[LineProblem]:
    """The problems an engine reports only once the lines are right (e.g. a season plan's card
    counts after the per-line checks): the orders without the lines that have a problem are
    checked again, and what that finds besides is listed too (the block-level ones marked
    as counted without those lines), so that the player sees every problem in one reply."""
    bad = {p.index for p in found if p.index is not None}
    if not bad:
        return []
    kept = [i for i in range(len(result.orders)) if i not in bad]
    if not kept:
        return []
    known = {p.message for p in found}
    out = []
    for problem in engine.validate(state, seat, [result.orders[i] for i in kept]):
        if problem.message in known:
            continue
        if problem.index is None:
            out.append(_partial(problem))
        elif 0 <= problem.index < len(kept) and not _order_number().search(problem.message):
            # (a message naming another order by its number counts in the shorter list: left out)
            out.append(_line_problem(replace(problem, index=kept[problem.index]), result.lines, source, offset))
    return out


def prefer(suggestions: Sequence[str], own: Collection[str]) -> tuple[str, ...]:
    """``suggestions`` with the seat's ``own`` names first (order otherwise kept), cut to
    :data:`SHOWN_SUGGESTIONS`: a player who mistypes a county most likely means one of theirs."""
    ranked = [s for s in suggestions if s in own] + [s for s in suggestions if s not in own]
    return tuple(ranked[:SHOWN_SUGGESTIONS])


def _own_names(engine: Engine, state: State, seat: str) -> frozenset[str]:
    """The names ``seat`` holds, if the engine says (optional ``own_names(state, seat)``)."""
    own_names = getattr(engine, "own_names", None)
    return frozenset(own_names(state, seat)) if own_names is not None else frozenset()


def _line_problem(problem: Problem, lines: Sequence[int], source: Sequence[str], offset: int) -> LineProblem:
    if problem.index is None or not 0 <= problem.index < len(lines):
        return LineProblem(0, problem.message, problem.suggestions, problem.stage)
    n = lines[problem.index]
    text = source[n - 1] if 0 < n <= len(source) else ""
    return LineProblem(n + offset, problem.message, problem.suggestions, problem.stage, text)


@dataclass
class PlanCheck:
    """A plan block read and checked (games where every block is a plan for the round): the
    lines kept (``orders[i]`` from mail line ``lines[i]``), every problem found, and the
    kinds left out because a line of that kind has a problem (the seat's earlier lines of
    those kinds stand)."""

    orders: list[Order] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)


#: ``check_plan(engine, state, seat, text, first_line) -> PlanCheck``
PlanChecker = Callable[[Engine, State, str, str, int], PlanCheck]

_GRAMMARS: dict[str, Grammar] = {}
_FORMATTERS: dict[str, Callable[[Sequence[Order]], str]] = {}
_PLAN_CHECKERS: dict[str, PlanChecker] = {}


def register_plan_checker(game: str, check: PlanChecker) -> None:
    """Say that every order block of ``game`` is a plan, read and checked by ``check``."""
    _PLAN_CHECKERS[game] = check


def register_grammar(game: str, parse: Grammar, format_orders: Callable[[Sequence[Order]], str]) -> None:
    """Register a game's parser and its canonical writer (``parse(format(x)) == x``); a game's
    grammar module calls it when imported. Look a grammar up with :func:`turns.games.grammar_for`
    (which imports the game's modules first: this module imports no grammar)."""
    _GRAMMARS[game] = parse
    _FORMATTERS[game] = format_orders


def registered(game: str) -> tuple[Grammar | None, Callable[[Sequence[Order]], str] | None, PlanChecker | None]:
    """What ``game``'s modules registered so far: its parser, its writer, its plan checker."""
    return _GRAMMARS.get(game), _FORMATTERS.get(game), _PLAN_CHECKERS.get(game)


def as_dict(problem: LineProblem) -> dict[str, Any]:
    """A JSON-ready dict of a problem."""
    return {"line": problem.line, "message": problem.message, "suggestions": list(problem.suggestions[:SHOWN_SUGGESTIONS]),
            "stage": problem.stage, "text": problem.text}
