"""Wallenstein's problems: a season plan, the court's lines and the setup draft
(adjudicator/wallenstein/orders.py, court_orders.py, draft_orders.py, draft_asked.py, engine.py)."""

from __future__ import annotations

from pbem.mailout.engineproblems.shared import label
from reports.enginetext import Sentences, words
from reports.enginetext import Template as _T
from reports.i18n import N_, _

#: Where a season plan's cards go (adjudicator/wallenstein/orders.py), with the court or without.
SPACES = Sentences((_T(N_("the {n} action spaces and the {m} court spaces")), _T(N_("the {n} action spaces"))))
#: What fills the action spaces besides county cards.
FILLERS = {"money cards": N_("money cards"), "money and tower cards": N_("money and tower cards")}


def _face_up(value: str) -> str:
    """The face-up cards (``Böhmen and Mähren``, or ``none``) in the reader's words."""
    return _("none") if value == "none" else _(" and ").join(value.split(" and "))


def _again(message: str) -> str:
    """A problem inside another one (``it is your pick now, and ...``), in the reader's words."""
    return Sentences(TEMPLATES)(message)


TEMPLATES = (
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
