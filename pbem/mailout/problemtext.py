"""The problems of an order mail in the reader's language: what the grammars (turns/) and the
engines' checks (adjudicator/) say about a line, and how a reply frames it.

The grammars and engines are pure and write their problems in English, the catalogue's
message ids; a problem is read against the templates below (:mod:`reports.enginetext`: a
message id with named placeholders) and written as the catalogue's translation with the same
values. The words a player wrote (a county, a card, a keyword) are values and stay as written,
so a "did you mean" suggestion keeps the names the player used. A message no template matches
is shown as the grammar wrote it.
"""

from __future__ import annotations

from functools import lru_cache
from types import ModuleType

from adjudicator import games
from reports.enginetext import Sentences, Template, words
from reports.i18n import DEFAULT, N_, _, lang
from turns.base import SHOWN_SUGGESTIONS, LineProblem

#: The fields of a GAME line (turns/envelope.py).
FIELDS = {"game id": N_("game id"), "seat": N_("seat"), "password": N_("password"),
          "game id and seat": N_("game id and seat"), "seat and password": N_("seat and password"),
          "game id and password": N_("game id and password"),
          "game id, seat and password": N_("game id, seat and password")}

_T = Template


def _new_order(value: str) -> str:
    """An order a later rules version brought (``RELEASES.not_yet``'s ``what``) in the reader's
    words, where its game's problems list it (their ``NEW_ORDERS``); else as written."""
    for table in _tables(tuple(games.names())):
        known = getattr(table, "NEW_ORDERS", {})
        if value in known:
            return _(known[value])
    return value


#: The problems every engine may write: a later rules version's order, the checks of the
#: sequential engines' shell (adjudicator/versions.py, adjudicator/sequential.py).
ENGINES = (
    _T(N_("{what} came with {engine} rules version {since}; this game plays version {version} (the GM can "
          "move it to newer rules with pbem upgrade)"), {"what": _new_order}),
    # adjudicator/sequential.py
    _T(N_("the game is over")),
    _T(N_("no decision of {seat} is pending (waiting for {seats})")),
    _T(N_("orders must be objects")),
    _T(N_("unknown seat {seat}")),
)
#: Where END belongs in a block that ran on into the signature (pbem/loop/recording.py).
END_AT = Sentences((_T(N_("line {n}, right after your last order (line {last}: {text})")),
                    _T(N_("a line of its own right after your last order"))))
#: The messages of the order mail's envelope and of the shell that reads it; each text is a
#: message of the catalogue. Each game's engine and grammar messages are the ``ENGINE`` and
#: ``GRAMMAR`` of the module its registry entry names as ``problems``.
TEMPLATES = (
    # turns/envelope.py
    _T(N_("the GAME line lacks the {fields}; write GAME <game-id> <seat> <password>"), {"fields": words(FIELDS)}),
    _T(N_("game id {game} may contain only letters, digits and hyphens")),
    _T(N_("the GAME line has {n} word(s) after the password; put comments after '#'")),
    _T(N_("the PRESS block opened on line {line} has no END line; end the press text with END on a line of its "
          "own, then the GAME block with another END")),
    _T(N_("block for game {game} opened on line {line} has no END line: the END on line {end} closed the PRESS "
          "block of line {press}; end the press text with END, then the GAME block with another END")),
    _T(N_("block for game {game} opened on line {line} has no END line; write END on a line of its own right "
          "after your last order")),
    _T(N_("the only GAME blocks in this mail are quoted (lines starting with '>'), and quoted text is ignored; "
          "write your orders without '>' in front of the lines")),
    # pbem/loop: a block without END read on into the signature; the blocks past the most a mail may hold
    _T(N_("block for game {game} opened on line {line} has no END line, so the text below your orders (from "
          "line {first}: {trailing}) was read as orders too; write END on {where}"), {"where": END_AT}),
    _T(N_("this mail has {n} GAME blocks, and at most {most} are read in one mail: the {left} block(s) from line "
          "{line} on were not read and nothing of them was recorded; send them in another mail")),
)

#: Said of a problem of the whole block found without the lines that have problems
#: (``turns.base.PARTIAL``).
PARTIAL = " (counting only the lines without a problem listed here)"
N_("(counting only the lines without a problem listed here)")


def _sentences() -> Sentences:
    """Every template, the engines' particular messages before the grammars' general ones: the
    shared engine checks, each game's ``ENGINE`` (in the registry's order), the envelope's, then
    each game's ``GRAMMAR``."""
    return _gathered(tuple(games.names()))


@lru_cache(maxsize=4)
def _tables(names: tuple[str, ...]) -> tuple[ModuleType, ...]:
    """The problem texts of games ``names`` (their registry entries' ``problems``), in that order."""
    return tuple(table for table in (games.hook(name, "problems") for name in names) if table is not None)


@lru_cache(maxsize=4)
def _gathered(names: tuple[str, ...]) -> Sentences:
    tables = _tables(names)
    engines = tuple(t for table in tables for t in getattr(table, "ENGINE", ()))
    grammars = tuple(t for table in tables for t in getattr(table, "GRAMMAR", ()))
    return Sentences(ENGINES + engines + TEMPLATES + grammars)


def template_of(message: str) -> Template | None:
    """The template ``message`` is read against (the first that matches), or None."""
    return next((t for t in _sentences().templates if t.pattern.match(message)), None)


def translate(engine: str, message: str) -> str:
    """``message`` (a grammar's or an engine's problem, English) in the current language; as
    written when no template matches. ``engine``: the game (every game's templates are read
    today, in the registry's order). Reasons an engine joined with ``; `` (each alternative's,
    as a game of plans with OR fallbacks writes them) are read one by one when the whole
    matches no template."""
    del engine
    if lang() == DEFAULT:  # the templates are the English messages: shown as written, no game's read
        return message
    if message.endswith(PARTIAL):
        return translate("", message[:-len(PARTIAL)]) + " " + _(PARTIAL.strip())
    said = _sentences()(message)
    if said == message and "; " in message and template_of(message) is None:
        return "; ".join(_sentences()(part) for part in message.split("; "))
    return said


def problem_text(problem: LineProblem, engine: str = "") -> str:
    """A problem as a reply shows it: ``line N: <the line>`` and, indented below, what is wrong
    and the names it may have meant, in the current language (``str(problem)`` in English)."""
    where = _("line {n}").format(n=problem.line) if problem.line else _("orders")
    shown = problem.suggestions[:SHOWN_SUGGESTIONS]
    hint = (" " + _("(did you mean: {names}?)").format(names=", ".join(shown))) if shown else ""
    quoted = f": {problem.text.strip()}" if problem.text.strip() else ""
    return f"{where}{quoted}\n    {translate(engine, problem.message)}{hint}"
