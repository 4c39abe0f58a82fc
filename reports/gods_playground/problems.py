"""God's Playground's problems in the reader's language (its registry entry's ``problems``, read
by :mod:`pbem.mailout.problemtext`): ``ENGINE``, the engine's checks of the decisions of a
round, the war and sent-ahead lines (adjudicator/gods_playground/decisions.py, war.py, flow.py,
plans.py); ``GRAMMAR``, the order grammar's (turns/gods_playground.py). A province or an enemy
is named as the reports name it in the reader's language."""

from __future__ import annotations

from reports.enginetext import Template as _T
from reports.enginetext import words
from reports.i18n import N_

#: The orders later rules versions brought (``RELEASES.not_yet``'s ``what``) that are words.
NEW_ORDERS = {"ON <value>": N_("ON <value>")}
#: What each decision is (adjudicator/gods_playground/flow.py ``describe``).
DECISIONS = {"a starting estate": N_("a starting estate"), "where your six nobles go": N_("where your six nobles go"),
             "where your few cubes go": N_("where your few cubes go"),
             "a bid for the start player marker": N_("a bid for the start player marker"),
             "buying an estate": N_("buying an estate"), "a special action": N_("a special action"),
             "recruiting": N_("recruiting"), "a campaign": N_("a campaign"),
             "a royal counterattack": N_("a royal counterattack")}


def _province(value: str) -> str:
    from reports.gods_playground.names import PROVINCE_NAMES, province

    return province(value) if value in PROVINCE_NAMES else value


def _enemy(value: str) -> str:
    from reports.gods_playground.names import ENEMY_NAMES, enemy

    return enemy(value) if value in ENEMY_NAMES else value


def _unit(value: str) -> str:
    from reports.gods_playground.names import unit_name

    return unit_name(value)


def _target(value: str) -> str:
    """A counterattack's target: a province, or an enemy's box (the Habsburgs')."""
    return _enemy(_province(value))

_P = {"province": _province}

#: The messages of the engine's checks, the most particular first.
ENGINE = (
    # flow.py, plans.py
    _T(N_("unknown order kind {kind}")),
    _T(N_("no {form} order: this decision is {decision}"), {"decision": words(DECISIONS)}),
    _T(N_("no alternatives")),
    _T(N_("bad alternative")),
    _T(N_("an order needs at least one alternative")),
    # decisions.py: nobles, cubes, the bid
    _T(N_("place one noble on each of the five provinces and one on the king (royal army box)")),
    _T(N_("nobles are worth 0-5")),
    _T(N_("you have no more nobles of value {values} (left: {left})")),
    _T(N_("CUBES names provinces and numbers")),
    _T(N_("place exactly the {n} cubes you have")),
    _T(N_("at most {n} cubes on {province} (your noble there)"), _P),
    _T(N_("CUBES FIRST lists different provinces")),
    _T(N_("bid 0-{n} thalers")),
    # buying estates
    _T(N_("name a province")),
    _T(N_("no empty estate in {province}"), _P),
    _T(N_("buying costs {cost} of your noble cubes on {province}; you have {have}"), _P),
    _T(N_("no disc left")),
    # special actions
    _T(N_("a steward costs a noble cube on {province}"), _P),
    _T(N_("you have no estate without a steward in {province} worth {value}"), _P),
    _T(N_("you have no estate without a steward in {province}"), _P),
    _T(N_("all 8 stewards are hired")),
    _T(N_("Danzig costs a noble cube on Royal Prussia")),
    _T(N_("the veto costs a noble cube on {province}"), _P),
    _T(N_("towns only from round 3")),
    _T(N_("one town a round, two a game")),
    _T(N_("a town costs 2 noble cubes on {province}"), _P),
    _T(N_("you have no estate without a town in {province} worth {value}"), _P),
    _T(N_("you have no estate without a town in {province}"), _P),
    _T(N_("name the enemy")),
    _T(N_("no agreement can be made with the Turks")),
    _T(N_("an agreement with the Habsburgs only in round 4, with no Turks on their box")),
    _T(N_("only one agreement a round; it is made")),
    _T(N_("diplomacy costs a noble cube on {province}"), _P),
    _T(N_("diplomacy costs one of your discs on the Sejm")),
    _T(N_("move one or two noble cubes")),
    _T(N_("MOVE <province> TO <province>")),
    _T(N_("you have {n} noble cubes on {province}"), _P),
    _T(N_("right of arms only in rounds 3 and 4")),
    _T(N_("only the player with the fewest VP (not tied) may take right of arms")),
    _T(N_("right of arms costs 2 noble cubes on {province}"), _P),
    _T(N_("right of arms puts one of your discs on the estate; you have none left")),
    _T(N_("no estate in {province} of a player with fewer noble cubes there"), _P),
    _T(N_("Jesuit schools only from round 2")),
    _T(N_("name one or more different provinces")),
    _T(N_("you have no noble cube on {province}"), _P),
    _T(N_("{n} thalers needed")),
    # recruiting
    _T(N_("recruit at least one unit")),
    _T(N_("recruiting costs a noble cube on {province}"), _P),
    _T(N_("no cannon in round 1")),
    _T(N_("Cossacks only in Ukraine ({n} left)")),
    _T(N_("that costs {cost} thalers; you have {have}")),
    _T(N_("you have {n} {unit} left"), {"unit": _unit}),
    # war.py: campaigns and counterattacks
    _T(N_("no campaign against the Habsburgs in rounds 1-3")),
    _T(N_("an agreement holds with the {enemy} (only their cubes on {province} may be attacked)"),
       {"enemy": _enemy, **_P}),
    _T(N_("an agreement holds with the {enemy}"), {"enemy": _enemy}),
    _T(N_("a campaign costs a noble cube on {province}"), _P),
    _T(N_("the royal army costs one of your discs on the Sejm")),
    _T(N_("the royal army has no troops")),
    _T(N_("you have no infantry or cavalry on {province}"), _P),
    _T(N_("no enemy cube to attack there ({target})"), {"target": _target}),
    _T(N_("another attack costs one of your discs on the Sejm")),
)

#: The messages of the game's grammar (turns/), read after every game's engine messages.
GRAMMAR = (
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
