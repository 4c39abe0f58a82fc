"""What a God's Playground report says, built from one viewer's view and the public
derived events since its last report (never engine state).

A seat's view holds its own nobles in hand and its pre-sent plan only; before the reveal
other seats' placed nobles are only "face down". The public view holds no hidden choice;
the GM view holds every hand and plan (docs/gods-playground-reports.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from reports.common import GM, PUBLIC, next_section, staged_footer, viewer_label
from reports.gamenames import turn_name
from reports.doc import Doc, Image, Items, Para, Section, Sub, Table
from reports.enginetext import Sentences, Template
from reports.gods_playground.names import PHASE_NAMES, counts, enemy, phase_name, province, units
from reports.gods_playground.narrative import story
from reports.i18n import N_, _, ngettext
from reports.model import ReportInput
from reports.timefmt import deadline_text

KIND_TEXT = {
    "estate": N_("choose a starting estate: ESTATE <province> [OR <province>]"),
    "nobles": N_("place your six nobles face down, one per province and one on the king's box: "
                 "NOBLES <province> <n>, ..., King <n>"),
    "cubes": N_("you are short of noble cubes: say where they go (CUBES <province> <n>, ... or CUBES FIRST ...)"),
    "bid": N_("a tied election of the king: bid thalers face down (BID <n>); every bid is paid"),
    "buy": N_("buy an estate (BUY <province> OR ... OR PASS)"),
    "action": N_("a special action (ACTION ... or PASS)"),
    "recruit": N_("recruit troops (RECRUIT <province> <n> INF <n> CAV <n> CANNON ... or PASS)"),
    "campaign": N_("campaign against an enemy (CAMPAIGN <enemy> [ROYAL] or PASS)"),
    "counter": N_("counterattack invaders (COUNTER <province | Habsburgs> or PASS)"),
}


def build_doc(inp: ReportInput, images: Mapping[str, bytes]) -> tuple[Doc, str]:
    """The report's document and its banner line."""
    v = inp.view
    parts = (_story(inp), _mine(inp), _families(v), _provinces(v), _enemies(v), _centre(v), _gm(inp),
             _next(inp), _pictures(images))
    title = _("God's Playground -- game {game} -- round {round} of 4").format(game=inp.game_id, round=v.get("round"))
    when = turn_name("gods-playground", inp.turn, v, after=True)
    doc = Doc(title=title, subtitle=_("Report for {viewer}: {turn}").format(viewer=viewer_label(inp.viewer), turn=when),
              sections=tuple(s for s in parts if s is not None), footer=_footer(inp))
    return doc, inp.ending or banner(inp)


def banner(inp: ReportInput) -> str:
    """The line flagged at the top: the end and the winner, or that the viewer must act."""
    v = inp.view
    if v.get("over"):
        vp = (v.get("seats") or {}).get(v.get("winner"), {}).get("vp", 0)
        return _("The game is over. Winner: {winner} with {vp} VP.").format(winner=v.get("winner") or _("nobody"), vp=vp)
    p = v.get("pending") or {}
    if inp.viewer in (p.get("seats") or []):
        if inp.deadline:
            return _("Your decision is awaited ({turn}) by {deadline}: see 'What comes next'.").format(
                turn=p.get("turn"), deadline=deadline_text(inp.deadline))
        return _("Your decision is awaited ({turn}): see 'What comes next'.").format(turn=p.get("turn"))
    return ""


def _story(inp: ReportInput, since: str = "report") -> Section:
    groups = story(inp.recent, inp.view)
    turns = [t.get("turn") for t in inp.recent]
    if not groups:
        return Section("story", _("What happened"), (Para(_("Nothing has happened yet.")),))
    span = _span(str(turns[0]), str(turns[-1]))
    if since == "mail":
        head = _("Since the last mail ({span}):").format(span=span)
        title = (_("What happened since your last mail") if inp.viewer not in (GM, PUBLIC) else
                 _("What happened since the last mail"))
    else:
        head = _("Since the last report ({span}):").format(span=span)
        title = (_("What happened since your last report") if inp.viewer not in (GM, PUBLIC) else
                 _("What happened since the last report"))
    blocks: list[Any] = [Para(head)]
    for head, lines in groups:
        blocks += [Sub(head), Items(tuple(lines))]
    return Section("story", title, tuple(blocks))


def move_sections(inp: ReportInput) -> list[Section]:
    """What a "your move" mail tells besides the decision: what happened since the seat's
    last mail (``inp.recent``) and its own position; the board is in its last round report."""
    return [s for s in (_story(inp, "mail") if inp.recent else None, _mine(inp)) if s is not None]


def _span(first: str, last: str) -> str:
    """The turns a report tells of, by name: ``round 2, from placing nobles to counterattacks``."""
    a, b = turn_name("gods-playground", first), turn_name("gods-playground", last)
    if a == b:
        return a
    (round_a, phase_a), (round_b, phase_b) = _round_phase(first), _round_phase(last)
    if round_a and round_a == round_b and phase_a and phase_b:
        return _("round {round}, from {first} to {last}").format(round=round_a, first=_phase(phase_a),
                                                                   last=_phase(phase_b))
    return _("from {first} to {last}").format(first=a, last=b)


def _round_phase(label: str) -> tuple[str, str]:
    """``r2/nobles/...`` -> ``("2", "nobles")``; ``("", "")`` for a label of no round."""
    parts = label.split("/")
    if parts[0][:1] != "r" or not parts[0][1:].isdigit() or len(parts) < 2:
        return "", ""
    return parts[0][1:], parts[1]


def _phase(key: str) -> str:
    return phase_name(key) if key in PHASE_NAMES else key.replace("_", " ")


def _estates_of(v: Mapping[str, Any], seat: str) -> list[str]:
    out = []
    for key, prov in (v.get("provinces") or {}).items():
        for e in prov.get("estates") or []:
            if e.get("owner") == seat:
                marks = (" " + _("steward") if e.get("steward") else "") + (" " + _("town") if e.get("town") else "")
                out.append(f"{province(key)} {e.get('value')}{marks}")
    return out


def _mine(inp: ReportInput) -> Section | None:
    v, seat = inp.view, inp.viewer
    row = (v.get("seats") or {}).get(seat)
    if row is None:
        return None
    hand = ((v.get("hands") or {}).get(seat)) or []
    placed = (v.get("nobles") or {}).get(seat)
    sejm = ", ".join(province(p) for p, s in (v.get("sejm") or {}).items() if s == seat)
    lines = [_("You have {vp} VP and {money} thalers; {cubes} noble cubes and {discs} discs in your supply.").format(
                 vp=row.get("vp"), money=row.get("money"), cubes=row.get("noble_cubes_supply"),
                 discs=row.get("discs_supply")),
             _("Your estates: {estates}.").format(estates=", ".join(_estates_of(v, seat)) or _("none")),
             _("Your Sejm seats: {seats}.").format(seats=sejm or _("none"))]
    if hand:
        lines.append(_("Your nobles in hand (only you see them): {nobles}.").format(nobles=", ".join(map(str, hand))))
    if isinstance(placed, Mapping) and placed:
        lines.append(_("Your nobles placed: {nobles}.").format(
            nobles=", ".join(f"{province(k)} {n}" for k, n in placed.items())))
    plans = (v.get("plans") or {}).get(seat) or []
    blocks: list[Any] = [Para(x) for x in lines]
    if plans:
        blocks.append(Para(_("Your pre-sent orders still to use (only you and the GM see them): {n} line(s):").format(
            n=len(plans))))
        blocks.append(Items(tuple(_plan_line(o) for o in plans)))
    return Section("mine", _("Your position"), tuple(blocks))


def _plan_line(order: Any) -> str:
    try:
        from turns.games import format_orders

        return format_orders("gods-playground", [dict(order)]).strip() or str(order)
    except Exception:  # noqa: BLE001 -- a report must render even if the grammar changes
        return str(order)


NOBLE_HEADS = {"royal_prussia": N_("R.Prussia"), "lithuania": N_("Lithuania"), "ukraine": N_("Ukraine"),
               "little_poland": N_("L.Poland"), "greater_poland": N_("G.Poland"), "royal": N_("King")}


def _families(v: Mapping[str, Any]) -> Section:
    seats = v.get("seats") or {}
    rows = []
    for seat, r in seats.items():
        rows.append((seat, _("yes") if seat == v.get("start_player") else "", str(r.get("vp")), str(r.get("money")),
                     str(len(_estates_of(v, seat))), str(r.get("noble_cubes_supply")), str(r.get("discs_supply")),
                     str(r.get("nobles_in_hand"))))
    blocks: list[Any] = [Table((_("Family"), _("Start"), _("VP"), _("Thalers"), _("Estates"), _("Cubes"), _("Discs"),
                                _("In hand")), tuple(rows), "llrrrrrr"),
                         Para(_("Cubes and discs: in the family's supply; In hand: nobles not yet placed."))]
    nobles = v.get("nobles") or {}
    shown = {s: n for s, n in nobles.items() if isinstance(n, Mapping) and n}
    if shown:
        rows = [(s, *(str(n.get(k, "-")) for k in NOBLE_HEADS)) for s, n in shown.items()]
        blocks.append(Table((_("Family"), *(_(h) for h in NOBLE_HEADS.values())), tuple(rows), "lrrrrrr",
                            caption=_("Nobles placed")))
    hidden = [s for s, n in nobles.items() if n == "face down"]
    if hidden:
        blocks.append(Para(_("Nobles placed face down (not yet revealed): {seats}.").format(seats=", ".join(hidden))))
    return Section("families", _("The families"), tuple(blocks))


def _estate_row(prov: Mapping[str, Any]) -> str:
    out = []
    for e in prov.get("estates") or []:
        marks = [m for m, on in ((_("steward"), e.get("steward")), (_("town"), e.get("town"))) if on]
        owner = e.get("owner") or _("free")
        out.append(f"{e.get('value')} {owner}" + (f" ({', '.join(marks)})" if marks else ""))
    return ", ".join(out)


def _provinces(v: Mapping[str, Any]) -> Section:
    blocks: list[Any] = []
    sejm = v.get("sejm") or {}
    for key, prov in (v.get("provinces") or {}).items():
        blocks.append(Sub(_("{province}: estate track {track}, Sejm disc {disc}").format(
            province=province(key), track=prov.get("estate_track"), disc=sejm.get(key) or _("none"))))
        lines = [_("Estates, centre to border: {estates}.").format(estates=_estate_row(prov)),
                 _("Noble cubes: {cubes}.").format(cubes=counts(prov.get("noble_cubes") or {}))]
        extra = []
        if prov.get("enemy_cubes"):
            extra.append(counts(prov["enemy_cubes"], {k: enemy(k, v) for k in prov["enemy_cubes"]}))
        if prov.get("influence"):
            extra.append(_("Habsburg influence {n}").format(n=prov["influence"]))
        if prov.get("cossacks"):
            extra.append(_("Cossacks {n}").format(n=prov["cossacks"]))
        lines.append(_("Enemies: {enemies}.").format(enemies="; ".join(extra) or _("none")))
        troops = [f"{s} {units(u)}" for s, u in (prov.get("units") or {}).items() if any(u.values())]
        if troops:
            lines.append(_("Troops: {troops}.").format(troops="; ".join(troops)))
        blocks.append(Items(tuple(lines)))
    blocks.append(Para(_("The estate track is the income of each estate in the province (a steward adds 2).")))
    return Section("provinces", _("The provinces"), tuple(blocks))


def _enemies(v: Mapping[str, Any]) -> Section:
    rows = []
    for key, e in (v.get("enemies") or {}).items():
        strength = _("influence") if e.get("strength") is None else str(e.get("strength"))
        rest = [_("nobles {cubes}").format(cubes=counts(e.get("noble_cubes") or {}))]
        if e.get("royal_cubes"):
            rest.append(_("king {n}").format(n=e["royal_cubes"]))
        if e.get("influence"):
            rest.append(_("influence {n}").format(n=e["influence"]))
        if e.get("turks"):
            rest.append(_("Turks {n}").format(n=e["turks"]))
        if e.get("cossacks"):
            rest.append(_("Cossacks {n}").format(n=e["cossacks"]))
        if e.get("treaty"):
            rest.append(_("TREATY"))
        rows.append((enemy(key, v), province(e.get("province")), strength, str(e.get("cubes")),
                     str(e.get("hit_cubes")), str(e.get("vp")), "; ".join(rest)))
    table = Table((_("Enemy"), _("Attacks"), _("Str"), _("Cubes"), _("Hits"), _("VP"), _("On the box")), tuple(rows),
                  "llrrrrl")
    return Section("enemies", _("The enemies"), (table, Para(_("Str: this round's strength; Hits: hit cubes on the box "
                                                               "(nobles' and the king's); VP: printed on the box."))))


def _centre(v: Mapping[str, Any]) -> Section:
    sejm = ", ".join(f"{province(p)} {s or '-'}" for p, s in (v.get("sejm") or {}).items())
    c = v.get("cossacks") or {}
    lines = [_("Phase: {phase} of round {round}; start player: {start}.").format(
                 phase=phase_name(v.get("phase")), round=v.get("round"), start=v.get("start_player")),
             _("Sejm (one disc per province's space): {sejm}.").format(sejm=sejm),
             _("Royal army: {troops}.").format(troops=units(v.get("royal_army") or {})),
             _("Cossacks: {box} in their box, {ukraine} in Ukraine, {tatars} with the Tatars. Towns founded: "
               "{towns}.").format(box=c.get("box", 0), ukraine=c.get("ukraine", 0), tatars=c.get("tatars", 0),
                                  towns=v.get("towns_founded", 0))]
    return Section("centre", _("The Sejm, the royal army and the tracks"), tuple(Para(x) for x in lines))


def _gm(inp: ReportInput) -> Section | None:
    v = inp.view
    if v.get("viewer") != GM:
        return None
    rows = tuple((s, ", ".join(map(str, (v.get("hands") or {}).get(s) or [])) or "-",
                  str(len((v.get("plans") or {}).get(s) or []))) for s in v.get("seats") or {})
    blocks: list[Any] = [Table((_("Seat"), _("Nobles in hand"), _("Plan lines")), rows, "llr"),
                         Para(_("Placed nobles, face down or not, are in 'The families'."))]
    lines = [f"{s}: {_plan_line(o)}" for s, pl in (v.get("plans") or {}).items() for o in pl]
    blocks.append(Items(tuple(lines)) if lines else Para(_("No pre-sent orders on file.")))
    return Section("gm", _("Hidden choices (GM only)"), tuple(blocks))


def _next(inp: ReportInput) -> Section:
    return next_section(inp, _("What comes next"), lambda p: decision_blocks(inp, p),
                        _("Lines sent ahead for later decisions are kept as a plan for the round; mail HELP ORDERS "
                          "for the whole syntax."), help_lines)


def decision_blocks(inp: ReportInput, p: Mapping[str, Any]) -> list[Any]:
    """Who decides what now, and why the viewer's pre-sent line for it failed (only its own)."""
    seats = list(p.get("seats") or [])
    kind = str(p.get("kind"))
    mine = inp.viewer in seats
    lead = _("Your decision") if mine else _("Awaited from {seats}").format(seats=", ".join(seats))
    what = _(KIND_TEXT[kind]) if kind in KIND_TEXT else kind
    blocks: list[Any] = [Para(f"{lead} ({p.get('turn')}, {phase_name(kind)}): {what}.")]
    info = p.get("info") or {}
    if kind == "bid" and info.get("again"):
        blocks.append(Para(_again(info)))
    if kind == "recruit" and info.get("one_tile"):
        blocks.append(Para(_(ONE_TILE)))
    failed = ((p.get("info") or {}).get("plan_failed") or {}).get(inp.viewer)
    if failed:
        blocks.append(Para(_("Your pre-sent order for this decision cannot be used: {why}").format(why=failed)))
    return blocks


#: Recruitment from rules version 3 (Phase 9: one army tile a turn), said with the decision.
ONE_TILE = N_("One army tile a turn, a Cossack too (Phase 9): a RECRUIT line naming several units places one now "
            "(Cossacks first, then infantry, cavalry, cannon) and keeps the rest as your next RECRUIT line, "
            "placed on your next turns; your noble cube there is paid with the first tile.")


def _again(info: Mapping[str, Any]) -> str:
    """A new bid after a tie, in words (the tied bids were revealed and paid: public)."""
    n = int(info.get("again") or 1)
    at = info.get("tied_at")
    which = _("again") if n == 1 else _("again ({n} ties so far)").format(n=n)
    tied = (ngettext("The bids tied at {n} thaler", "The bids tied at {n} thalers", at) if isinstance(at, int) else
            _("The bids tied at {n} thalers")).format(n=at)
    return _("{tied}, and every bid was paid: the tied players bid {which}, until someone wins (Phase 3). Only when "
             "none of them has a thaler left does the marker stay.").format(tied=tied, which=which)


def help_lines(order_help: str) -> list[str]:
    """The grammar's order reminder as one item per order: continuation lines (``| ...``)
    joined to their order, the description after a dash."""
    out: list[str] = []
    for raw in order_help.splitlines():
        line = raw.strip()
        if not line or line.endswith(":") or line.startswith(("See ", "The whole syntax")):
            continue
        if line.startswith("|") and out:
            out[-1] += " " + line
            continue
        parts = re.split(r"\s{3,}", line, maxsplit=1)
        out.append(f"{parts[0]} -- {_(parts[1])}" if len(parts) == 2 else line)  # the description: a catalogue message
    return out


def _pictures(images: Mapping[str, bytes]) -> Section | None:
    blocks: list[Any] = []
    if "map.png" in images:
        blocks.append(Image("map.png", _("Map: the Commonwealth, its provinces, enemies, Sejm and tracks"), 860))
    if "chart.png" in images:
        blocks.append(Image("chart.png", _("Chart: VP and thalers by family over the rounds"), 700))
    return Section("pictures", _("The map and the chart"), tuple(blocks)) if blocks else None


#: Where the provisional board figures are listed for players (the rules reference's section).
PROVISIONAL_LIST = N_("the rules reference (mail HELP RULES), section The board data and its provisional figures")
#: What each kind of provisional board figure is called in the rules reference.
_FIGURES = {"estates": N_("estate rows of {names}"), "strength": N_("strength tracks of {names}"),
            "vp": N_("VP on the boxes of {names}"), "raids": N_("raid arrows of {names}")}


def plain_provisional(items: Sequence[Any], view: Mapping[str, Any]) -> list[str]:
    """The provisional board figures by what they are, for players (``estate rows of Royal
    Prussia, Ukraine``, ``the royal army table``); the GM's report gives each with its source."""
    found: dict[str, list[str]] = {}
    for item in items:
        path = str(item).split(" = ", 1)[0]
        m = re.match(r"provinces\.(\w+)\.estates|enemies\.(\w+)\.(strength|vp|raids)|court_troops\[(\d+)\]"
                     r"|(royal_army_table)", path)
        if m is None:
            found.setdefault(path, [])
            continue
        place, foe, what, court, table = m.groups()
        kind = "estates" if place else what or ("court_troops" if court else "royal_army_table")
        name = province(place) if place else enemy(foe, view) if foe else str(int(court) + 1) if court else ""
        names = found.setdefault(kind, [])
        if name and name not in names:
            names.append(name)
    out = []
    for kind, names in found.items():
        listed = ", ".join(names)
        if kind == "royal_army_table":
            out.append(_("the royal army table"))
        elif kind == "court_troops":
            out.append(ngettext("court troops in round {names}", "court troops in rounds {names}",
                                len(names)).format(names=listed))
        elif kind in _FIGURES:
            out.append(_(_FIGURES[kind]).format(names=listed))
        else:
            out.append(kind)
    return out


def first_report(turn: str) -> bool:
    """True for the opening report and the reports of round 1 (turn labels ``r1/...``)."""
    return turn.split("/", 1)[0] in ("r1", "start", "setup")


#: A provisional board figure as the engine lists it (adjudicator/gods_playground/board.py).
FIGURE = Sentences([Template(N_("{figure} = {value} (provisional: {why})"), {"why": _})])


def _footer(inp: ReportInput) -> tuple[str, ...]:
    """The footer; the provisional figures in full only in round 1's reports and the GM's
    (said once, not in every mail)."""
    where = _(PROVISIONAL_LIST)
    lines = staged_footer(inp, first_report(inp.turn), where, _("in the round 1 reports"),
                          _("PROVISIONAL board figures in use (marked with a dagger on the map; no source prints "
                            "them; docs/gods-playground-rules.md, section The board data and its provisional "
                            "figures):"), lambda items: plain_provisional(items, inp.view), describe=FIGURE)
    chosen = {k: v for k, v in (inp.view.get("readings") or {}).items() if v != READING_DEFAULTS.get(k)}
    if chosen:  # the GM's choices where the rulebook reads two ways (defaults are not repeated)
        lines += (_("The GM's readings of the rulebook: {readings} (the rules reference, mail HELP RULES: Readings "
                    "the GM chooses).").format(readings=", ".join(f"{k}={v}" for k, v in sorted(chosen.items()))),)
    return lines


#: The readings a game has when its GM chooses none (adjudicator/gods_playground/state.py READINGS).
READING_DEFAULTS = {"turks_from_habsburgs": "always", "habsburg_influence": "track"}
