"""The words of a Havoc report for seats, cards, combinations and battles, in the reader's
language: what the report's sections (:mod:`reports.havoc.content`) and its decisions
(:mod:`reports.havoc.decisions`) both write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reports.enginetext import Sentences, Template
from reports.i18n import N_, _

JOHN = "@john"


def who(seat: Any) -> str:
    """A seat as a reader knows it (John of Gaunt is not a seat)."""
    if seat == JOHN:
        return _("John of Gaunt")
    return _("nobody") if seat is None else str(seat)


def laid_card(card: Any) -> str:
    """A card laid in a battle as the battle's record names it (``orange 2``; a Dog of War by its name)."""
    return _("Dog of War") if card == "Dog of War" else str(card)


def cards_text(cards: Sequence[str]) -> str:
    """Card names as written in orders (``blue07 dog03``), or ``none``."""
    return " ".join(cards) if cards else _("none")


def points_text(points: Sequence[int]) -> str:
    """``[11, 8, 5]`` -> ``11-8-5``."""
    return "-".join(str(p) for p in points) or "0"


#: The 17 combinations of a battle, strongest first (seed 002, "A kombinációk, erősségi
#: sorrendben"), by the rank key the engine gives (adjudicator/havoc/hands.py RANKS).
COMBINATIONS = {
    "straight-flush-6": N_("6-card straight flush"), "six-of-a-kind": N_("six of a kind"),
    "straight-flush-5": N_("5-card straight flush"), "five-of-a-kind": N_("five of a kind"),
    "big-full-house": N_("big full house"), "four-of-a-kind": N_("four of a kind"), "trios": N_("trios"),
    "flush-6": N_("6-card flush"), "full-house": N_("full house"), "straight-6": N_("6-card straight"),
    "flush-5": N_("5-card flush"), "three-pairs": N_("three pairs"), "straight-5": N_("5-card straight"),
    "three-of-a-kind": N_("three of a kind"), "two-pairs": N_("two pairs"), "pair": N_("pair"),
    "high-card": N_("high card"), "none": N_("no cards"),
}


def combination_text(combo: Mapping[str, Any]) -> str:
    """``{"name": "pair", "tiebreak": [10]}`` -> ``pair 10``; full house 9/4; a value 0 is
    the Dogs of War (a Dog is value 0: four Dogs are ``four of a kind: Dogs``)."""
    tiebreak = list(combo.get("tiebreak") or [])
    rank = str(combo.get("rank", ""))
    name = _(COMBINATIONS[rank]) if rank in COMBINATIONS else str(combo.get("name", ""))
    if tiebreak == [0]:
        return _("{combination}: Dogs").format(combination=name) if name else _("Dogs")
    values = "/".join(_("Dogs") if v == 0 else str(v) for v in tiebreak)
    return f"{name} {values}".strip()


def deal_text(deal: Mapping[str, Any]) -> str:
    """The winner's deal of a battle card in words."""
    parts = []
    if deal.get("all"):
        parts.append(_("{n} to each seat").format(n=deal["all"]))
    if deal.get("initiator"):
        parts.append(_("{n} to the initiator").format(n=deal["initiator"]))
    return ", ".join(parts) or _("none")


#: The Chevauchées' sides as the battle data name them (seed 002, John of Gaunt).
CHEVAUCHEES = Sentences([Template(N_("Chevauchées: {start} to {end}"))])


def battle_title(name: Any) -> str:
    """A battle's name as the reader reads it (a battle's own name as printed; the Chevauchées' sides in words)."""
    return CHEVAUCHEES(str(name))


def battle_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Battle id -> name, for every battle the view names."""
    names = {b["id"]: b["name"] for b in view.get("battles") or []}
    last = view.get("last_battle") or {}
    if last.get("battle"):
        names.setdefault(last["battle"], last.get("name") or last["battle"])
    current = (view.get("battle") or {}).get("battle") or {}
    if current.get("id"):
        names.setdefault(current["id"], current.get("name") or current["id"])
    return names


def battle_name(view: Mapping[str, Any], battle_id: str) -> str:
    """The name of ``battle_id`` if the view knows it, else the id made readable."""
    known = battle_names(view)
    if battle_id in known:
        return battle_title(known[battle_id])
    if battle_id in ("calais-tours", "tours-bordeaux"):
        return battle_title("Chevauchées: " + battle_id.replace("-", " to ").title().replace(" To ", " to "))
    return battle_id.replace("-", " ").title()
