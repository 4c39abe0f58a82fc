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

import re
from dataclasses import dataclass
from functools import lru_cache

from reports.enginetext import Sentences, Template, _compile, words
from reports.i18n import N_, _
from turns.base import SHOWN_SUGGESTIONS, LineProblem

#: How a grammar names the role of a county in its messages (turns/wallenstein.py).
ROLES = {"the county": N_("the county"), "the county attacking": N_("the county attacking"),
         "the county moved to": N_("the county moved to"), "the county attacked": N_("the county attacked"),
         "the county bid": N_("the county bid"), "county": N_("county"),
         "the county for the favour card": N_("the county for the favour card")}
#: What a list of names or numbers holds (turns/wallenstein_fields.py).
LISTED = {"bonus tile": N_("bonus tile"), "group size": N_("group size"),
          "favour card number": N_("favour card number")}
#: The fields of a GAME line (turns/envelope.py).
FIELDS = {"game id": N_("game id"), "seat": N_("seat"), "password": N_("password"),
          "game id and seat": N_("game id and seat"), "seat and password": N_("seat and password"),
          "game id and password": N_("game id and password"),
          "game id, seat and password": N_("game id, seat and password")}

_T = Template


@dataclass(frozen=True)
class _Roles(Template):
    """A template whose ``{what}`` is one of :data:`ROLES` (a role is several words, so it is
    matched as one of them, not as any text)."""

    @property
    def pattern(self) -> re.Pattern[str]:
        return _roles_pattern(self.text)


@lru_cache(maxsize=None)
def _roles_pattern(text: str) -> re.Pattern[str]:
    roles = "|".join(re.escape(r) for r in sorted(ROLES, key=len, reverse=True))
    return re.compile(_compile(text).pattern.replace("(?P<what>.+?)", f"(?P<what>{roles})", 1), re.DOTALL)


#: Where END belongs in a block that ran on into the signature (pbem/loop/recording.py).
END_AT = Sentences((_T(N_("line {n}, right after your last order (line {last}: {text})")),
                    _T(N_("a line of its own right after your last order"))))
#: The grammars' messages (every game's and the envelope's); each text is a message of the
#: catalogue. The engines' checks are in :mod:`pbem.mailout.engineproblems`.
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
    # turns/wallenstein.py, turns/wallenstein_fields.py
    _T(N_("unknown order {word}: a line starts with an order keyword such as TAX, GRAIN, PALACE, RECRUIT5, "
          "ATTACKA, BID or BONUS (mail HELP ORDERS for the whole syntax)")),
    _T(N_("NO TILE and WITH TILE belong to RECRUIT5 (the recruit tile places 6 instead of 5)")),
    _T(N_("{action} takes a county only, without {extra}")),
    _T(N_("LEAVE and IF belong to ATTACKA and ATTACKB")),
    _T(N_("after ELSE write TO <county> WITH <ALL or n>, not {words}")),
    _T(N_("{marker} needs a whole number of at least {low}, as in {example}")),
    _T(N_("give the number of armies once (MOVE or WITH), as in {usage}")),
    _T(N_("where do the armies go? write {usage}")),
    _T(N_("how many armies? write {usage}")),
    _T(N_("what do you bid? write {usage}")),
    _T(N_("the money cards show {low} to {high} Taler, not {value}")),
    _T(N_("list the bonus tiles in order of preference: {tiles}")),
    _T(N_("WITH follows a county and gives the army group to put there, as in DRAFT Böhmen WITH 5")),
    _T(N_("REFRESH takes nothing after it")),
    _T(N_("list the group sizes, e.g. GROUPS 5 4 4 3 3 2 2 2")),
    _T(N_("which card? write {usage}")),
    _T(N_("FAVOUR NONE takes no county")),
    _T(N_("which favour cards? write {usage}")),
    _T(N_("favour card {cards} is listed twice")),
    _Roles(N_("{what} is missing: name a county"), {"what": words(ROLES)}),
    _Roles(N_("{what} {written} could be several counties; write one of them"), {"what": words(ROLES)}),
    _Roles(N_("{what} {written} is not a county I know"), {"what": words(ROLES)}),
    _T(N_("how many armies: write ALL or a number, not {words}")),
    _T(N_("the number of armies must be at least 1 (leave the move out to move none)")),
    _T(N_("list the counties, separated by commas")),
    _T(N_("{marker} appears twice in this line")),
    _T(N_("{word} is not a {what}; the {what}s are {known}"), {"what": words(LISTED)}),
    _T(N_("{name} is listed twice")),
    _T(N_("{word} is not a valid {what} (a whole number, {low} to {high})"), {"what": words(LISTED)}),
    _T(N_("{word} is not a valid {what} (a whole number, at least {low})"), {"what": words(LISTED)}),
    # turns/havoc.py
    _T(N_("unknown card {token} (write e.g. blue7, dog or 5)")),
    _T(N_("an empty order")),
    _T(N_("unknown order {word}")),
    _T(N_("{key} takes nothing after it")),
    _T(N_("unknown battle {name}")),
    _T(N_("name the recruit card (e.g. blue9) or DECK")),
    _T(N_("conditions: LAID <= n or HAND >= n")),
    _T(N_("STANDING cannot hold another STANDING")),
    _T(N_("STANDING needs orders after ':'")),
    _T(N_("{usage} (how many of your laid Dogs of War stay out of the battle)")),
    _T(N_("{usage} (one card by its name, e.g. blue07, or a Dog as dog03)")),
    _T(N_("{usage} (cards by their names)")),
    _T(N_("{usage} (<when> is one of {whens})")),
    # turns/gods_playground.py
    _T(N_("unknown province {name}")),
    _T(N_("unknown enemy {name}")),
    _T(N_("write a name and a number, not {item}")),
    _T(N_("{name} is named twice")),
    _T(N_("an empty alternative")),
    _T(N_("the starting estates cannot be passed")),
    _T(N_("unknown unit {word} (INF, CAV, CANNON, COSSACK)")),
    _T(N_("unknown action {word}")),
    _T(N_("{keyword} needs what to do (or PASS)")),
)

#: Said of a problem of the whole block found without the lines that have problems
#: (``turns.base.PARTIAL``).
PARTIAL = " (counting only the lines without a problem listed here)"
N_("(counting only the lines without a problem listed here)")


@lru_cache(maxsize=1)
def _sentences() -> Sentences:
    from pbem.mailout.engineproblems import TEMPLATES as ENGINES

    return Sentences(ENGINES + TEMPLATES)  # the engines' particular messages before the grammars' general ones


def template_of(message: str) -> Template | None:
    """The template ``message`` is read against (the first that matches), or None."""
    return next((t for t in _sentences().templates if t.pattern.match(message)), None)


def translate(engine: str, message: str) -> str:
    """``message`` (a grammar's or an engine's problem, English) in the current language; as
    written when no template matches. ``engine``: the game (its templates are shared today).
    Reasons an engine joined with ``; `` (each alternative's, God's Playground) are read one
    by one when the whole matches no template."""
    del engine
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
