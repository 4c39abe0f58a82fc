"""What a Wallenstein season report says, built from one viewer's view only.

:func:`build_doc` turns a :class:`reports.model.ReportInput` into a
:class:`reports.doc.Doc`; the templates lay that out as text and HTML. Nothing here
looks at engine state: hidden information a view does not hold cannot be shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reports.doc import Doc, Image, Items, Para, Section, Sub, Table
from reports.common import footer, viewer_label
from reports.model import ReportInput
from reports.timefmt import deadline_text
from reports.wallenstein import events as ev
from reports.wallenstein.court import court_section
from reports.wallenstein.geometry import counties as map_counties
from reports.wallenstein.planning import famine_warning, neighbours_section

GM = "@gm"
PUBLIC = "@public"
REGIONS = ("Brandenburg", "Sachsen", "Kurpfalz", "Bayern", "Österreich")
WINTER_TYPES = {"Winter", "Famine", "Scoring", "YearEnd", "EventCards", "GameOver"}
BUILDING_MARK = {"palace": "P", "church": "C", "trade": "T"}


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
    sections = [s for s in (_summary(inp), _chosen(inp), neighbours_section(inp.view, inp.viewer), _pictures(inp),
                            _season(view, inp.turn), _winter(view), _position(view), court_section(view), _next(inp),
                            _hands(inp)) if s is not None]
    from reports.gamenames import turn_name

    year_season = turn_name("wallenstein", inp.turn)  # "spring 1618", "the start"
    doc = Doc(title=f"Wallenstein -- game {inp.game_id} -- {year_season}",
              subtitle=f"Season report for {viewer_label(inp.viewer)}",
              sections=tuple(sections), footer=_footer(inp))
    return doc, inp.ending or _banner(view)


def _summary(inp: ReportInput) -> Section | None:
    """A seat's own figures in one paragraph, first thing in its report."""
    seats = inp.view.get("seats", {})
    me = seats.get(inp.viewer)
    if me is None:
        return None
    owned = [n for n, c in inp.view.get("counties", {}).items() if c.get("owner") == inp.viewer]
    armies = armies_on_map(inp.view).get(inp.viewer, 0)
    text = (f"You ({inp.viewer}) have {me.get('taler')} Taler, {me.get('grain')} grain and {me.get('vp')} "
            f"victory points ({_place(seats, inp.viewer)}), {ev.n_of(len(owned), 'county')} and "
            f"{ev.n_of(armies, 'army')} on the map, {me.get('supply')} in supply.")
    return Section("summary", "In short", (Para(text), *famine_warning(inp.view, inp.viewer)))


def _place(seats: Mapping[str, Any], seat: str) -> str:
    """``place 2 of 4 by VP, then Taler`` (the end's ranking), ``shared`` when another seat has
    as many of both (everyone on 0 VP and 10 Taler shares place 1: no seat order)."""
    def key(s: str) -> tuple[int, int]:
        return int(seats[s].get("vp") or 0), int(seats[s].get("taler") or 0)

    rank = 1 + sum(key(s) > key(seat) for s in seats)
    shared = sum(key(s) == key(seat) for s in seats) - 1
    return (f"{'shared ' if shared else ''}place {rank} of {len(seats)} by VP, then Taler"
            + (f", with {shared} other seat{'s' if shared > 1 else ''}" if shared else ""))


def _banner(view: Mapping[str, Any]) -> str:
    if view.get("over"):
        winner = view.get("winner") or "none (VP and Taler tied)"
        ranking = f" Ranking (VP, then Taler): {ev.plain(view['ranking'])}." if view.get("ranking") else ""
        return f"The game is over. Winner: {winner}.{ranking}"
    return ""


#: Events that lay out the next season; the "what comes next" section shows their result.
NEXT_TYPES = {"SeasonStart", "ActionCards", "BonusTiles", "FavourCards"}
#: A note of what the engine chose for a seat (rules 1.2 on): in its own section, not the season's.
CHOSEN = "ChosenForSeat"


def _chosen(inp: ReportInput) -> Section | None:
    """What the game decided for the viewer because its orders did not say it, and why (the GM:
    for every seat). The view holds only the viewer's own notes (adjudicator.wallenstein.notes)."""
    notes = [e for e in inp.view.get("log", []) if e.get("type") == CHOSEN]
    if not notes:
        return None
    if inp.viewer == GM:
        items = tuple(f"{e.get('seat')}: {ev.describe(e)}" for e in notes)
        return Section("chosen", "Chosen for the seats (each seat sees its own)", (Items(items),))
    return Section("chosen", "Chosen for you", (
        Para("Your orders did not say what you would decide here, so the game decided as the rulebook "
             "says (or as changes least); next time your orders can say it (docs/orders-wallenstein.md)."),
        Items(tuple(ev.describe(e) for e in notes))))


def split_log(log: list[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The log as (events of the season's actions, events of the winter); notes of what was
    chosen for a seat have their own section."""
    season, winter = [], []
    for e in log:
        if e.get("type") in NEXT_TYPES or e.get("type") == CHOSEN:
            continue
        (winter if e.get("season") == "winter" or e.get("type") in WINTER_TYPES else season).append(e)
    return season, winter


def _grouped(events: list[Mapping[str, Any]], heading: str) -> list[Any]:
    """Events as lists under sub-headings: one for ``heading``, one per revealed action card."""
    blocks: list[Any] = []
    title, lines = heading, []
    for e in events:
        if e.get("type") == "ActionRevealed":
            blocks += _flush(title, lines)
            title, lines = ev.describe(e), []
        else:
            lines.append(ev.describe(e))
    return blocks + _flush(title, lines)


def _flush(title: str, lines: list[str]) -> list[Any]:
    return [Sub(title), Items(tuple(lines) if lines else ("nothing happens",))]


def _season(view: Mapping[str, Any], turn: str) -> Section:
    season, _ = split_log(view.get("log", []))
    title, first = ("The draft", "Picks") if turn == "setup" else ("The season", "Bids, event and turn order")
    if not season:
        return Section("season", title, (Para("Nothing happened this season."),))
    return Section("season", title, tuple(_grouped(season, first)))


def _winter(view: Mapping[str, Any]) -> Section | None:
    _, log = split_log(view.get("log", []))
    if not log:
        return None
    blocks: list[Any] = [Items(tuple(ev.describe(e) for e in log), numbered=True)]
    for e in log:
        if e.get("type") == "Scoring" and isinstance(e.get("detail"), Mapping):
            blocks += _scoring_tables(e)
    return Section("winter", "Winter", tuple(blocks))


def _scoring_tables(e: Mapping[str, Any]) -> list[Table]:
    """The winter scoring: points per seat, then every region majority."""
    detail, vp = e["detail"], e.get("vp") or {}
    rows = tuple((seat, str(d.get("counties", 0)), str(d.get("buildings", 0)),
                  str(sum(m.get("points", 0) for m in d.get("majorities") or [])),
                  str(d.get("total", "")), str(vp.get(seat, ""))) for seat, d in detail.items())
    points = Table(("Seat", "Counties", "Buildings", "Majorities", "This winter", "VP now"), rows,
                   "lrrrrr", caption="Scoring")
    majors = sorted(((m.get("region", ""), m.get("building", ""), seat, m.get("points", 0), m.get("tied"))
                     for seat, d in detail.items() for m in d.get("majorities") or []),
                    key=lambda r: (r[0], ["palace", "church", "trade"].index(r[1]) if r[1] in
                                   ("palace", "church", "trade") else 9, r[2]))
    mrows = tuple((r, b, s, str(p), "tied" if t else "") for r, b, s, p, t in majors)
    return [points, Table(("Region", "Building", "Seat", "Points", ""), mrows, "lllrl",
                          caption="Region majorities (most palaces 3, churches 2, trading posts 1; ties 1 less)")]


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
                    "revolt markers and this season's battles", 720)]  # its size in px (mapplot.DPI)
    if inp.history:
        blocks.append(Image("chart.png", "Chart: victory points and armies by seat over the seasons", 560))
    return Section("map", "Map and chart", tuple(blocks))


def _next(inp: ReportInput) -> Section:
    view = inp.view
    if inp.ending:
        return Section("next", "What comes next", (Para(f"Nothing: the game is over. {inp.ending}"),))
    if view.get("over"):
        return Section("next", "What comes next", (Para("Nothing: the game is over."),))
    label = (view.get("turn") or {}).get("label") or ""
    if isinstance(view.get("draft"), Mapping):
        return _next_draft(inp, view["draft"])
    blocks: list[Any] = [Sub(f"Action cards of {label}, in the order they will be carried out"),
                         Items(tuple(ev.action_name(a) for a in view.get("actions") or []), numbered=True)]
    blocks += [Sub("Face-up event cards (one of them will be this season's event)"),
               Items(ev.event_list(view.get("events")) or ("none",))]
    blocks += [Sub("Bonus tiles by place"), Para(_bonus_text(view.get("bonus")) + ".")]
    blocks.append(Para(f"Orders for {label} are due {deadline_text(inp.deadline)}."))
    if inp.order_help:
        blocks += [Sub("Order syntax"), Items(tuple(line for line in inp.order_help.splitlines() if line.strip()))]
    return Section("next", f"What comes next: {label}", tuple(blocks))


def _next_draft(inp: ReportInput, draft: Mapping[str, Any]) -> Section:
    """The setup draft to come (rule 3.3): the face-up cards, the groups and the draft's orders."""
    words = draft.get("words") or ["DRAFT", "GROUPS"]
    groups = " ".join(str(g) for g in draft.get("groups") or [])
    with_ = " [WITH <group>]" if "WITH" in words else ""
    lines = [f"DRAFT <county>{with_}, <county>{with_}, ... (the counties you want, best first: on your turn you "
             "take the first of them face up, else the top card of the deck)",
             f"GROUPS {groups} (your army groups in the order you place them"
             + ("; a county named WITH a group takes that one)" if with_ else ")")]
    if "REFRESH" in words:
        lines.append("REFRESH (when the two face-up cards are still those of your previous pick, put them under "
                     "the deck and turn up two others)")
    blocks: list[Any] = [Sub("Face-up county cards"),
                         Para(f"{ev.plain(draft.get('face_up'))}; {ev.plain(draft.get('deck_size'))} cards in the deck."),
                         Sub("Your army groups, as printed"), Para(groups + "."),
                         Para(f"Draft orders are due {deadline_text(inp.deadline)}."),
                         Sub("Order syntax of the draft"), Items(tuple(lines))]
    return Section("next", "What comes next: the setup draft", tuple(blocks))


def _bonus_text(bonus: Any) -> str:
    if isinstance(bonus, Mapping):
        return ", ".join(f"{k}: {ev.plain(v)}" for k, v in bonus.items()) or "none"
    if isinstance(bonus, (list, tuple)):
        return ", ".join(f"{i} {tile}" for i, tile in enumerate(bonus, 1)) or "none"
    return ev.plain(bonus)


def _hands(inp: ReportInput) -> Section | None:
    seats = inp.view.get("seats", {})
    if inp.viewer == GM:
        rows = tuple((s, ", ".join(d.get("hand") or []) or "none") for s, d in seats.items())
        blocks: list[Any] = [Table(("Seat", "Cards"), rows)]
        deck = inp.view.get("event_deck")
        if deck is not None:
            blocks += [Sub("Event deck, top first"), Items(ev.event_list(deck, ordered=True) or ("empty",))]
        draft = inp.view.get("draft") or {}
        if draft.get("deck") is not None:
            blocks += [Sub("Draft deck, top first"), Para(", ".join(draft["deck"]) or "empty")]
        return Section("hands", "Hidden cards (GM only): hands and decks", tuple(blocks))
    if inp.viewer in seats:
        hand = seats[inp.viewer].get("hand") or []
        body = Items(tuple(hand)) if hand else Para("You hold no county cards.")
        return Section("hand", "Your county cards (only you see these)", (body,))
    return None


def _provisional(p: Any) -> str:
    if isinstance(p, Mapping):
        return f"{p.get('figure')} ({p.get('file')}): {p.get('reason')}"
    return ev.plain(p)


#: What each provisional figure is, in a player's words (the GM's report gives the reasons).
PLAIN = {"colors": "the seat colours", "grain_track_max": "no upper limit on the grain track",
         "model": "how the cube tower lets cubes through",
         "step1_order": "the order of the Imperial Court's first step",
         "favour deck": "the favour cards (a stand-in deck)"}


def plain_provisional(items: Sequence[Any]) -> list[str]:
    """The provisional figures by what they are, for players."""
    return [PLAIN.get(str(p.get("figure")), str(p.get("figure"))) if isinstance(p, Mapping) else ev.plain(p)
            for p in items]


def first_report(turn: str) -> bool:
    """The opening report (welcome mail) and the reports of the first season, the first a seat gets."""
    return turn in ("start", "setup") or turn.endswith("-spring") and turn.startswith("1618")


def _footer(inp: ReportInput) -> tuple[str, ...]:
    short = None if first_report(inp.turn) else ("they are listed in the first season's report and in the rules "
                                                 "reference (mail HELP RULES).")
    from reports.gamenames import turn_name

    return footer(inp, f"Game {inp.game_id}, {turn_name('wallenstein', inp.turn)}, report for "
                  f"{viewer_label(inp.viewer)}.",
                  "PROVISIONAL figures in use (the rulebook leaves them open; they may change):", _provisional,
                  short=short, plain=plain_provisional)
