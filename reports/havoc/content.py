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
from reports.enginetext import Sentences, Template
# the decisions are asked through this module too (reports/decisions.py): one content module per game
from reports.havoc.decisions import decision_blocks
from reports.havoc.words import (JOHN, battle_name, battle_title, cards_text, combination_text,  # noqa: F401
                                 deal_text, laid_card, points_text, who)
from reports.i18n import N_, _, ngettext
from reports.model import ReportInput


def build_doc(inp: ReportInput) -> tuple[Doc, str]:
    """The report's document and its banner line (empty when there is nothing to flag)."""
    view = inp.view
    sections = [s for s in (_last_battle(view), _recruiting(inp), _battle_now(view), _standings(view), _hand(inp), _gm(view),
                            _track(view), _table(view), _next(inp), _chart(inp)) if s is not None]
    doc = Doc(title=_("Havoc -- game {game} -- {when}").format(game=inp.game_id, when=_when(view)),
              subtitle=_("Battle report for {viewer}").format(viewer=viewer_label(inp.viewer)),
              sections=tuple(sections), footer=_footer(inp))
    return doc, inp.ending or banner(view)


def move_sections(inp: ReportInput) -> list[Section]:
    """What a "your move" mail tells besides the decision: the battle in progress, the
    recruits and the Peacekeeper, and the seat's own hand; the rest is in its last battle report."""
    view = inp.view
    return [s for s in (_battle_now(view), _table(view), _hand(inp)) if s is not None]


def _when(view: Mapping[str, Any]) -> str:
    if view.get("over"):
        return _("the end of the war")
    last = view.get("last_battle")
    return _("after {battle}").format(battle=battle_title(last["name"])) if last else _("before the first battle")


def banner(view: Mapping[str, Any]) -> str:
    """The line flagged at the top: the end of the game and its winner (or the tie)."""
    if not view.get("over"):
        return ""
    winner = view.get("winner")
    if winner:
        return _("The war is over. Winner: {winner} with {points} points.").format(
            winner=who(winner), points=view["points"].get(winner, 0))
    groups = view.get("castillon") or []
    tied = ", ".join(groups[0]) if groups else _("several seats")
    return _("The war is over with no single winner: {tied} are equal in points, battle cards won and place at "
             "Castillon (the rules' End; mail HELP RULES).").format(tied=tied)


def _last_battle(view: Mapping[str, Any]) -> Section | None:
    last = view.get("last_battle")
    if not last:
        return None
    final = any("hand_left" in r for r in last.get("results") or [])
    rows = []
    for r in last.get("results") or []:
        combo = combination_text(r.get("combination") or {})
        extra = str(r.get("hand_left", "")) if final else str(r.get("dogs_out", 0))
        laid = ", ".join(laid_card(c) for c in r.get("laid") or []) or (_("three 9s") if r.get("seat") == JOHN else "-")
        rows.append((str(r.get("place", "")), who(r.get("seat")), str(r.get("points", 0)), combo, extra, laid))
    headers = ("#", _("Seat"), _("Pts"), _("Combination"), _("Left") if final else _("Dogs out"), _("Cards laid"))
    table = Table(headers, tuple(rows), "llrlrl", caption=_("Placings, points and the battlefield as it ended"))
    winner = last.get("winner")
    lines = [_("Initiator: {seat}.").format(seat=who(last.get("initiator"))) if last.get("initiator") else
             _("Everyone laid at once (the last battle).")]
    lines.append(_("Winner: {seat}, who takes the battle card.").format(seat=who(winner)) if winner else
                 _("No single winner: the battle card stays unclaimed; shared places split their points."))
    if last.get("out"):
        lines.append(_("Stayed out (drew one card): {seats}.").format(seats=", ".join(who(s) for s in last["out"])))
    blocks: list[Any] = [Para(" ".join(lines)), table]
    if final:
        blocks.append(Para(_("'Left' is the number of cards left in hand: with equal combinations, "
                             "fewer cards left is stronger.")))
    else:
        blocks.append(Para(_("'Dogs out' counts the Dogs of War that did not take part: declared out (DOGS OUT) "
                             "or laid beyond 6 cards (docs/orders-havoc.md).")))
    return Section("battle", _("The battle: {battle}").format(battle=battle_title(last.get("name", ""))), tuple(blocks))


def _recruiting(inp: ReportInput) -> Section | None:
    """The public record of the recruiting before this battle (rule: recruits are face up)."""
    lines = []
    for e in inp.record:
        if e.get("type") != "Recruit":
            continue
        shown = [c.get("card") for c in e.get("took") or [] if c.get("card")]
        deck = sum(1 for c in e.get("took") or [] if not c.get("card"))
        parts = [_("took {cards} from the recruits").format(cards=cards_text(shown))] if shown else []
        if deck:
            parts.append(ngettext("drew {n} card from the deck", "drew {n} cards from the deck", deck).format(n=deck))
        if e.get("laid"):
            parts.append(_("laid {card} into the recruits").format(card=e["laid"]))
        lines.append(_("{seat} {actions}.").format(seat=who(e.get("seat")), actions=", ".join(parts) or _("took nothing")))
    if not lines:
        return None
    return Section("recruiting", _("Recruiting before this battle (public at the table)"), (Items(tuple(lines)),))


def _battle_now(view: Mapping[str, Any]) -> Section | None:
    battle = view.get("battle")
    if not battle:
        return None
    card = battle.get("battle") or {}
    field = view.get("field") or {}
    rows = []
    for seat in [*([JOHN] if battle.get("initiator") == JOHN else []), *view.get("seats", [])]:
        if seat in battle.get("out") or []:
            state = _("out")
        elif seat in battle.get("passed") or []:
            state = _("passed")
        elif seat in battle.get("joined") or []:
            state = _("in")
        else:
            state = _("to decide")
        laid = battle.get("john_laid") if seat == JOHN else cards_text(field.get(seat, []))
        rows.append((who(seat), state, laid or _("none")))
    head = _("{battle} ({points}), cried by {seat}; round {round}.").format(
        battle=battle_title(card.get("name", "")), points=points_text(card.get("points") or []),
        seat=who(battle.get("initiator")), round=battle.get("round"))
    return Section("field", _("The battle in progress"),
                   (Para(head), Table((_("Seat"), _("Status"), _("Cards laid face up")), tuple(rows), "lll")))


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
                     ", ".join(battle_title(b) for b in won.get(seat) or []) or "-"))
    john = view.get("john") or {}
    if john.get("where") not in (None, "unused") and (john.get("won") or john.get("points")):
        rows.append(("", _("John of Gaunt") + (" (P)" if keeper == JOHN else ""), str(john.get("points", 0)), "-",
                     ", ".join(battle_name(view, b) for b in john.get("won") or []) or "-"))
    table = Table((_("Rank"), _("Seat"), _("Points"), _("Cards"), _("Battle cards won")), tuple(rows), "rlrrl")
    note = Para(_("(P) marks the Peacekeeper. 'Cards' is the number of cards in hand: the cards themselves "
                  "are secret. Ties in points are broken by battle cards won, then the place at Castillon."))
    return Section("standings", _("Points and placings"), (table, note))


def _hand(inp: ReportInput) -> Section | None:
    view = inp.view
    if inp.viewer not in view.get("seats", []):
        return None
    mine = (view.get("hands") or {}).get(inp.viewer) or []
    blocks: list[Any] = [Para(ngettext("{n} card: {cards}.", "{n} cards: {cards}.", len(mine)).format(
        n=len(mine), cards=cards_text(mine)) if mine else _("You hold no cards."))]
    if "discard" in view:  # Looting (seed 002): the looting seat looks through the discard pile now
        blocks.append(Para(_("You are looting. The discard pile: {cards}. Answer LOOT <card> with the non-Dog you "
                             "take.").format(cards=cards_text(view["discard"]))))
    standing = (view.get("standing") or {}).get(inp.viewer) or []
    if standing:
        blocks.append(Para(_("Your standing orders:")))
        blocks.append(Items(tuple(_format_orders(standing).splitlines())))
    return Section("hand", _("Your hand (only you see these cards)"), tuple(blocks))


def _format_orders(orders: Sequence[Mapping[str, Any]]) -> str:
    try:
        from turns.games import format_orders

        return format_orders("havoc", [dict(o) for o in orders])
    except Exception:  # noqa: BLE001 -- a report must render even if the grammar changes
        return "\n".join(str(o.get("when", o.get("kind"))) for o in orders)


def _gm(view: Mapping[str, Any]) -> Section | None:
    if view.get("viewer") != GM:
        return None
    hands = view.get("hands") or {}
    rows = tuple((s, str(len(hands.get(s) or [])), cards_text(hands.get(s) or [])) for s in view.get("seats", []))
    blocks: list[Any] = [Table((_("Seat"), _("Cards"), _("Hand")), rows, "lrl"),
                         Para(_("Deck ({n}, top first): {cards}.").format(n=len(view.get("deck") or []),
                                                                          cards=cards_text(view.get("deck") or []))),
                         Para(_("Discard pile ({n}): {cards}.").format(n=len(view.get("discard") or []),
                                                                       cards=cards_text(view.get("discard") or [])))]
    standing = view.get("standing") or {}
    lines = [f"{s}: {line}" for s in view.get("seats", []) for line in _format_orders(standing.get(s) or []).splitlines()
             if line.strip()]
    blocks.append(Items(tuple(lines)) if lines else Para(_("No standing orders on file.")))
    return Section("gm", _("Every hand, the deck and the discard pile (GM only)"), tuple(blocks))


#: Why a battle card left the track (the engine's words).
REMOVED = {"year of peace": N_("year of peace"), "set aside for the Chevauchées": N_("set aside for the Chevauchées")}


def _track(view: Mapping[str, Any]) -> Section:
    battles = view.get("battles") or []
    rows = []
    for i, b in enumerate(battles):
        tag = " " + _("(next)") if i == 0 else (" " + _("(last)") if b.get("final") else "")
        rows.append((str(b.get("number", "")), battle_title(b.get("name", "")) + tag, points_text(b.get("points") or []),
                     deal_text(b.get("deal") or {})))
    blocks: list[Any] = []
    if rows:
        blocks.append(Table((_("No."), _("Battle"), _("Points by place"), _("The winner deals")), tuple(rows), "rlll",
                            caption=ngettext("{n} battle card remains, in the order they will be fought",
                                             "{n} battle cards remain, in the order they will be fought",
                                             len(rows)).format(n=len(rows))))
    else:
        blocks.append(Para(_("No battle card remains.")))
    options = view.get("options") or {}
    if options.get("small") == "on":
        blocks.append(Para(_("Small game (small=on): no 2nd-place points; the 3rd-place points go to 2nd; 3rd place "
                             "scores nothing (small_third=none).") if options.get("small_third") == "none" else
                           _("Small game (small=on): no 2nd-place points; the 3rd-place points go to 2nd, and the "
                             "places below move up.")))
    readings = view.get("readings") or {}
    if readings:  # rules version 3 on: the GM's choice where the rulebook reads two ways
        said = ", ".join(f"{k}={v}" for k, v in sorted(readings.items()))
        blocks.append(Para((_("Readings in force (docs/havoc-rules.md, Readings): {readings} (one Sic 'em! or one "
                              "Looting per recruiting).") if readings.get("sic") == "once" else
                            _("Readings in force (docs/havoc-rules.md, Readings): {readings}.")).format(readings=said)))
    removed = view.get("removed") or []
    if removed:
        why = [_(REMOVED[r.get("why", "")]) if r.get("why", "") in REMOVED else r.get("why", "") for r in removed]
        blocks.append(Para(_("Removed: {battles}.").format(battles="; ".join(
            f"{battle_name(view, r['id'])} ({w})" for r, w in zip(removed, why)))))
    return Section("track", _("The battle track"), tuple(blocks))


def _table(view: Mapping[str, Any]) -> Section:
    peace = view.get("peace") or {}
    keeper = view.get("peacekeeper")
    if peace.get("side") == "havoc":
        card = _("on its Havoc side")
    elif peace.get("position"):
        card = _("at {position} of {max}").format(position=peace["position"], max=peace.get("max", "?"))
    else:
        card = _("Peace side up, not yet turned")
    recruits = view.get("recruits") or []
    lines = [_("Peacekeeper: {seat}; the Peace card is {card}. When the Peacekeeper recruits with the card at {max}, "
               "a Year of Peace removes the next battle card.").format(seat=who(keeper), card=card,
                                                                       max=peace.get("max", "?")),
             _("Recruits ({n} of at most {limit}), face up: {cards}.").format(
                 n=len(recruits), limit=view.get("recruit_limit", "?"), cards=cards_text(recruits)),
             _("Draw deck: {deck} cards; discard pile: {discard} cards (face down); out of the game: {box}.").format(
                 deck=view.get("deck_size", 0), discard=view.get("discard_size", 0), box=view.get("box_size", 0))]
    john = view.get("john") or {}
    where = john.get("where")
    if where and where != "unused":
        text = {"deck": _("somewhere in the deck"),
                "waiting": _("drawn, waiting at the left of {seat}").format(seat=who(john.get("left_of"))),
                "active": _("in play at the left of {seat}").format(seat=who(john.get("left_of"))),
                "gone": _("retired to his estates in England")}.get(where, where)
        lines.append(_("John of Gaunt: {where}.").format(where=text))
    return Section("table", _("Recruits and the Peacekeeper"), tuple(Para(x) for x in lines))


def _next(inp: ReportInput) -> Section:
    return next_section(inp, _("Whose turn it is"), lambda pending: decision_blocks(inp, pending),
                        _("Standing orders (STANDING ...) answer small decisions for you; mail HELP ORDERS for the "
                          "whole syntax."),
                        lambda text: (line for line in text.splitlines() if line.strip()))


def _chart(inp: ReportInput) -> Section | None:
    if not inp.history:
        return None
    return Section("chart", _("Points over the battles"),
                   (Image("chart.png", _("Chart: points by seat after each battle"), 560),))


#: Where the provisional battle figures are listed for players (the rules reference's section).
PROVISIONAL_LIST = N_("the rules reference (mail HELP RULES), section Provisional data")
_PLACE_POINTS = {"1": N_("1st-place points"), "2": N_("2nd-place points"), "3": N_("3rd-place points")}


def plain_provisional(items: Sequence[Any]) -> list[str]:
    """The provisional battle figures by battle, for players (``Crécy: 2nd-place points,
    cards dealt``); the GM's report gives each with its source."""
    found: dict[str, list[str]] = {}
    for item in items:
        path, _sep, value = str(item).partition(" = ")
        m = re.match(r"(?:(battle \d+) name|(.+) place (\d) points|(.+) deal|(.+) position)$", path)
        if m is None:
            found.setdefault(path, [])
            continue
        named, placed, place, dealt, moved = m.groups()
        name = re.match(r'"([^"]+)"', value) if named else None
        if named:
            battle = battle_title(name.group(1)) if name else _("battle {number}").format(number=named.split()[-1])
        else:
            battle = battle_title(placed or dealt or moved)
        what = (_("its name") if named else
                (_(_PLACE_POINTS[place]) if place in _PLACE_POINTS else
                 _("{place}-place points").format(place=place)) if placed
                else _("cards dealt") if dealt else _("its place in the order"))
        found.setdefault(battle, []).append(what)
    return [f"{battle}: {', '.join(whats)}" if whats else battle for battle, whats in found.items()]


def first_report(turn: str) -> bool:
    """True for the reports of the first battle (turn labels ``b1/...``), the first a seat gets."""
    return turn.split("/", 1)[0] in ("b1", "start", "setup")


def _footer(inp: ReportInput) -> tuple[str, ...]:
    """The footer; the provisional figures in full only in the first report and the GM's."""
    where = _(PROVISIONAL_LIST)
    return staged_footer(inp, first_report(inp.turn), where, _("in the first battle's report"),
                         _("PROVISIONAL battle figures in use (the rulebook leaves them open; they may change; "
                           "docs/havoc-rules.md, section Provisional data):"), plain_provisional,
                         describe=provisional_figure)


#: A provisional battle figure as the engine lists it: ``<figure> = <value> (<why>)`` (adjudicator/havoc/tables.py).
FIGURES = Sentences([
    Template(N_("battle {n} name")), Template(N_("{battle} place {n} points"), {"battle": battle_title}),
    Template(N_("{battle} deal"), {"battle": battle_title}), Template(N_("{battle} position"), {"battle": battle_title}),
])


def provisional_figure(line: Any) -> str:
    """One provisional figure of the footer in the reader's words (the data's reason is in the catalogue)."""
    import re

    text = str(line)
    m = re.match(r"^(?P<figure>.+?) = (?P<value>.+?) \((?P<why>.*)\)$", text, re.DOTALL)
    if m is None or FIGURES(m["figure"]) == m["figure"] and _(m["why"]) == m["why"]:
        return text
    return _("{figure} = {value} ({why})").format(figure=FIGURES(m["figure"]), value=m["value"], why=_(m["why"]))
