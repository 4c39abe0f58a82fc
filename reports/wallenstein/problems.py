"""Wallenstein's problems in the reader's language (its registry entry's ``problems``, read by
:mod:`pbem.mailout.problemtext`): ``ENGINE``, the engine's checks of a season plan, the court's
lines and the setup draft (adjudicator/wallenstein/orders.py, court_orders.py, draft_orders.py,
draft_asked.py, engine.py); ``GRAMMAR``, the order grammar's (turns/wallenstein.py,
turns/wallenstein_fields.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from reports.enginetext import Sentences, Template, _compile, label, words
from reports.enginetext import Template as _T
from reports.i18n import N_, _

#: How the grammar names the role of a county in its messages (turns/wallenstein.py).
ROLES = {"the county": N_("the county"), "the county attacking": N_("the county attacking"),
         "the county moved to": N_("the county moved to"), "the county attacked": N_("the county attacked"),
         "the county bid": N_("the county bid"), "county": N_("county"),
         "the county for the favour card": N_("the county for the favour card")}
#: What a list of names or numbers holds (turns/wallenstein_fields.py).
LISTED = {"bonus tile": N_("bonus tile"), "group size": N_("group size"),
          "favour card number": N_("favour card number")}


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


#: The orders later rules versions brought (``RELEASES.not_yet``'s ``what``) that are words.
NEW_ORDERS = {"The FAMINE order": N_("The FAMINE order"), "ELSE, LEAVE and IF": N_("ELSE, LEAVE and IF"),
              "NO TILE and WITH TILE": N_("NO TILE and WITH TILE"),
              "DRAFT <county> WITH <group>": N_("DRAFT <county> WITH <group>"),
              "FAVOUR ... AT with several counties": N_("FAVOUR ... AT with several counties")}
#: Where a season plan's cards go (adjudicator/wallenstein/orders.py), with the court or without.
SPACES = Sentences((_T(N_("the {n} action spaces and the {m} court spaces")), _T(N_("the {n} action spaces"))))
#: What fills the action spaces besides county cards.
FILLERS = {"money cards": N_("money cards"), "money and tower cards": N_("money and tower cards")}


def _face_up(value: str) -> str:
    """The face-up cards (``Böhmen and Mähren``, or ``none``) in the reader's words."""
    return _("none") if value == "none" else _(" and ").join(value.split(" and "))


def _again(message: str) -> str:
    """A problem inside another one (``it is your pick now, and ...``), in the reader's words."""
    return Sentences(ENGINE)(message)


#: The messages of the engine's checks, the most particular first.
ENGINE = (
    # engine.py, draft_asked.py: whose pick it is
    _T(N_("{seat} is not a seat of this game")),
    _T(N_("an order must be a JSON object with a 'kind'")),
    _T(N_("the pick awaited now is {seat}'s ({turn}); your DRAFT lines are kept as standing orders for your "
          "picks"), {"turn": label}),
    _T(N_("wallenstein has no standing orders but the draft lines of the setup draft (DRAFT, GROUPS, REFRESH; "
          "rules 1.2 on)")),
    _T(N_("it is your pick now, and {why}"), {"why": _again}),
    _T(N_("none of your wishes is face up now (the face-up cards are {cards}): name one of them in your DRAFT "
          "line, or end it with DECK to draw the top card of the deck"), {"cards": _face_up}),
    # draft_orders.py
    _T(N_("{county} is on your wish list twice")),
    _T(N_("DECK ends a DRAFT line: the top card of the deck when no wish is face up")),
    _T(N_("WITH names the group for a county of the same DRAFT line")),
    _T(N_("{county} WITH {size}: your army groups are {groups}")),
    _T(N_("only one REFRESH line (order {n} is one)")),
    _T(N_("only one GROUPS order")),
    _T(N_("GROUPS must list your army groups {groups} in some order")),
    _T(N_("{kind} is not an order for the setup draft (DRAFT and GROUPS)")),
    _T(N_("{kind} is not an order for the setup draft (DRAFT, GROUPS and REFRESH)")),
    # orders.py: a season plan
    _T(N_("unknown action {action} (actions: {actions})")),
    _T(N_("{action} needs a target: {keyword} {county} TO <county> WITH <n|ALL>")),
    _T(N_("{action} takes no target county")),
    _T(N_("{to} is not adjacent to {county} (alternative {n})")),
    _T(N_("the number of armies must be ALL or a positive whole number (alternative {n})")),
    _T(N_("LEAVE needs a whole number of at least 1: one army always stays")),
    _T(N_("LEAVE needs a whole number of at least 1 (alternative {n}): one army always stays")),
    _T(N_("IF needs a whole number of at least 2: a manoeuvre needs 2 armies")),
    _T(N_("IF needs a whole number of at least 2 (alternative {n}): a manoeuvre needs 2 armies")),
    _T(N_("ELSE alternatives must be a list of {to, armies}")),
    _T(N_("ELSE, LEAVE and IF belong to ATTACKA and ATTACKB")),
    _T(N_("only one FAMINE order per season")),
    _T(N_("FAMINE lists your counties in the order their famine revolts are fought")),
    _T(N_("your money cards are {cards}; there is no {value} card")),
    _T(N_("unknown bid card {card}")),
    _T(N_("{kind} is not an order for a season plan (plan actions, BID, BONUS)")),
    _T(N_("{kind} is not an order for a season plan (plan actions, BID, BONUS, FAMINE)")),
    _T(N_("{kind} is not an order for a season plan (plan actions, BID, BONUS, COURT and FAVOUR)")),
    _T(N_("{kind} is not an order for a season plan (plan actions, BID, BONUS, FAMINE, COURT and FAVOUR)")),
    _T(N_("BONUS lists distinct tiles among: {tiles}")),
    # court_orders.py: the Imperial Court expansion
    _T(N_("COURT lines are only with the Imperial Court expansion (option expansion=court)")),
    _T(N_("FAVOUR is only with the Imperial Court expansion (option expansion=court)")),
    _T(N_("tower cards are only with the Imperial Court expansion (option expansion=court)")),
    _T(N_("BID TOWER is only with the Imperial Court expansion (option expansion=court)")),
    _T(N_("the court spaces are COURT3, COURT2 and COURT1, not {slot}")),
    _T(N_("COURT{slot} is planned twice (order {n} already places a card there)")),
    _T(N_("a court space takes a county card, TOWER or MONEY, not {card}")),
    _T(N_("{county} is not yours: its card is not in your hand")),
    _T(N_("only one FAVOUR line per season (order {n} is one)")),
    _T(N_("FAVOUR lists favour card numbers, best first, or NONE")),
    _T(N_("favour card {cards} is not at court this season (on display: {shown})")),
    _T(N_("a favour card is listed twice")),
    _T(N_("FAVOUR NONE takes no county (AT)")),
    _T(N_("FAVOUR ... AT names a county of yours for the card's effect; {county} is not yours")),
    _T(N_("FAVOUR ... AT names counties of yours for the card's effect; {county} is not yours")),
    _T(N_("FAVOUR ... AT lists the counties for the card's effect, best first")),
    _T(N_("a county is listed twice after AT")),
    _T(N_("a tower card on an action space takes no county")),
    _T(N_("you have {limit} cube-tower cards; this is tower card number {n} (orders {orders})")),
    # orders.py: the checks of a season plan met most often (after the particular messages above)
    _T(N_("{name} is not a county on this map")),
    _T(N_("{county} is not yours: you can only act in your own counties")),
    _T(N_("{to} is not adjacent to {county}")),
    _T(N_("RECRUIT1 can only move into your own county, and {to} is not yours")),
    _T(N_("the number of armies must be ALL or a positive whole number")),
    _T(N_("{name} is not yours")),
    _T(N_("a county is listed twice in FAMINE")),
    _T(N_("you cannot bid {value}: you have only {taler} Taler")),
    _T(N_("you cannot bid with {county}: its card is not in your hand")),
    _T(N_("{action} is planned twice (one card per action space)")),
    _T(N_("the card of {county} is already used by order {n}")),
    _T(N_("only one bid per season")),
    _T(N_("only one BONUS preference list per season")),
    _T(N_("you have a card left for the bid space: bid Taler (BID 0-4) or a county (BID COUNTY <name>)")),
    _T(N_("too few actions planned: with {cards} county cards and {money} {kinds} for {where} you must plan at "
          "least {need} actions (you planned {used})"), {"kinds": words(FILLERS), "where": SPACES}),
    _T(N_("you hold only {total} cards and all must go on {where}: bid NONE"), {"where": SPACES}),
    _T(N_("the card of {county} is already on an action space; bid with another card")),
)

#: The messages of the game's grammar (turns/), read after every game's engine messages.
GRAMMAR = (
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
)
