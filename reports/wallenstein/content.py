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
from reports.i18n import N_, _, ngettext
from reports.model import ReportInput
from reports.timefmt import deadline_text
from reports.wallenstein import events as ev
from reports.wallenstein.court import court_section, turn_label
from reports.wallenstein.enginetext import building_id
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
                            _season(view, inp.turn, inp.recent), _winter(view), _position(view), court_section(view), _next(inp),
                            _hands(inp)) if s is not None]
    from reports.gamenames import turn_name

    year_season = turn_name("wallenstein", inp.turn)  # "spring 1618", "the start"
    doc = Doc(title=_("Wallenstein -- game {game} -- {season}").format(game=inp.game_id, season=year_season),
              subtitle=_("Season report for {viewer}").format(viewer=viewer_label(inp.viewer)),
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
    text = _("You ({seat}) have {taler} Taler, {grain} grain and {vp} victory points ({place}), {counties} and "
             "{armies} on the map, {supply} in supply.").format(
        seat=inp.viewer, taler=me.get("taler"), grain=me.get("grain"), vp=me.get("vp"), place=_place(seats, inp.viewer),
        counties=ev.n_of(len(owned), "county"), armies=ev.n_of(armies, "army"), supply=me.get("supply"))
    return Section("summary", _("In short"), (Para(text), *famine_warning(inp.view, inp.viewer)))


def _place(seats: Mapping[str, Any], seat: str) -> str:
    """``place 2 of 4 by VP, then Taler`` (the end's ranking), ``shared`` when another seat has
    as many of both (everyone on 0 VP and 10 Taler shares place 1: no seat order)."""
    def key(s: str) -> tuple[int, int]:
        return int(seats[s].get("vp") or 0), int(seats[s].get("taler") or 0)

    rank = 1 + sum(key(s) > key(seat) for s in seats)
    shared = sum(key(s) == key(seat) for s in seats) - 1
    if not shared:
        return _("place {rank} of {seats} by VP, then Taler").format(rank=rank, seats=len(seats))
    return ngettext("shared place {rank} of {seats} by VP, then Taler, with {n} other seat",
                    "shared place {rank} of {seats} by VP, then Taler, with {n} other seats",
                    shared).format(rank=rank, seats=len(seats), n=shared)


def _banner(view: Mapping[str, Any]) -> str:
    if view.get("over"):
        winner = view.get("winner") or _("none (VP and Taler tied)")
        ranking = (" " + _("Ranking (VP, then Taler): {ranking}.").format(ranking=ev.plain(view["ranking"]))
                   if view.get("ranking") else "")
        return _("The game is over. Winner: {winner}.").format(winner=winner) + ranking
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
        return Section("chosen", _("Chosen for the seats (each seat sees its own)"), (Items(items),))
    return Section("chosen", _("Chosen for you"), (
        Para(_("Your orders did not say what you would decide here, so the game decided as the rulebook "
               "says (or as changes least); next time your orders can say it (docs/orders-wallenstein.md).")),
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
    return [Sub(title), Items(tuple(lines) if lines else (_("nothing happens"),))]


def _season(view: Mapping[str, Any], turn: str, recent: Sequence[Mapping[str, Any]] = ()) -> Section:
    drafted = turn.split("/", 1)[0] == "setup"
    log = view.get("log", [])
    if drafted and "/" in turn and recent:  # rules 1.2: one pick a turn; the report after the draft tells them all
        log = [e for t in recent for e in t.get("events") or []]
    season, _winter_log = split_log(log)
    title, first = (_("The draft"), _("Picks")) if drafted else (_("The season"), _("Bids, event and turn order"))
    if not season:
        return Section("season", title, (Para(_("Nothing happened this season.")),))
    return Section("season", title, tuple(_grouped(season, first)))


def _winter(view: Mapping[str, Any]) -> Section | None:
    _season_log, log = split_log(view.get("log", []))
    if not log:
        return None
    blocks: list[Any] = [Items(tuple(ev.describe(e) for e in log), numbered=True)]
    for e in log:
        if e.get("type") == "Scoring" and isinstance(e.get("detail"), Mapping):
            blocks += _scoring_tables(e)
    return Section("winter", _("Winter"), tuple(blocks))


def _scoring_tables(e: Mapping[str, Any]) -> list[Table]:
    """The winter scoring: points per seat, then every region majority."""
    detail, vp = e["detail"], e.get("vp") or {}
    rows = tuple((seat, str(d.get("counties", 0)), str(d.get("buildings", 0)),
                  str(sum(m.get("points", 0) for m in d.get("majorities") or [])),
                  str(d.get("total", "")), str(vp.get(seat, ""))) for seat, d in detail.items())
    points = Table((_("Seat"), _("Counties"), _("Buildings"), _("Majorities"), _("This winter"), _("VP now")), rows,
                   "lrrrrr", caption=_("Scoring"))
    majors = sorted(((m.get("region", ""), m.get("building", ""), seat, m.get("points", 0), m.get("tied"))
                     for seat, d in detail.items() for m in d.get("majorities") or []),
                    key=lambda r: (r[0], ["palace", "church", "trade"].index(r[1]) if r[1] in
                                   ("palace", "church", "trade") else 9, r[2]))
    mrows = tuple((r, building_id(b), s, str(p), _("tied") if t else "") for r, b, s, p, t in majors)
    return [points, Table((_("Region"), _("Building"), _("Seat"), _("Points"), ""), mrows, "lllrl",
                          caption=_("Region majorities (most palaces 3, churches 2, trading posts 1; ties 1 less)"))]


def _position(view: Mapping[str, Any]) -> Section:
    return Section("position", _("The position"), (_seat_table(view), *_county_tables(view), _tower_table(view)))


def _seat_table(view: Mapping[str, Any]) -> Table:
    armies = armies_on_map(view)
    owned = {s: 0 for s in seat_names(view)}
    for c in view.get("counties", {}).values():
        if c.get("owner") in owned:
            owned[c["owner"]] += 1
    rows = tuple((s, ev.plain(d.get("taler")), ev.plain(d.get("grain")), ev.plain(d.get("vp")),
                  str(owned[s]), str(armies[s]), ev.plain(d.get("supply")))
                 for s, d in view.get("seats", {}).items())
    return Table((_("Seat"), _("Taler"), _("Grain"), _("VP"), _("Counties"), _("Armies"), _("Supply")), rows, "lrrrrrr")


def _county_tables(view: Mapping[str, Any]) -> list[Table]:
    tables = []
    known = view.get("counties", {})
    geo = map_counties()
    for region in REGIONS:
        names = sorted(n for n, g in geo.items() if g.region == region)
        rows = tuple(_county_row(n, known.get(n)) for n in names)
        tables.append(Table((_("County"), _("Owner"), _("Armies"), _("Buildings"), _("Revolt")), rows, "llrll",
                            caption=_("Region {region}").format(region=region)))
    return tables


def _county_row(name: str, c: Mapping[str, Any] | None) -> tuple[str, ...]:
    if c is None or c.get("out_of_play"):
        return (name, _("out of play"), "", "", "")
    buildings = " ".join(building_id(b) for b in c.get("buildings") or []) or "-"
    revolt = str(c.get("revolt_markers") or "") or "-"
    return (name, c.get("owner") or _("neutral"), str(c.get("armies") or 0), buildings, revolt)


def _tower_table(view: Mapping[str, Any]) -> Table:
    tower, tray = view.get("tower") or {}, view.get("tray") or {}
    keys = [*seat_names(view), "peasants"]
    rows = tuple((ev.who(k), ev.plain(tower.get(k, 0)), ev.plain(tray.get(k, 0))) for k in keys)
    return Table((_("Cubes of"), _("In tower"), _("In tray")), rows, "lrr", caption=_("Cube tower and tray"))


def _pictures(inp: ReportInput) -> Section:
    blocks = [Image("map.png", _("Map: counties coloured by owner, with armies, buildings, "
                                 "revolt markers and this season's battles"), 720)]  # its size in px (mapplot.DPI)
    if inp.history:
        blocks.append(Image("chart.png", _("Chart: victory points and armies by seat over the seasons"), 560))
    return Section("map", _("Map and chart"), tuple(blocks))


def _next(inp: ReportInput) -> Section:
    view = inp.view
    if inp.ending:
        return Section("next", _("What comes next"), (Para(_("Nothing: the game is over. {ending}").format(ending=inp.ending)),))
    if view.get("over"):
        return Section("next", _("What comes next"), (Para(_("Nothing: the game is over.")),))
    label = (view.get("turn") or {}).get("label") or ""
    if isinstance(view.get("draft"), Mapping):
        return _next_draft(inp, view["draft"])
    season = turn_label(label)
    blocks: list[Any] = [Sub(_("Action cards of {season}, in the order they will be carried out").format(season=season)),
                         Items(tuple(ev.action_name(a) for a in view.get("actions") or []), numbered=True)]
    blocks += [Sub(_("Face-up event cards (one of them will be this season's event)")),
               Items(ev.event_list(view.get("events")) or (_("none"),))]
    blocks += [Sub(_("Bonus tiles by place")), Para(_bonus_text(view.get("bonus")) + ".")]
    blocks.append(Para(_("Orders for {season} are due {deadline}.").format(season=season,
                                                                            deadline=deadline_text(inp.deadline))))
    if inp.order_help:
        # each line of the grammar's reminder is a message of the catalogue (a line it lacks stays as given)
        blocks += [Sub(_("Order syntax")), Items(tuple(_(line) for line in inp.order_help.splitlines()
                                                       if line.strip()))]
    return Section("next", _("What comes next: {season}").format(season=season), tuple(blocks))


def _next_draft(inp: ReportInput, draft: Mapping[str, Any]) -> Section:
    """The setup draft to come (rule 3.3): the face-up cards, the groups and the draft's orders
    (rules 1.2 on: whose pick it is, and the groups each seat still has to place)."""
    words = draft.get("words") or ["DRAFT", "GROUPS"]
    groups = " ".join(str(g) for g in draft.get("groups") or [])
    with_ = _(" [WITH <group>]") if "WITH" in words else ""
    asked = draft.get("pick") is not None
    lines = [(_("DRAFT <county>{with_}, <county>{with_}, ... [, DECK] (the counties you want, best first: at your "
                "pick you take the first of them face up; DECK: else the top card of the deck; without it you are "
                "asked)") if asked else
              _("DRAFT <county>{with_}, <county>{with_}, ... (the counties you want, best first: on your turn you "
                "take the first of them face up, else the top card of the deck)")).format(with_=with_),
             (_("GROUPS {groups} (your army groups in the order you place them; a county named WITH a group takes "
                "that one)") if with_ else _("GROUPS {groups} (your army groups in the order you place them)")
              ).format(groups=groups)]
    if "REFRESH" in words:
        lines.append(_("REFRESH (when the two face-up cards are still those of your previous pick, put them under "
                       "the deck and turn up two others)"))
    blocks: list[Any] = [Sub(_("Face-up county cards")),
                         Para(_("{cards}; {n} cards in the deck.").format(cards=ev.plain(draft.get("face_up")),
                                                                          n=ev.plain(draft.get("deck_size"))))]
    if asked:
        left = draft.get("left") or {}
        blocks += [Para(_("Pick {pick}: {seat} chooses now.").format(pick=draft.get("pick"), seat=draft.get("on_turn"))),
                   Sub(_("Army groups still to place")),
                   Items(tuple(f"{seat}: {' '.join(str(g) for g in sizes) or _('none')}" for seat, sizes in left.items())),
                   Para(_("Your draft lines are kept and make your picks while one of your wishes is face up; "
                          "otherwise you are mailed when your pick comes. This pick is due {deadline}.").format(
                       deadline=deadline_text(inp.deadline)))]
    else:
        blocks += [Sub(_("Your army groups, as printed")), Para(groups + "."),
                   Para(_("Draft orders are due {deadline}.").format(deadline=deadline_text(inp.deadline)))]
    blocks += [Sub(_("Order syntax of the draft")), Items(tuple(lines))]
    return Section("next", _("What comes next: the setup draft"), tuple(blocks))


def decision_blocks(inp: Any, pending: Mapping[str, Any]) -> list[Any]:
    """Who decides what now (a "your move" mail): a pick of the setup draft (rules 1.2 on; the
    seasons are planned by every seat at once and need no such words)."""
    draft = inp.view.get("draft") if isinstance(inp.view.get("draft"), Mapping) else {}
    if pending.get("kind") != "draft" or not draft:
        return []
    seats = list(pending.get("seats") or [])
    info = pending.get("info") or {}
    groups = " ".join(str(g) for g in (draft.get("left") or {}).get(inp.viewer) or [])
    if inp.viewer in seats:
        return [Para(_("Your decision ({turn}): pick {pick} of the setup draft. Take one of the face-up cards, "
                       "{cards} (DRAFT <county> [WITH <group>]), or the top card of the deck (DRAFT DECK); your "
                       "groups still to place: {groups}.").format(turn=pending.get("turn"), pick=info.get("pick"),
                                                                  cards=ev.plain(info.get("face_up")), groups=groups))]
    return [Para(_("Pick {pick}: {seat} chooses now.").format(pick=info.get("pick"), seat=", ".join(seats)))]


def _bonus_text(bonus: Any) -> str:
    if isinstance(bonus, Mapping):
        return ", ".join(f"{k}: {ev.plain(v)}" for k, v in bonus.items()) or _("none")
    if isinstance(bonus, (list, tuple)):
        return ", ".join(f"{i} {ev.bonus_name(tile)}" for i, tile in enumerate(bonus, 1)) or _("none")
    return ev.plain(bonus)


def _hands(inp: ReportInput) -> Section | None:
    seats = inp.view.get("seats", {})
    if inp.viewer == GM:
        rows = tuple((s, ", ".join(d.get("hand") or []) or _("none")) for s, d in seats.items())
        blocks: list[Any] = [Table((_("Seat"), _("Cards")), rows)]
        deck = inp.view.get("event_deck")
        if deck is not None:
            blocks += [Sub(_("Event deck, top first")), Items(ev.event_list(deck, ordered=True) or (_("empty"),))]
        draft = inp.view.get("draft") or {}
        if draft.get("deck") is not None:
            blocks += [Sub(_("Draft deck, top first")), Para(", ".join(draft["deck"]) or _("empty"))]
        return Section("hands", _("Hidden cards (GM only): hands and decks"), tuple(blocks))
    if inp.viewer in seats:
        hand = seats[inp.viewer].get("hand") or []
        body = Items(tuple(hand)) if hand else Para(_("You hold no county cards."))
        return Section("hand", _("Your county cards (only you see these)"), (body,))
    return None


def _provisional(p: Any) -> str:
    if isinstance(p, Mapping):
        return f"{p.get('figure')} ({p.get('file')}): {provisional_reason(p.get('reason'))}"
    return ev.plain(p)


def provisional_reason(reason: Any) -> str:
    """Why a figure is provisional (the data files' words; the catalogue has them)."""
    return _(str(reason)) if reason else str(reason)


#: What each provisional figure is, in a player's words (the GM's report gives the reasons).
PLAIN = {"colors": N_("the seat colours"), "grain_track_max": N_("no upper limit on the grain track"),
         "model": N_("how the cube tower lets cubes through"),
         "step1_order": N_("the order of the Imperial Court's first step"),
         "favour deck": N_("the favour cards (a stand-in deck)")}


def plain_provisional(items: Sequence[Any]) -> list[str]:
    """The provisional figures by what they are, for players."""
    def one(p: Any) -> str:
        if not isinstance(p, Mapping):
            return ev.plain(p)
        figure = str(p.get("figure"))
        return _(PLAIN[figure]) if figure in PLAIN else figure

    return [one(p) for p in items]


def first_report(turn: str) -> bool:
    """The opening report (welcome mail) and the reports of the first season, the first a seat gets."""
    return turn in ("start", "setup") or turn.startswith("setup/") or turn.endswith("-spring") and turn.startswith("1618")


def _footer(inp: ReportInput) -> tuple[str, ...]:
    from reports.gamenames import turn_name

    short = None if first_report(inp.turn) else _("they are listed in the first season's report and in the rules "
                                                  "reference (mail HELP RULES).")
    return footer(inp, _("Game {game}, {turn}, report for {viewer}.").format(
        game=inp.game_id, turn=turn_name("wallenstein", inp.turn), viewer=viewer_label(inp.viewer)),
        _("PROVISIONAL figures in use (the rulebook leaves them open; they may change):"), _provisional,
        short=short, plain=plain_provisional)
