"""Who decides what now in a Havoc game, as the report's last section and a "your move" mail
say it: the kind of decision in words, a recruiting under way (rules version 3), the Dogs of
War declared out at a battle's end, and where the Peace card stands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reports.doc import Para
from reports.havoc.words import battle_name, cards_text, who
from reports.i18n import N_, _, ngettext
from reports.model import ReportInput

KIND_TEXT = {
    "recruit": N_("a turn: recruit (two RECRUIT lines, then LAY a card into the recruits; SIC/LOOT spend Dogs) "
                  "or cry HAVOC with at least two cards at the next battle"),
    "discard": N_("Year of Peace: discard one card each (DISCARD <card> or DISCARD LOWEST)"),
    "battle": N_("the battle"),
    "dogs": N_("activate Dogs of War laid in the battle: SCAVENGE <card>, LOOT or KEEP"),
    "choose": N_("name the next battle (NEXT <battle>)"),
    "exchange": N_("exchange Dogs of War for cards from the deck (EXCHANGE 0-2)"),
    "final": N_("Castillon: lay up to 6 cards at once (FINAL <cards>)"),
    "loot": N_("Looting: name the non-Dog you take from the discard pile (LOOT <card>)"),
    "recruiting": N_("the rest of a recruiting"),
    "dogsout": N_("the end of the battle: declare the Dogs of War out of the battle"),
}

#: What each Dog of War power is, for a recruiting under way (the forms the pending decision takes).
DOG_FORMS = (("SIC", N_("SIC DECK or SIC <recruit> (1 Dog: one more card)")),
             ("LOOT", N_("LOOT or LOOT LOOK (2 Dogs: a card of the discard pile)")))


def took_text(took: Sequence[Mapping[str, Any]]) -> str:
    """The cards a recruiting under way has taken, as its view shows them (a card drawn from
    the deck by name only in its drawer's view)."""
    parts = []
    for t in took:
        card, source, how = t.get("card"), t.get("from"), str(t.get("how"))
        if source == "deck":
            what = _("{card} from the deck").format(card=card) if card else _("a card from the deck")
        elif source == "discard":
            what = _("{card} from the discard pile").format(card=card or _("a card"))
        else:
            what = _("{card} from the recruits").format(card=card)
        if how == "sic":
            what = _("{taken} with Sic 'em!").format(taken=what)
        elif how == "loot":
            what = _("{taken} by Looting").format(taken=what)
        parts.append(what)
    return ", ".join(parts) or _("nothing yet")


def recruiting_blocks(view: Mapping[str, Any], info: Mapping[str, Any], forms: Sequence[str], mine: bool) -> list[Any]:
    """A recruiting under way (rules version 3): what it took so far and, for its seat, what
    to decide next ("A játékos húz két kártyát, és a kezéből lerak egy lapot az újoncokhoz")."""
    under_way = view.get("recruiting") or {}
    took = list(under_way.get("took") or [])
    if not mine:
        return [Para(_("{seat} is recruiting and has taken so far: {took}.").format(
            seat=who(under_way.get("seat")), took=took_text(took)))]
    draws = int(info.get("draws", 0))
    drawn = [t["card"] for t in took if t.get("from") == "deck" and t.get("card")]
    lines = [_("You have taken so far: {took}.").format(took=took_text(took))]
    if drawn:
        lines.append(_("You drew {cards} from the deck (only you see which cards).").format(cards=cards_text(drawn)))
    recruits = cards_text(view.get("recruits") or [])
    if draws < 2:
        which = _("second") if draws == 1 else _("first") if not took else _("next")
        nxt = (_("Decide your {which} card: RECRUIT DECK or RECRUIT <recruit> (the recruits: {recruits}); then LAY "
                 "the card you put into the recruits") if draws == 1 else
               _("Decide your {which} card: RECRUIT DECK or RECRUIT <recruit> (the recruits: {recruits}); after both "
                 "cards, LAY the card you put into the recruits")).format(which=which, recruits=recruits)
    else:
        nxt = _("Both cards are drawn: LAY <card> or LAY LOWEST puts one card of your hand into the recruits "
                "({recruits})").format(recruits=recruits)
    dogs = [_(text) for form, text in DOG_FORMS if form in forms]
    if dogs:
        nxt += ". " + _("Before the LAY you may spend Dogs of War: {dogs}").format(dogs=_(" or ").join(dogs))
    lines.append(nxt + ". " + _("Send the parts one at a time or all at once (the LAY last); a missed deadline "
                                "draws from the deck and lays the lowest."))
    return [Para(line) for line in lines]


def dogs_out_blocks(view: Mapping[str, Any], info: Mapping[str, Any], seats: Sequence[str], mine: bool) -> list[Any]:
    """The end of a battle (rules version 3): a seat declares its Dogs of War out ("A csata végén
    a játékos kijelentheti")."""
    name = battle_name(view, str(info.get("battle", "")))
    if not mine:
        return [Para(_("{battle} is over: {seats} declares how many laid Dogs of War stay out of the battle before "
                       "the combinations are compared.").format(battle=name, seats=", ".join(who(s) for s in seats)))]
    low, high = info.get("min", 0), info.get("max", 0)
    out = (ngettext("{n} of them is out anyway (beyond 6 cards); ", "{n} of them are out anyway (beyond 6 cards); ",
                    low).format(n=low) if low else "")
    return [Para(_("{battle} is over: declare how many of your laid Dogs of War stay out of the battle: DOGS OUT "
                   "{low}-{high} ({out}DOGS OUT BEST: the choice that gives your strongest combination). Without an "
                   "answer by the deadline your Dogs fight.").format(battle=name, low=low, high=high, out=out))]


def decision_blocks(inp: ReportInput, pending: Mapping[str, Any]) -> list[Any]:
    """Who decides what now, and where the Peace card stands for a Peacekeeper's turn."""
    view = inp.view
    seats = list(pending.get("seats") or [])
    info = pending.get("info") or {}
    kind = pending.get("kind", "")
    text = _(KIND_TEXT[kind]) if kind in KIND_TEXT else kind
    if kind == "recruit" and info.get("must_havoc"):
        text = _("a turn, but too few cards are left to recruit: must cry HAVOC with at least two cards")
    if kind == "battle":
        name = battle_name(view, str(info.get("battle", "")))
        text = (_("{battle}, round 1: JOIN with at least two cards, or STAY out and draw one card").format(battle=name)
                if info.get("round") == 1 else
                _("{battle}, round {round}: ADD cards or PASS").format(battle=name, round=info.get("round")))
        if info.get("must_join"):
            text += " " + _("(John of Gaunt's battle: must JOIN)")
    if kind == "exchange" and "max" in info:
        text = _("exchange up to {n} Dogs of War for cards from the deck (EXCHANGE 0-{n})").format(n=info["max"])
    if kind == "recruit" and info.get("asked") and not info.get("must_havoc"):
        text = _("a turn: recruit (RECRUIT DECK or RECRUIT <recruit> for your first card: you are then asked "
                 "for the rest; or the whole recruiting at once: two RECRUIT lines, SIC/LOOT, then LAY) or cry "
                 "HAVOC with at least two cards at the next battle")
    mine = inp.viewer in seats
    lead = (_("Your decision") if mine and len(seats) == 1 else
            _("To decide: {seats}").format(seats=", ".join(who(s) for s in seats)))
    blocks: list[Any] = [Para(f"{lead} ({pending.get('turn')}): {text}.")]
    if kind == "recruiting":
        blocks += recruiting_blocks(view, info, list(pending.get("forms") or []), mine)
    if kind == "dogsout":
        blocks += dogs_out_blocks(view, info, seats, mine)
    peace = view.get("peace") or {}
    if kind == "recruit" and info.get("peacekeeper") and not info.get("must_havoc"):
        if peace.get("fresh"):
            blocks.append(Para(_("The seat to play has just taken the Peace card: recruiting this turn "
                                 "leaves it where it is.")))
        elif peace.get("side") == "peace" and peace.get("position") == peace.get("max"):
            blocks.append(Para(_("The seat to play keeps the peace and the card is at its last number: "
                                 "recruiting now brings a Year of Peace (the next battle card is removed).")))
        else:
            blocks.append(Para(_("The seat to play keeps the peace: recruiting turns the Peace card on.")))
    return blocks
