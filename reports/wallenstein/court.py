"""The Imperial Court in a Wallenstein report (expansion=court): a section and the event lines.

Built from the view's ``court`` part only (docs/wallenstein-court.md, "The view"); a
view without it (the base game) gives no section. Imports nothing from :mod:`events`, so
that module can merge :data:`FORMATTERS` into its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reports.doc import Items, Para, Section, Sub, Table
from reports.i18n import _, ngettext

Event = Mapping[str, Any]


def _courtiers_n(n: Any) -> str:
    return (ngettext("{n} courtier", "{n} courtiers", n) if isinstance(n, int) else _("{n} courtiers")).format(n=n)


def _armies_n(n: Any) -> str:
    return (ngettext("{n} army", "{n} armies", n) if isinstance(n, int) else _("{n} armies")).format(n=n)


def card_name(name: Any) -> str:
    """A favour card's name (the stand-in deck's names are in the catalogue; a GM's own deck's are shown as printed)."""
    return _(str(name)) if name else str(name)


def card_text(text: Any) -> str:
    """A favour card's effects in words (the view's text: the engine's words, one effect per ``; ``)."""
    from reports.wallenstein.enginetext import favour_effect

    return "; ".join(favour_effect(part) for part in str(text).split("; "))


def _cards(cards: Any) -> str:
    return ", ".join(f"{c.get('number')} {card_name(c.get('name'))}" for c in cards or []) or _("none")


def court_section(view: Mapping[str, Any]) -> Section | None:
    """Courtiers per seat, the favour cards on display, cards taken, and the deck's status."""
    court = view.get("court")
    if not isinstance(court, Mapping):
        return None
    courtiers, taken = court.get("courtiers") or {}, court.get("taken") or {}
    rows = tuple((s, str(c.get("supply", 0)), str(c.get("antechamber", 0)), str(c.get("hall", 0)), _cards(taken.get(s)))
                 for s, c in courtiers.items())
    blocks: list[Any] = [Table((_("Seat"), _("Courtiers in supply"), _("Antechamber"), _("Audience hall"),
                                _("Favour cards taken")), rows, "lrrrl", caption=_("Courtiers and favour cards"))]
    label = (view.get("turn") or {}).get("label")
    shown = tuple(_("card {number} {name} -- costs {cost} courtiers: {text}").format(
        number=d.get("number"), name=card_name(d.get("name")), cost=d.get("cost"), text=card_text(d.get("text")))
        for d in court.get("display") or [])
    if shown and label:
        blocks += [Sub(_("Favour cards at court for {label} (highest number on the 4-courtier place)").format(
            label=turn_label(label))), Items(shown)]
    protect = court.get("protect") or {}
    if protect:
        blocks.append(Para(_("Under the Emperor's protection this season: {who}.").format(who="; ".join(
            _("{seat} against {actions}").format(seat=s, actions=", ".join(a.upper() for a in acts))
            for s, acts in protect.items()))))
    deck = court.get("deck") or {}
    status = _("PROVISIONAL stand-in cards (the printed texts are unknown)") if deck.get("provisional") else _("as loaded")
    blocks.append(Para(_("{n} favour cards are left face down; removed unused: {removed}. The deck: {status}; each "
                         "seat has {tower} cube-tower cards.").format(
        n=court.get("deck_size", 0), removed=", ".join(map(str, court.get("removed") or [])) or _("none"),
        status=status, tower=court.get("tower_cards", 3))))
    if "deck_order" in court:
        blocks += [Sub(_("Favour deck, top first (GM only)")), Para(", ".join(map(str, court["deck_order"])) or _("empty"))]
    return Section("court", _("The Imperial Court"), tuple(blocks))


def turn_label(label: Any) -> str:
    """A season label (``1618-summer``) in the reader's words."""
    from reports.wallenstein.enginetext import SEASONS

    year, _sep, season = str(label).partition("-")
    if season in SEASONS:
        return _("{year}-{season}").format(year=year, season=_(SEASONS[season]))
    return str(label)


def _setup(ev: Event) -> str:
    placed = ", ".join(f"{s} {n}" for s, n in (ev.get("courtiers") or {}).items()) or _("none")
    return _("Courtiers to the antechamber for the armies that fell out at the tower fill: {placed}.").format(placed=placed)


def _display(ev: Event) -> str:
    cards = ", ".join(_("{number} (costs {place})").format(number=d.get("number"), place=d.get("place"))
                      for d in ev.get("display") or []) or _("none")
    return _("Favour cards laid out at court: {cards}; {n} left in the deck.").format(cards=cards, n=ev.get("deck_left"))


def _courtiers(ev: Event) -> str:
    values = {"slot": ev.get("slot"), "seat": ev.get("seat"), "armies": _armies_n(ev.get("armies")),
              "county": ev.get("county"), "courtiers": _courtiers_n(ev.get("courtiers")), "n": ev.get("antechamber")}
    if ev.get("card") == "county":
        return _("Court space {slot}: {seat} takes {armies} from {county} back to supply and sends {courtiers} to the "
                 "antechamber ({n} there now).").format(**values)
    return _("Court space {slot}: {seat} takes {armies} from the tray (cube-tower card) back to supply and sends "
             "{courtiers} to the antechamber ({n} there now).").format(**values)


def _court_skipped(ev: Event) -> str:
    from reports.wallenstein.enginetext import engine_text

    card = ev.get("county") if ev.get("card") == "county" else _("cube-tower card")
    return _("Court space {slot} of {seat} ({card}) is not carried out: {reason}.").format(
        slot=ev.get("slot"), seat=ev.get("seat"), card=card, reason=engine_text(ev.get("reason")))


def _audience(ev: Event) -> str:
    values = {"seat": ev.get("seat"), "courtiers": _courtiers_n(ev.get("courtiers")), "card": ev.get("card"),
              "cost": ev.get("cost")}
    if ev.get("card") is None:
        return _("{seat} comes before the Emperor with {courtiers} and takes no favour card.").format(**values)
    return _("{seat} comes before the Emperor with {courtiers} and takes favour card {card}, paying {cost} "
             "courtiers.").format(**values)


def _effect(e: Mapping[str, Any]) -> str:
    do = e.get("do")
    if do == "taler":
        return _("+{n} Taler").format(n=e.get("amount"))
    if do == "grain":
        return _("+{n} grain").format(n=e.get("amount"))
    if do == "vp":
        return _("+{n} VP").format(n=e.get("amount"))
    if do == "armies":
        return (_("{armies} onto {county}").format(armies=_armies_n(e.get("armies")), county=e.get("county"))
                if e.get("county") else _("no armies (no county)"))
    if do == "unrest":
        return _("{n} revolt marker(s) removed in {county}").format(n=e.get("markers_removed"),
                                                                     county=e.get("county") or _("no county"))
    if do == "build":
        from reports.wallenstein.enginetext import building_id

        return (_("a free {building} in {county}").format(building=building_id(str(e.get("building"))),
                                                          county=e.get("county"))
                if e.get("county") else _("nothing built (no room)"))
    if do == "protect":
        return _("protection against {actions}").format(actions=", ".join(a.upper() for a in e.get("actions") or []))
    return str(do)


def _favour(ev: Event) -> str:
    done = "; ".join(_effect(e) for e in ev.get("effects") or [])
    return _("Favour card {card} ({name}) for {seat}: {done}.").format(
        card=ev.get("card"), name=card_name(ev.get("name")), seat=ev.get("seat"), done=done)


def _court_end(ev: Event) -> str:
    removed = ", ".join(map(str, ev.get("removed") or [])) or _("none")
    return _("The audience ends; courtiers back to the antechamber; favour cards removed unused: {removed}.").format(
        removed=removed)


FORMATTERS: dict[str, Callable[[Event], str]] = {
    "CourtSetup": _setup, "FavourCards": _display, "Courtiers": _courtiers, "CourtSkipped": _court_skipped,
    "Audience": _audience, "Favour": _favour, "CourtEnd": _court_end,
}
