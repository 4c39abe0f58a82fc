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
from reports.gods_playground.names import PHASE_NAMES, counts, enemy, province, units
from reports.gods_playground.narrative import story
from reports.model import ReportInput
from reports.timefmt import deadline_text

KIND_TEXT = {
    "estate": "choose a starting estate: ESTATE <province> [OR <province>]",
    "nobles": "place your six nobles face down, one per province and one on the king's box: "
              "NOBLES <province> <n>, ..., King <n>",
    "cubes": "you are short of noble cubes: say where they go (CUBES <province> <n>, ... or CUBES FIRST ...)",
    "bid": "a tied election of the king: bid thalers face down (BID <n>); every bid is paid",
    "buy": "buy an estate (BUY <province> OR ... OR PASS)",
    "action": "a special action (ACTION ... or PASS)",
    "recruit": "recruit troops (RECRUIT <province> <n> INF <n> CAV <n> CANNON ... or PASS)",
    "campaign": "campaign against an enemy (CAMPAIGN <enemy> [ROYAL] or PASS)",
    "counter": "counterattack invaders (COUNTER <province | Habsburgs> or PASS)",
}


def build_doc(inp: ReportInput, images: Mapping[str, bytes]) -> tuple[Doc, str]:
    """The report's document and its banner line."""
    v = inp.view
    parts = (_story(inp), _mine(inp), _families(v), _provinces(v), _enemies(v), _centre(v), _gm(inp),
             _next(inp), _pictures(images))
    title = f"God's Playground -- game {inp.game_id} -- round {v.get('round')} of 4"
    when = turn_name("gods-playground", inp.turn, v, after=True)
    doc = Doc(title=title, subtitle=f"Report for {viewer_label(inp.viewer)}: {when}",
              sections=tuple(s for s in parts if s is not None), footer=_footer(inp))
    return doc, inp.ending or banner(inp)


def banner(inp: ReportInput) -> str:
    """The line flagged at the top: the end and the winner, or that the viewer must act."""
    v = inp.view
    if v.get("over"):
        vp = (v.get("seats") or {}).get(v.get("winner"), {}).get("vp", 0)
        return f"The game is over. Winner: {v.get('winner') or 'nobody'} with {vp} VP."
    p = v.get("pending") or {}
    if inp.viewer in (p.get("seats") or []):
        due = f" by {deadline_text(inp.deadline)}" if inp.deadline else ""
        return f"Your decision is awaited ({p.get('turn')}){due}: see 'What comes next'."
    return ""


def _story(inp: ReportInput, since: str = "report") -> Section:
    groups = story(inp.recent, inp.view)
    turns = [t.get("turn") for t in inp.recent]
    if not groups:
        return Section("story", "What happened", (Para("Nothing has happened yet."),))
    span = _span(str(turns[0]), str(turns[-1]))
    blocks: list[Any] = [Para(f"Since the last {since} ({span}):")]
    for head, lines in groups:
        blocks += [Sub(head), Items(tuple(lines))]
    return Section("story", f"What happened since your last {since}" if inp.viewer not in (GM, PUBLIC)
                   else f"What happened since the last {since}", tuple(blocks))


def move_sections(inp: ReportInput) -> list[Section]:
    """What a "your move" mail tells besides the decision: what happened since the seat's
    last mail (``inp.recent``) and its own position; the board is in its last round report."""
    return [s for s in (_story(inp, "mail") if inp.recent else None, _mine(inp)) if s is not None]


def _span(first: str, last: str) -> str:
    """The turns a report tells of, by name: ``round 2, from placing nobles to counterattacks``."""
    a, b = turn_name("gods-playground", first), turn_name("gods-playground", last)
    if a == b:
        return a
    head_a, _, phase_a = a.partition(", ")
    head_b, _, phase_b = b.partition(", ")
    if head_a == head_b and phase_a and phase_b:
        return f"{head_a}, from {phase_a} to {phase_b}"
    return f"from {a} to {b}"


def _estates_of(v: Mapping[str, Any], seat: str) -> list[str]:
    out = []
    for key, prov in (v.get("provinces") or {}).items():
        for e in prov.get("estates") or []:
            if e.get("owner") == seat:
                marks = (" steward" if e.get("steward") else "") + (" town" if e.get("town") else "")
                out.append(f"{province(key)} {e.get('value')}{marks}")
    return out


def _mine(inp: ReportInput) -> Section | None:
    v, seat = inp.view, inp.viewer
    row = (v.get("seats") or {}).get(seat)
    if row is None:
        return None
    hand = ((v.get("hands") or {}).get(seat)) or []
    placed = (v.get("nobles") or {}).get(seat)
    lines = [f"You have {row.get('vp')} VP and {row.get('money')} thalers; {row.get('noble_cubes_supply')} noble "
             f"cubes and {row.get('discs_supply')} discs in your supply.",
             f"Your estates: {', '.join(_estates_of(v, seat)) or 'none'}.",
             f"Your Sejm seats: {', '.join(province(p) for p, s in (v.get('sejm') or {}).items() if s == seat) or 'none'}."]
    if hand:
        lines.append(f"Your nobles in hand (only you see them): {', '.join(map(str, hand))}.")
    if isinstance(placed, Mapping) and placed:
        lines.append("Your nobles placed: " + ", ".join(f"{province(k)} {n}" for k, n in placed.items()) + ".")
    plans = (v.get("plans") or {}).get(seat) or []
    blocks: list[Any] = [Para(x) for x in lines]
    if plans:
        blocks.append(Para(f"Your pre-sent orders still to use (only you and the GM see them): {len(plans)} line(s):"))
        blocks.append(Items(tuple(_plan_line(o) for o in plans)))
    return Section("mine", "Your position", tuple(blocks))


def _plan_line(order: Any) -> str:
    try:
        from turns.base import format_orders

        return format_orders("gods-playground", [dict(order)]).strip() or str(order)
    except Exception:  # noqa: BLE001 -- a report must render even if the grammar changes
        return str(order)


NOBLE_HEADS = {"royal_prussia": "R.Prussia", "lithuania": "Lithuania", "ukraine": "Ukraine",
               "little_poland": "L.Poland", "greater_poland": "G.Poland", "royal": "King"}


def _families(v: Mapping[str, Any]) -> Section:
    seats = v.get("seats") or {}
    rows = []
    for seat, r in seats.items():
        rows.append((seat, "yes" if seat == v.get("start_player") else "", str(r.get("vp")), str(r.get("money")), str(len(_estates_of(v, seat))),
                     str(r.get("noble_cubes_supply")), str(r.get("discs_supply")), str(r.get("nobles_in_hand"))))
    blocks: list[Any] = [Table(("Family", "Start", "VP", "Thalers", "Estates", "Cubes", "Discs", "In hand"),
                               tuple(rows), "llrrrrrr"),
                         Para("Cubes and discs: in the family's supply; In hand: nobles not yet placed.")]
    nobles = v.get("nobles") or {}
    shown = {s: n for s, n in nobles.items() if isinstance(n, Mapping) and n}
    if shown:
        rows = [(s, *(str(n.get(k, "-")) for k in NOBLE_HEADS)) for s, n in shown.items()]
        blocks.append(Table(("Family", *NOBLE_HEADS.values()), tuple(rows), "lrrrrrr", caption="Nobles placed"))
    hidden = [s for s, n in nobles.items() if n == "face down"]
    if hidden:
        blocks.append(Para(f"Nobles placed face down (not yet revealed): {', '.join(hidden)}."))
    return Section("families", "The families", tuple(blocks))


def _estate_row(prov: Mapping[str, Any]) -> str:
    out = []
    for e in prov.get("estates") or []:
        marks = [m for m, on in (("steward", e.get("steward")), ("town", e.get("town"))) if on]
        out.append(f"{e.get('value')} {e.get('owner') or 'free'}" + (f" ({', '.join(marks)})" if marks else ""))
    return ", ".join(out)


def _provinces(v: Mapping[str, Any]) -> Section:
    blocks: list[Any] = []
    sejm = v.get("sejm") or {}
    for key, prov in (v.get("provinces") or {}).items():
        blocks.append(Sub(f"{province(key)}: estate track {prov.get('estate_track')}, Sejm disc "
                          f"{sejm.get(key) or 'none'}"))
        lines = [f"Estates, centre to border: {_estate_row(prov)}.",
                 f"Noble cubes: {counts(prov.get('noble_cubes') or {})}."]
        extra = []
        if prov.get("enemy_cubes"):
            extra.append(counts(prov["enemy_cubes"], {k: enemy(k, v) for k in prov["enemy_cubes"]}))
        if prov.get("influence"):
            extra.append(f"Habsburg influence {prov['influence']}")
        if prov.get("cossacks"):
            extra.append(f"Cossacks {prov['cossacks']}")
        lines.append(f"Enemies: {'; '.join(extra) or 'none'}.")
        troops = [f"{s} {units(u)}" for s, u in (prov.get("units") or {}).items() if any(u.values())]
        if troops:
            lines.append(f"Troops: {'; '.join(troops)}.")
        blocks.append(Items(tuple(lines)))
    blocks.append(Para("The estate track is the income of each estate in the province (a steward adds 2)."))
    return Section("provinces", "The provinces", tuple(blocks))


def _enemies(v: Mapping[str, Any]) -> Section:
    rows = []
    for key, e in (v.get("enemies") or {}).items():
        strength = "influence" if e.get("strength") is None else str(e.get("strength"))
        rest = [f"nobles {counts(e.get('noble_cubes') or {})}"]
        if e.get("royal_cubes"):
            rest.append(f"king {e['royal_cubes']}")
        if e.get("influence"):
            rest.append(f"influence {e['influence']}")
        if e.get("turks"):
            rest.append(f"Turks {e['turks']}")
        if e.get("cossacks"):
            rest.append(f"Cossacks {e['cossacks']}")
        if e.get("treaty"):
            rest.append("TREATY")
        rows.append((str(e.get("name")), province(e.get("province")), strength, str(e.get("cubes")),
                     str(e.get("hit_cubes")), str(e.get("vp")), "; ".join(rest)))
    table = Table(("Enemy", "Attacks", "Str", "Cubes", "Hits", "VP", "On the box"), tuple(rows), "llrrrrl")
    return Section("enemies", "The enemies", (table, Para("Str: this round's strength; Hits: hit cubes on the box "
                                                         "(nobles' and the king's); VP: printed on the box.")))


def _centre(v: Mapping[str, Any]) -> Section:
    sejm = ", ".join(f"{province(p)} {s or '-'}" for p, s in (v.get("sejm") or {}).items())
    c = v.get("cossacks") or {}
    lines = [f"Phase: {PHASE_NAMES.get(str(v.get('phase')), v.get('phase'))} of round {v.get('round')}; "
             f"start player: {v.get('start_player')}.",
             f"Sejm (one disc per province's space): {sejm}.",
             f"Royal army: {units(v.get('royal_army') or {})}.",
             f"Cossacks: {c.get('box', 0)} in their box, {c.get('ukraine', 0)} in Ukraine, {c.get('tatars', 0)} "
             f"with the Tatars. Towns founded: {v.get('towns_founded', 0)}."]
    return Section("centre", "The Sejm, the royal army and the tracks", tuple(Para(x) for x in lines))


def _gm(inp: ReportInput) -> Section | None:
    v = inp.view
    if v.get("viewer") != GM:
        return None
    rows = tuple((s, ", ".join(map(str, (v.get("hands") or {}).get(s) or [])) or "-",
                  str(len((v.get("plans") or {}).get(s) or []))) for s in v.get("seats") or {})
    blocks: list[Any] = [Table(("Seat", "Nobles in hand", "Plan lines"), rows, "llr"),
                         Para("Placed nobles, face down or not, are in 'The families'.")]
    lines = [f"{s}: {_plan_line(o)}" for s, pl in (v.get("plans") or {}).items() for o in pl]
    blocks.append(Items(tuple(lines)) if lines else Para("No pre-sent orders on file."))
    return Section("gm", "Hidden choices (GM only)", tuple(blocks))


def _next(inp: ReportInput) -> Section:
    return next_section(inp, "What comes next", lambda p: decision_blocks(inp, p), "Lines sent ahead for later decisions "
                        "are kept as a plan for the round; mail HELP ORDERS for the whole syntax.", help_lines)


def decision_blocks(inp: ReportInput, p: Mapping[str, Any]) -> list[Any]:
    """Who decides what now, and why the viewer's pre-sent line for it failed (only its own)."""
    seats = list(p.get("seats") or [])
    kind = str(p.get("kind"))
    mine = inp.viewer in seats
    lead = "Your decision" if mine else f"Awaited from {', '.join(seats)}"
    blocks: list[Any] = [Para(f"{lead} ({p.get('turn')}, {PHASE_NAMES.get(kind, kind)}): {KIND_TEXT.get(kind, kind)}.")]
    info = p.get("info") or {}
    if kind == "bid" and info.get("again"):
        blocks.append(Para(_again(info)))
    failed = ((p.get("info") or {}).get("plan_failed") or {}).get(inp.viewer)
    if failed:
        blocks.append(Para(f"Your pre-sent order for this decision cannot be used: {failed}"))
    return blocks


def _again(info: Mapping[str, Any]) -> str:
    """A new bid after a tie, in words (the tied bids were revealed and paid: public)."""
    n = int(info.get("again") or 1)
    which = "again" if n == 1 else f"again ({n} ties so far)"
    at = info.get("tied_at")
    return (f"The bids tied at {at} thaler{'' if at == 1 else 's'}, and every bid was paid: the tied players bid {which}, "
            "until someone wins (Phase 3). Only when none of them has a thaler left does the marker stay.")


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
        out.append(f"{parts[0]} -- {parts[1]}" if len(parts) == 2 else line)
    return out


def _pictures(images: Mapping[str, bytes]) -> Section | None:
    blocks: list[Any] = []
    if "map.png" in images:
        blocks.append(Image("map.png", "Map: the Commonwealth, its provinces, enemies, Sejm and tracks", 860))
    if "chart.png" in images:
        blocks.append(Image("chart.png", "Chart: VP and thalers by family over the rounds", 700))
    return Section("pictures", "The map and the chart", tuple(blocks)) if blocks else None


#: Where the provisional board figures are listed for players (the rules reference's section).
PROVISIONAL_LIST = "the rules reference (mail HELP RULES), section The board data and its provisional figures"
#: What each kind of provisional board figure is called in the rules reference.
_FIGURES = (("estates", "estate rows of"), ("strength", "strength tracks of"), ("vp", "VP on the boxes of"),
            ("raids", "raid arrows of"), ("court_troops", "court troops in round"), ("royal_army_table", ""))


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
    words = dict(_FIGURES)
    out = []
    for kind, names in found.items():
        if kind == "royal_army_table":
            out.append("the royal army table")
        elif kind in words:
            out.append(f"{words[kind]} {', '.join(names)}" if kind != "court_troops" else
                       f"court troops in round{'s' if len(names) > 1 else ''} {', '.join(names)}")
        else:
            out.append(kind)
    return out


def first_report(turn: str) -> bool:
    """True for the opening report and the reports of round 1 (turn labels ``r1/...``)."""
    return turn.split("/", 1)[0] in ("r1", "start", "setup")


def _footer(inp: ReportInput) -> tuple[str, ...]:
    """The footer; the provisional figures in full only in round 1's reports and the GM's
    (issue 18: said once, not in every mail)."""
    lines = staged_footer(inp, first_report(inp.turn), PROVISIONAL_LIST, "in the round 1 reports",
                          "PROVISIONAL board figures in use (marked with a dagger on the map; no source prints "
                          "them; docs/gods-playground-rules.md, section The board data and its provisional "
                          "figures):", lambda items: plain_provisional(items, inp.view))
    chosen = {k: v for k, v in (inp.view.get("readings") or {}).items() if v != READING_DEFAULTS.get(k)}
    if chosen:  # the GM's choices where the rulebook reads two ways (defaults are not repeated)
        lines += ("The GM's readings of the rulebook: " + ", ".join(f"{k}={v}" for k, v in sorted(chosen.items()))
                  + " (the rules reference, mail HELP RULES: Readings the GM chooses).",)
    return lines


#: The readings a game has when its GM chooses none (adjudicator/gods_playground/state.py READINGS).
READING_DEFAULTS = {"turks_from_habsburgs": "always"}
