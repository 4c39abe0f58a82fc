"""What a Wallenstein season report says, built from one viewer's view only.

:func:`build_doc` turns a :class:`reports.model.ReportInput` into a
:class:`reports.doc.Doc`; the templates lay that out as text and HTML. Nothing here
looks at engine state: hidden information a view does not hold cannot be shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.doc import Doc, Image, Items, Para, Section, Table
from reports.model import ReportInput
from reports.timefmt import deadline_text
from reports.wallenstein import events as ev
from reports.wallenstein.geometry import counties as map_counties

GM = "@gm"
PUBLIC = "@public"
REGIONS = ("Brandenburg", "Sachsen", "Kurpfalz", "Bayern", "Österreich")
WINTER_TYPES = {"Winter", "GrainLoss", "Famine", "Revolt", "Scoring", "GameOver"}
BUILDING_MARK = {"palace": "P", "church": "C", "trade": "T"}


def viewer_label(viewer: str) -> str:
    """``red`` -> ``seat red``; ``@public`` -> ``the public``; ``@gm`` -> ``the game master``."""
    return {PUBLIC: "the public", GM: "the game master"}.get(viewer, f"seat {viewer}")


def seat_names(view: Mapping[str, Any]) -> list[str]:
    """Seats in the order the view lists them."""
    return list(view.get("seats", {}))


def armies_on_map(view: Mapping[str, Any]) -> dict[str, int]:
    """Armies per seat summed over the counties it owns."""
    total = {s: 0 for s in seat_names(view)}
    for c in view.get("counties", {}).values():
        if c.get("owner") in total:
            total[c["owner"]] += int(c.get("armies") or 0)
    return total


def build_doc(inp: ReportInput) -> tuple[Doc, str]:
    """The report's document and its banner line (empty when there is nothing to flag)."""
    view = inp.view
    sections = [s for s in (_season(view), _winter(view), _pictures(inp), _position(view),
                            _next(inp), _hands(inp)) if s is not None]
    year_season = inp.turn.replace("-", " ")
    doc = Doc(title=f"Wallenstein -- game {inp.game_id} -- {year_season}",
              subtitle=f"Season report for {viewer_label(inp.viewer)}",
              sections=tuple(sections), footer=_footer(inp))
    return doc, _banner(view)


def _banner(view: Mapping[str, Any]) -> str:
    if view.get("over"):
        return f"The game is over. Winner: {ev.plain(view.get('winner'))}."
    return ""


def _season(view: Mapping[str, Any]) -> Section:
    lines = tuple(ev.describe(e) for e in view.get("log", []) if e.get("type") not in WINTER_TYPES)
    body = Items(lines, numbered=True) if lines else Para("Nothing happened this season.")
    return Section("season", "The season", (body,))


def _winter(view: Mapping[str, Any]) -> Section | None:
    log = [e for e in view.get("log", []) if e.get("type") in WINTER_TYPES]
    if not log:
        return None
    blocks: list[Any] = [Items(tuple(ev.describe(e) for e in log), numbered=True)]
    table = _scoring_table(log)
    if table is not None:
        blocks.append(table)
    return Section("winter", "Winter", tuple(blocks))


def _scoring_table(log: list[Mapping[str, Any]]) -> Table | None:
    """The winter scoring table, from a Scoring event's per-seat ``breakdown``."""
    for e in log:
        rows = e.get("breakdown")
        if e.get("type") == "Scoring" and isinstance(rows, Mapping) and rows:
            keys = sorted({k for r in rows.values() for k in r})
            body = tuple((seat, *(ev.plain(r.get(k, 0)) for k in keys)) for seat, r in rows.items())
            return Table(("Seat", *keys), body, "l" + "r" * len(keys), caption="Scoring this winter")
    return None


def _position(view: Mapping[str, Any]) -> Section:
    return Section("position", "The position", (_seat_table(view), *_county_tables(view), _tower_table(view)))


def _seat_table(view: Mapping[str, Any]) -> Table:
    armies = armies_on_map(view)
    owned = {s: 0 for s in seat_names(view)}
    for c in view.get("counties", {}).values():
        if c.get("owner") in owned:
            owned[c["owner"]] += 1
    rows = tuple((s, ev.plain(d.get("taler")), ev.plain(d.get("grain")), ev.plain(d.get("vp")),
                  str(owned[s]), str(armies[s]), ev.plain(d.get("supply")))
                 for s, d in view.get("seats", {}).items())
    return Table(("Seat", "Taler", "Grain", "VP", "Counties", "Armies", "Supply"), rows, "lrrrrrr")


def _county_tables(view: Mapping[str, Any]) -> list[Table]:
    tables = []
    known = view.get("counties", {})
    geo = map_counties()
    for region in REGIONS:
        names = sorted(n for n, g in geo.items() if g.region == region)
        rows = tuple(_county_row(n, known.get(n)) for n in names)
        tables.append(Table(("County", "Owner", "Armies", "Buildings", "Revolt"), rows, "llrll",
                            caption=f"Region {region}"))
    return tables


def _county_row(name: str, c: Mapping[str, Any] | None) -> tuple[str, ...]:
    if c is None or c.get("out_of_play"):
        return (name, "out of play", "", "", "")
    buildings = " ".join(b for b in c.get("buildings") or []) or "-"
    revolt = str(c.get("revolt_markers") or "") or "-"
    return (name, c.get("owner") or "neutral", str(c.get("armies") or 0), buildings, revolt)


def _tower_table(view: Mapping[str, Any]) -> Table:
    tower, tray = view.get("tower") or {}, view.get("tray") or {}
    keys = [*seat_names(view), "peasants"]
    rows = tuple((k, ev.plain(tower.get(k, 0)), ev.plain(tray.get(k, 0))) for k in keys)
    return Table(("Cubes of", "In tower", "In tray"), rows, "lrr", caption="Cube tower and tray")


def _pictures(inp: ReportInput) -> Section:
    blocks = [Image("map.png", "Map: counties coloured by owner, with armies, buildings, "
                    "revolt markers and this season's battles")]
    if inp.history:
        blocks.append(Image("chart.png", "Chart: victory points and armies by seat over the seasons", 560))
    return Section("map", "Map", tuple(blocks))


def _next(inp: ReportInput) -> Section:
    view = inp.view
    label = view.get("turn", {}).get("label", "")
    blocks: list[Any] = []
    if view.get("over"):
        return Section("next", "What comes next", (Para("Nothing: the game is over."),))
    actions = view.get("actions") or []
    shown = tuple(f"{ev.action_name(a)}" for a in actions)
    if shown:
        blocks.append(Para(f"Action cards of {label} in order (face down ones are revealed later):"))
        blocks.append(Items(shown, numbered=True))
    blocks.append(Para("Face-up events: " + _event_names(view.get("events")) + "."))
    blocks.append(Para("Bonus tiles: " + _bonus_text(view.get("bonus")) + "."))
    blocks.append(Para(f"Orders for {label} are due {deadline_text(inp.deadline)}."))
    if inp.order_help:
        blocks.append(Items(tuple(line for line in inp.order_help.splitlines() if line.strip())))
    return Section("next", f"What comes next: {label}", tuple(blocks))


def _event_names(events: Any) -> str:
    if not events:
        return "none"
    names = [e.get("text") or e.get("id") if isinstance(e, Mapping) else str(e) for e in events]
    return "; ".join(str(n) for n in names)


def _bonus_text(bonus: Any) -> str:
    if isinstance(bonus, Mapping):
        return ", ".join(f"{k}: {ev.plain(v)}" for k, v in bonus.items()) or "none"
    return ev.plain(bonus)


def _hands(inp: ReportInput) -> Section | None:
    seats = inp.view.get("seats", {})
    if inp.viewer == GM:
        rows = tuple((s, ", ".join(d.get("hand") or []) or "none") for s, d in seats.items())
        return Section("hands", "County cards in every hand (GM only)", (Table(("Seat", "Cards"), rows),))
    if inp.viewer in seats:
        hand = seats[inp.viewer].get("hand") or []
        body = Items(tuple(hand)) if hand else Para("You hold no county cards.")
        return Section("hand", "Your county cards (only you see these)", (body,))
    return None


def _footer(inp: ReportInput) -> tuple[str, ...]:
    lines = [f"Game {inp.game_id}, {inp.turn}, report for {viewer_label(inp.viewer)}.",
             f"Seed commitment (SHA-256 of the seed): {inp.seed_commitment}",
             f"State hash after {inp.turn}: {inp.state_hash}"]
    if inp.seed is not None:
        lines.append(f"Seed (the game is over; check it against the commitment): {inp.seed}")
    provisional = inp.view.get("provisional") or []
    if provisional:
        lines.append("Provisional figures in use (the rulebook leaves them open): "
                     + "; ".join(ev.plain(p) for p in provisional) + ".")
    else:
        lines.append("Provisional figures in use: none.")
    return tuple(lines)
