"""The Imperial Court in a Wallenstein report (expansion=court): a section and the event lines.

Built from the view's ``court`` part only (docs/wallenstein-court.md, "The view"); a
view without it (the base game) gives no section. Imports nothing from :mod:`events`, so
that module can merge :data:`FORMATTERS` into its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reports.doc import Items, Para, Section, Sub, Table

Event = Mapping[str, Any]


def _n(n: Any, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _cards(cards: Any) -> str:
    return ", ".join(f"{c.get('number')} {c.get('name')}" for c in cards or []) or "none"


def court_section(view: Mapping[str, Any]) -> Section | None:
    """Courtiers per seat, the favour cards on display, cards taken, and the deck's status."""
    court = view.get("court")
    if not isinstance(court, Mapping):
        return None
    courtiers, taken = court.get("courtiers") or {}, court.get("taken") or {}
    rows = tuple((s, str(c.get("supply", 0)), str(c.get("antechamber", 0)), str(c.get("hall", 0)), _cards(taken.get(s)))
                 for s, c in courtiers.items())
    blocks: list[Any] = [Table(("Seat", "Courtiers in supply", "Antechamber", "Audience hall", "Favour cards taken"),
                               rows, "lrrrl", caption="Courtiers and favour cards")]
    label = (view.get("turn") or {}).get("label")
    shown = tuple(f"card {d.get('number')} {d.get('name')} -- costs {d.get('cost')} courtiers: {d.get('text')}"
                  for d in court.get("display") or [])
    if shown and label:
        blocks += [Sub(f"Favour cards at court for {label} (highest number on the 4-courtier place)"), Items(shown)]
    protect = court.get("protect") or {}
    if protect:
        blocks.append(Para("Under the Emperor's protection this season: " +
                           "; ".join(f"{s} against {', '.join(a.upper() for a in acts)}" for s, acts in protect.items()) + "."))
    deck = court.get("deck") or {}
    status = "PROVISIONAL stand-in cards (the printed texts are unknown)" if deck.get("provisional") else "as loaded"
    blocks.append(Para(f"{court.get('deck_size', 0)} favour cards are left face down; removed unused: "
                       f"{', '.join(map(str, court.get('removed') or [])) or 'none'}. The deck: {status}; "
                       f"each seat has {court.get('tower_cards', 3)} cube-tower cards."))
    if "deck_order" in court:
        blocks += [Sub("Favour deck, top first (GM only)"), Para(", ".join(map(str, court["deck_order"])) or "empty")]
    return Section("court", "The Imperial Court", tuple(blocks))


def _setup(ev: Event) -> str:
    placed = ", ".join(f"{s} {n}" for s, n in (ev.get("courtiers") or {}).items()) or "none"
    return f"Courtiers to the antechamber for the armies that fell out at the tower fill: {placed}."


def _display(ev: Event) -> str:
    cards = ", ".join(f"{d.get('number')} (costs {d.get('place')})" for d in ev.get("display") or []) or "none"
    return f"Favour cards laid out at court: {cards}; {ev.get('deck_left')} left in the deck."


def _courtiers(ev: Event) -> str:
    source = f"from {ev.get('county')}" if ev.get("card") == "county" else "from the tray (cube-tower card)"
    return (f"Court space {ev.get('slot')}: {ev.get('seat')} takes {_n(ev.get('armies'), 'army', 'armies')} {source} "
            f"back to supply and sends {_n(ev.get('courtiers'), 'courtier', 'courtiers')} to the antechamber "
            f"({ev.get('antechamber')} there now).")


def _court_skipped(ev: Event) -> str:
    card = ev.get("county") if ev.get("card") == "county" else "cube-tower card"
    return f"Court space {ev.get('slot')} of {ev.get('seat')} ({card}) is not carried out: {ev.get('reason')}."


def _audience(ev: Event) -> str:
    who = f"{ev.get('seat')} comes before the Emperor with {_n(ev.get('courtiers'), 'courtier', 'courtiers')}"
    if ev.get("card") is None:
        return f"{who} and takes no favour card."
    return f"{who} and takes favour card {ev.get('card')}, paying {ev.get('cost')} courtiers."


def _effect(e: Mapping[str, Any]) -> str:
    do = e.get("do")
    if do in ("taler", "grain", "vp"):
        return f"+{e.get('amount')} {({'vp': 'VP', 'taler': 'Taler'}).get(do, do)}"
    if do == "armies":
        return f"{_n(e.get('armies'), 'army', 'armies')} onto {e.get('county')}" if e.get("county") else "no armies (no county)"
    if do == "unrest":
        return f"{e.get('markers_removed')} revolt marker(s) removed in {e.get('county') or 'no county'}"
    if do == "build":
        return f"a free {e.get('building')} in {e.get('county')}" if e.get("county") else "nothing built (no room)"
    if do == "protect":
        return "protection against " + ", ".join(a.upper() for a in e.get("actions") or [])
    return str(do)


def _favour(ev: Event) -> str:
    done = "; ".join(_effect(e) for e in ev.get("effects") or [])
    return f"Favour card {ev.get('card')} ({ev.get('name')}) for {ev.get('seat')}: {done}."


def _court_end(ev: Event) -> str:
    removed = ", ".join(map(str, ev.get("removed") or [])) or "none"
    return f"The audience ends; courtiers back to the antechamber; favour cards removed unused: {removed}."


FORMATTERS: dict[str, Callable[[Event], str]] = {
    "CourtSetup": _setup, "FavourCards": _display, "Courtiers": _courtiers, "CourtSkipped": _court_skipped,
    "Audience": _audience, "Favour": _favour, "CourtEnd": _court_end,
}
