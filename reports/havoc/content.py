"""What a Havoc battle report says, built from one viewer's view only.

:func:`build_doc` turns a :class:`reports.model.ReportInput` into a
:class:`reports.doc.Doc`; the shared templates lay it out as text and HTML. Nothing here
looks at engine state or derived events: a hand the view does not hold cannot be shown.
A seat's view holds its own hand only (other hands as sizes), the public view no hand,
the GM view every hand, the deck and the discard pile (docs/havoc-reports.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from reports.doc import Doc, Image, Items, Para, Section, Table
from reports.common import GM, next_section, staged_footer, viewer_label
from reports.model import ReportInput

JOHN = "@john"


def who(seat: Any) -> str:
    """A seat as a reader knows it (John of Gaunt is not a seat)."""
    if seat == JOHN:
        return "John of Gaunt"
    return "nobody" if seat is None else str(seat)


def cards_text(cards: Sequence[str]) -> str:
    """Card names as written in orders (``blue07 dog03``), or ``none``."""
    return " ".join(cards) if cards else "none"


def points_text(points: Sequence[int]) -> str:
    """``[11, 8, 5]`` -> ``11-8-5``."""
    return "-".join(str(p) for p in points) or "0"


def combination_text(combo: Mapping[str, Any]) -> str:
    """``{"name": "pair", "tiebreak": [10]}`` -> ``pair 10``; full house 9/4; a value 0 is
    the Dogs of War (a Dog is value 0: four Dogs are ``four of a kind: Dogs``)."""
    values = "/".join("Dogs" if v == 0 else str(v) for v in combo.get("tiebreak") or [])
    if values == "Dogs":
        return f"{combo.get('name', '')}: Dogs".strip(": ")
    return f"{combo.get('name', '')} {values}".strip()


def deal_text(deal: Mapping[str, Any]) -> str:
    """The winner's deal of a battle card in words."""
    parts = []
    if deal.get("all"):
        parts.append(f"{deal['all']} to each seat")
    if deal.get("initiator"):
        parts.append(f"{deal['initiator']} to the initiator")
    return ", ".join(parts) or "none"


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
        return known[battle_id]
    if battle_id in ("calais-tours", "tours-bordeaux"):
        return "Chevauchées: " + battle_id.replace("-", " to ").title().replace(" To ", " to ")
    return battle_id.replace("-", " ").title()


def build_doc(inp: ReportInput) -> tuple[Doc, str]:
    """The report's document and its banner line (empty when there is nothing to flag)."""
    view = inp.view
    sections = [s for s in (_last_battle(view), _recruiting(inp), _battle_now(view), _standings(view), _hand(inp), _gm(view),
                            _track(view), _table(view), _next(inp), _chart(inp)) if s is not None]
    doc = Doc(title=f"Havoc -- game {inp.game_id} -- {_when(view)}",
              subtitle=f"Battle report for {viewer_label(inp.viewer)}",
              sections=tuple(sections), footer=_footer(inp))
    return doc, inp.ending or banner(view)


def move_sections(inp: ReportInput) -> list[Section]:
    """What a "your move" mail tells besides the decision: the battle in progress, the
    recruits and the Peacekeeper, and the seat's own hand; the rest is in its last battle report."""
    view = inp.view
    return [s for s in (_battle_now(view), _table(view), _hand(inp)) if s is not None]


def _when(view: Mapping[str, Any]) -> str:
    if view.get("over"):
        return "the end of the war"
    last = view.get("last_battle")
    return f"after {last['name']}" if last else "before the first battle"


def banner(view: Mapping[str, Any]) -> str:
    """The line flagged at the top: the end of the game and its winner (or the tie)."""
    if not view.get("over"):
        return ""
    winner = view.get("winner")
    if winner:
        return f"The war is over. Winner: {who(winner)} with {view['points'].get(winner, 0)} points."
    groups = view.get("castillon") or []
    tied = ", ".join(groups[0]) if groups else "several seats"
    return (f"The war is over with no single winner: {tied} are equal in points, battle cards won "
            "and place at Castillon (the rules' End; mail HELP RULES).")


def _last_battle(view: Mapping[str, Any]) -> Section | None:
    last = view.get("last_battle")
    if not last:
        return None
    final = any("hand_left" in r for r in last.get("results") or [])
    rows = []
    for r in last.get("results") or []:
        combo = combination_text(r.get("combination") or {})
        extra = str(r.get("hand_left", "")) if final else str(r.get("dogs_out", 0))
        laid = ", ".join(r.get("laid") or []) or ("three 9s" if r.get("seat") == JOHN else "-")
        rows.append((str(r.get("place", "")), who(r.get("seat")), str(r.get("points", 0)), combo, extra, laid))
    headers = ("#", "Seat", "Pts", "Combination", "Left" if final else "Dogs out", "Cards laid")
    table = Table(headers, tuple(rows), "llrlrl", caption="Placings, points and the battlefield as it ended")
    winner = last.get("winner")
    lines = [f"Initiator: {who(last.get('initiator'))}." if last.get("initiator") else
             "Everyone laid at once (the last battle)."]
    lines.append(f"Winner: {who(winner)}, who takes the battle card." if winner else
                 "No single winner: the battle card stays unclaimed; shared places split their points.")
    if last.get("out"):
        lines.append(f"Stayed out (drew one card): {', '.join(who(s) for s in last['out'])}.")
    blocks: list[Any] = [Para(" ".join(lines)), table]
    if final:
        blocks.append(Para("'Left' is the number of cards left in hand: with equal combinations, "
                           "fewer cards left is stronger."))
    else:
        blocks.append(Para("'Dogs out' counts the Dogs of War that did not take part: declared out (DOGS OUT) "
                           "or laid beyond 6 cards (docs/orders-havoc.md)."))
    return Section("battle", f"The battle: {last.get('name', '')}", tuple(blocks))


def _recruiting(inp: ReportInput) -> Section | None:
    """The public record of the recruiting before this battle (rule: recruits are face up)."""
    lines = []
    for e in inp.record:
        if e.get("type") != "Recruit":
            continue
        shown = [c.get("card") for c in e.get("took") or [] if c.get("card")]
        deck = sum(1 for c in e.get("took") or [] if not c.get("card"))
        parts = [f"took {cards_text(shown)} from the recruits"] if shown else []
        if deck:
            parts.append(f"drew {deck} card{'' if deck == 1 else 's'} from the deck")
        if e.get("laid"):
            parts.append(f"laid {e['laid']} into the recruits")
        lines.append(f"{who(e.get('seat'))} " + (", ".join(parts) or "took nothing") + ".")
    if not lines:
        return None
    return Section("recruiting", "Recruiting before this battle (public at the table)", (Items(tuple(lines)),))


def _battle_now(view: Mapping[str, Any]) -> Section | None:
    battle = view.get("battle")
    if not battle:
        return None
    card = battle.get("battle") or {}
    field = view.get("field") or {}
    rows = []
    for seat in [*([JOHN] if battle.get("initiator") == JOHN else []), *view.get("seats", [])]:
        if seat in battle.get("out") or []:
            state = "out"
        elif seat in battle.get("passed") or []:
            state = "passed"
        elif seat in battle.get("joined") or []:
            state = "in"
        else:
            state = "to decide"
        laid = battle.get("john_laid") if seat == JOHN else cards_text(field.get(seat, []))
        rows.append((who(seat), state, laid or "none"))
    head = (f"{card.get('name', '')} ({points_text(card.get('points') or [])}), cried by "
            f"{who(battle.get('initiator'))}; round {battle.get('round')}.")
    return Section("field", "The battle in progress",
                   (Para(head), Table(("Seat", "Status", "Cards laid face up"), tuple(rows), "lll")))


def _standings(view: Mapping[str, Any]) -> Section:
    seats = list(view.get("seats", []))
    points = view.get("points") or {}
    won = view.get("won") or {}
    sizes = view.get("hand_sizes") or {}
    keeper = view.get("peacekeeper")
    order = sorted(seats, key=lambda s: (-int(points.get(s, 0)), -len(won.get(s) or []), seats.index(s)))
    rows = []
    for rank, seat in enumerate(order, 1):
        mark = " (P)" if seat == keeper else ""
        rows.append((str(rank), seat + mark, str(points.get(seat, 0)), str(sizes.get(seat, 0)),
                     ", ".join(won.get(seat) or []) or "-"))
    john = view.get("john") or {}
    if john.get("where") not in (None, "unused") and (john.get("won") or john.get("points")):
        rows.append(("", "John of Gaunt" + (" (P)" if keeper == JOHN else ""), str(john.get("points", 0)), "-",
                     ", ".join(battle_name(view, b) for b in john.get("won") or []) or "-"))
    table = Table(("Rank", "Seat", "Points", "Cards", "Battle cards won"), tuple(rows), "rlrrl")
    note = Para("(P) marks the Peacekeeper. 'Cards' is the number of cards in hand: the cards themselves "
                "are secret. Ties in points are broken by battle cards won, then the place at Castillon.")
    return Section("standings", "Points and placings", (table, note))


def _hand(inp: ReportInput) -> Section | None:
    view = inp.view
    if inp.viewer not in view.get("seats", []):
        return None
    mine = (view.get("hands") or {}).get(inp.viewer) or []
    blocks: list[Any] = [Para(f"{len(mine)} card{'' if len(mine) == 1 else 's'}: {cards_text(mine)}." if mine else "You hold no cards.")]
    if "discard" in view:  # Looting (seed 002): the looting seat looks through the discard pile now
        blocks.append(Para(f"You are looting. The discard pile: {cards_text(view['discard'])}. "
                           "Answer LOOT <card> with the non-Dog you take."))
    standing = (view.get("standing") or {}).get(inp.viewer) or []
    if standing:
        blocks.append(Para("Your standing orders:"))
        blocks.append(Items(tuple(_format_orders(standing).splitlines())))
    return Section("hand", "Your hand (only you see these cards)", tuple(blocks))


def _format_orders(orders: Sequence[Mapping[str, Any]]) -> str:
    try:
        from turns.base import format_orders

        return format_orders("havoc", [dict(o) for o in orders])
    except Exception:  # noqa: BLE001 -- a report must render even if the grammar changes
        return "\n".join(str(o.get("when", o.get("kind"))) for o in orders)


def _gm(view: Mapping[str, Any]) -> Section | None:
    if view.get("viewer") != GM:
        return None
    hands = view.get("hands") or {}
    rows = tuple((s, str(len(hands.get(s) or [])), cards_text(hands.get(s) or [])) for s in view.get("seats", []))
    blocks: list[Any] = [Table(("Seat", "Cards", "Hand"), rows, "lrl"),
                         Para(f"Deck ({len(view.get('deck') or [])}, top first): {cards_text(view.get('deck') or [])}."),
                         Para(f"Discard pile ({len(view.get('discard') or [])}): "
                              f"{cards_text(view.get('discard') or [])}.")]
    standing = view.get("standing") or {}
    lines = [f"{s}: {line}" for s in view.get("seats", []) for line in _format_orders(standing.get(s) or []).splitlines()
             if line.strip()]
    blocks.append(Items(tuple(lines)) if lines else Para("No standing orders on file."))
    return Section("gm", "Every hand, the deck and the discard pile (GM only)", tuple(blocks))


def _track(view: Mapping[str, Any]) -> Section:
    battles = view.get("battles") or []
    rows = []
    for i, b in enumerate(battles):
        tag = " (next)" if i == 0 else (" (last)" if b.get("final") else "")
        rows.append((str(b.get("number", "")), b.get("name", "") + tag, points_text(b.get("points") or []),
                     deal_text(b.get("deal") or {})))
    blocks: list[Any] = []
    if rows:
        blocks.append(Table(("No.", "Battle", "Points by place", "The winner deals"), tuple(rows), "rlll",
                            caption=f"{len(rows)} battle cards remain, in the order they will be fought"))
    else:
        blocks.append(Para("No battle card remains."))
    options = view.get("options") or {}
    if options.get("small") == "on":
        blocks.append(Para("Small game (small=on): no 2nd-place points; the 3rd-place points go to 2nd"
                           + ("; 3rd place scores nothing (small_third=none)." if options.get("small_third") == "none"
                              else ", and the places below move up.")))
    readings = view.get("readings") or {}
    if readings:  # rules version 3 on: the GM's choice where the rulebook reads two ways
        blocks.append(Para("Readings in force (docs/havoc-rules.md, Readings): "
                           + ", ".join(f"{k}={v}" for k, v in sorted(readings.items()))
                           + (" (one Sic 'em! or one Looting per recruiting)" if readings.get("sic") == "once" else "")
                           + "."))
    removed = view.get("removed") or []
    if removed:
        blocks.append(Para("Removed: " + "; ".join(f"{battle_name(view, r['id'])} ({r.get('why', '')})"
                                                     for r in removed) + "."))
    return Section("track", "The battle track", tuple(blocks))


def _table(view: Mapping[str, Any]) -> Section:
    peace = view.get("peace") or {}
    keeper = view.get("peacekeeper")
    if peace.get("side") == "havoc":
        card = "on its Havoc side"
    elif peace.get("position"):
        card = f"at {peace['position']} of {peace.get('max', '?')}"
    else:
        card = "Peace side up, not yet turned"
    recruits = view.get("recruits") or []
    lines = [f"Peacekeeper: {who(keeper)}; the Peace card is {card}. When the Peacekeeper recruits with the "
             f"card at {peace.get('max', '?')}, a Year of Peace removes the next battle card.",
             f"Recruits ({len(recruits)} of at most {view.get('recruit_limit', '?')}), face up: "
             f"{cards_text(recruits)}.",
             f"Draw deck: {view.get('deck_size', 0)} cards; discard pile: {view.get('discard_size', 0)} cards "
             f"(face down); out of the game: {view.get('box_size', 0)}."]
    john = view.get("john") or {}
    where = john.get("where")
    if where and where != "unused":
        text = {"deck": "somewhere in the deck", "waiting": f"drawn, waiting at the left of {who(john.get('left_of'))}",
                "active": f"in play at the left of {who(john.get('left_of'))}",
                "gone": "retired to his estates in England"}.get(where, where)
        lines.append(f"John of Gaunt: {text}.")
    return Section("table", "Recruits and the Peacekeeper", tuple(Para(x) for x in lines))


KIND_TEXT = {
    "recruit": "a turn: recruit (two RECRUIT lines, then LAY a card into the recruits; SIC/LOOT spend Dogs) "
               "or cry HAVOC with at least two cards at the next battle",
    "discard": "Year of Peace: discard one card each (DISCARD <card> or DISCARD LOWEST)",
    "battle": "the battle",
    "dogs": "activate Dogs of War laid in the battle: SCAVENGE <card>, LOOT or KEEP",
    "choose": "name the next battle (NEXT <battle>)",
    "exchange": "exchange Dogs of War for cards from the deck (EXCHANGE 0-2)",
    "final": "Castillon: lay up to 6 cards at once (FINAL <cards>)",
    "loot": "Looting: name the non-Dog you take from the discard pile (LOOT <card>)",
    "recruiting": "the rest of a recruiting",
    "dogsout": "the end of the battle: declare the Dogs of War out of the battle",
}

#: What each Dog of War power is, for a recruiting under way (the forms the pending decision takes).
DOG_FORMS = (("SIC", "SIC DECK or SIC <recruit> (1 Dog: one more card)"),
             ("LOOT", "LOOT or LOOT LOOK (2 Dogs: a card of the discard pile)"))

#: How a card was taken while recruiting, in words.
HOW = {"recruit": "", "sic": " with Sic 'em!", "loot": " by Looting"}


def took_text(took: Sequence[Mapping[str, Any]]) -> str:
    """The cards a recruiting under way has taken, as its view shows them (a card drawn from
    the deck by name only in its drawer's view)."""
    parts = []
    for t in took:
        card, source = t.get("card"), t.get("from")
        if source == "deck":
            what = f"{card} from the deck" if card else "a card from the deck"
        elif source == "discard":
            what = f"{card or 'a card'} from the discard pile"
        else:
            what = f"{card} from the recruits"
        parts.append(what + HOW.get(str(t.get("how")), ""))
    return ", ".join(parts) or "nothing yet"


def recruiting_blocks(view: Mapping[str, Any], info: Mapping[str, Any], forms: Sequence[str], mine: bool) -> list[Any]:
    """A recruiting under way (rules version 3): what it took so far and, for its seat, what
    to decide next ("A játékos húz két kártyát, és a kezéből lerak egy lapot az újoncokhoz")."""
    under_way = view.get("recruiting") or {}
    took = list(under_way.get("took") or [])
    if not mine:
        return [Para(f"{who(under_way.get('seat'))} is recruiting and has taken so far: {took_text(took)}.")]
    draws = int(info.get("draws", 0))
    drawn = [t["card"] for t in took if t.get("from") == "deck" and t.get("card")]
    lines = [f"You have taken so far: {took_text(took)}."]
    if drawn:
        lines.append(f"You drew {cards_text(drawn)} from the deck (only you see which cards).")
    recruits = cards_text(view.get("recruits") or [])
    if draws < 2:
        which = "second" if draws == 1 else "first" if not took else "next"
        nxt = (f"Decide your {which} card: RECRUIT DECK or RECRUIT <recruit> (the recruits: {recruits})"
               + ("; then" if draws == 1 else "; after both cards,") + " LAY the card you put into the recruits")
    else:
        nxt = f"Both cards are drawn: LAY <card> or LAY LOWEST puts one card of your hand into the recruits ({recruits})"
    dogs = [text for form, text in DOG_FORMS if form in forms]
    if dogs:
        nxt += ". Before the LAY you may spend Dogs of War: " + " or ".join(dogs)
    lines.append(nxt + ". Send the parts one at a time or all at once (the LAY last); a missed deadline "
                 "draws from the deck and lays the lowest.")
    return [Para(line) for line in lines]


def dogs_out_blocks(view: Mapping[str, Any], info: Mapping[str, Any], seats: Sequence[str], mine: bool) -> list[Any]:
    """The end of a battle (rules version 3): a seat declares its Dogs of War out ("A csata végén
    a játékos kijelentheti")."""
    name = battle_name(view, str(info.get("battle", "")))
    if not mine:
        return [Para(f"{name} is over: {', '.join(who(s) for s in seats)} declares how many laid Dogs of War "
                     "stay out of the battle before the combinations are compared.")]
    low, high = info.get("min", 0), info.get("max", 0)
    out = (f"{low} of them {'is' if low == 1 else 'are'} out anyway (beyond 6 cards); " if low else "")
    return [Para(f"{name} is over: declare how many of your laid Dogs of War stay out of the battle: "
                 f"DOGS OUT {low}-{high} ({out}DOGS OUT BEST: the choice that gives your strongest combination). "
                 "Without an answer by the deadline your Dogs fight.")]


def _next(inp: ReportInput) -> Section:
    return next_section(inp, "Whose turn it is", lambda pending: decision_blocks(inp, pending),
                        "Standing orders (STANDING ...) answer small decisions for you; mail HELP ORDERS for the whole "
                        "syntax.",
                        lambda text: (line for line in text.splitlines() if line.strip()))


def decision_blocks(inp: ReportInput, pending: Mapping[str, Any]) -> list[Any]:
    """Who decides what now, and where the Peace card stands for a Peacekeeper's turn."""
    view = inp.view
    seats = list(pending.get("seats") or [])
    info = pending.get("info") or {}
    kind = pending.get("kind", "")
    text = KIND_TEXT.get(kind, kind)
    if kind == "recruit" and info.get("must_havoc"):
        text = "a turn, but too few cards are left to recruit: must cry HAVOC with at least two cards"
    if kind == "battle":
        name = battle_name(view, str(info.get("battle", "")))
        text = (f"{name}, round 1: JOIN with at least two cards, or STAY out and draw one card"
                if info.get("round") == 1 else f"{name}, round {info.get('round')}: ADD cards or PASS")
        if info.get("must_join"):
            text += " (John of Gaunt's battle: must JOIN)"
    if kind == "exchange" and "max" in info:
        text = f"exchange up to {info['max']} Dogs of War for cards from the deck (EXCHANGE 0-{info['max']})"
    if kind == "recruit" and info.get("asked") and not info.get("must_havoc"):
        text = ("a turn: recruit (RECRUIT DECK or RECRUIT <recruit> for your first card: you are then asked "
                "for the rest; or the whole recruiting at once: two RECRUIT lines, SIC/LOOT, then LAY) or cry "
                "HAVOC with at least two cards at the next battle")
    mine = inp.viewer in seats
    lead = "Your decision" if mine and len(seats) == 1 else f"To decide: {', '.join(who(s) for s in seats)}"
    blocks: list[Any] = [Para(f"{lead} ({pending.get('turn')}): {text}.")]
    if kind == "recruiting":
        blocks += recruiting_blocks(view, info, list(pending.get("forms") or []), mine)
    if kind == "dogsout":
        blocks += dogs_out_blocks(view, info, seats, mine)
    peace = view.get("peace") or {}
    if kind == "recruit" and info.get("peacekeeper") and not info.get("must_havoc"):
        if peace.get("fresh"):
            blocks.append(Para("The seat to play has just taken the Peace card: recruiting this turn "
                               "leaves it where it is."))
        elif peace.get("side") == "peace" and peace.get("position") == peace.get("max"):
            blocks.append(Para("The seat to play keeps the peace and the card is at its last number: "
                               "recruiting now brings a Year of Peace (the next battle card is removed)."))
        else:
            blocks.append(Para("The seat to play keeps the peace: recruiting turns the Peace card on."))
    return blocks


def _chart(inp: ReportInput) -> Section | None:
    if not inp.history:
        return None
    return Section("chart", "Points over the battles",
                   (Image("chart.png", "Chart: points by seat after each battle", 560),))


#: Where the provisional battle figures are listed for players (the rules reference's section).
PROVISIONAL_LIST = "the rules reference (mail HELP RULES), section Provisional data"
_ORDINAL = {"1": "1st", "2": "2nd", "3": "3rd"}


def plain_provisional(items: Sequence[Any]) -> list[str]:
    """The provisional battle figures by battle, for players (``Crécy: 2nd-place points,
    cards dealt``); the GM's report gives each with its source."""
    found: dict[str, list[str]] = {}
    for item in items:
        path, _, value = str(item).partition(" = ")
        m = re.match(r"(?:(battle \d+) name|(.+) place (\d) points|(.+) deal|(.+) position)$", path)
        if m is None:
            found.setdefault(path, [])
            continue
        named, placed, place, dealt, moved = m.groups()
        name = re.match(r'"([^"]+)"', value) if named else None
        battle = (name.group(1) if name else named) or placed or dealt or moved
        what = ("its name" if named else f"{_ORDINAL.get(place, place)}-place points" if placed
                else "cards dealt" if dealt else "its place in the order")
        found.setdefault(battle, []).append(what)
    return [f"{battle}: {', '.join(whats)}" if whats else battle for battle, whats in found.items()]


def first_report(turn: str) -> bool:
    """True for the reports of the first battle (turn labels ``b1/...``), the first a seat gets."""
    return turn.split("/", 1)[0] in ("b1", "start", "setup")


def _footer(inp: ReportInput) -> tuple[str, ...]:
    """The footer; the provisional figures in full only in the first report and the GM's."""
    return staged_footer(inp, first_report(inp.turn), PROVISIONAL_LIST, "in the first battle's report",
                         "PROVISIONAL battle figures in use (the rulebook leaves them open; they may change; "
                         "docs/havoc-rules.md, section Provisional data):", plain_provisional)
