"""Setting up a game (rule 3) and laying out each season (rules 4.1.1-4.1.2).

``setup=random`` deals counties and army groups from the seed; ``setup=draft`` waits for
the draft of rule 3.3: one pick at a time from rules version 1.2 on (:mod:`draft_asked`),
before it one simultaneous ``draft`` decision (wish lists + group order) whose picks
:mod:`draft` runs (see docs/wallenstein-rules.md, "Setup").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import GameError
from adjudicator.chance import Chance
from adjudicator.wallenstein import court, tower
from adjudicator.wallenstein.data import ACTIONS, BONUS_TILES, events, in_play, setup_value
from adjudicator.wallenstein.releases import RELEASES, begin_draft_asked, rule
from adjudicator.wallenstein.state import PEASANTS, READINGS, SEASONS, Ctx, colours, empty_cubes, nonzero, reading

VERSION = 1


def new_state(seats: Sequence[str], options: Mapping[str, str]) -> dict[str, Any]:
    """The state before any chance: players with money and armies, an empty map."""
    n = len(seats)
    if not 3 <= n <= 5:
        raise GameError(f"Wallenstein is for 3 to 5 players, not {n}")
    if len(set(seats)) != n or any(s.startswith("@") or s == PEASANTS for s in seats):
        raise GameError("seat names must be distinct and may not start with '@' or be 'peasants'")
    mode = options.get("setup", "random")
    if mode not in ("random", "draft"):
        raise GameError(f"option setup must be 'random' or 'draft', not {mode!r}")
    unknown = sorted(set(options) - {"setup", "expansion", "favour_json", *READINGS})
    if unknown:
        raise GameError(f"unknown option(s) for wallenstein: {', '.join(unknown)}")
    extra = {**court.read_options(options), **_readings(options)}
    taler = setup_value("starting_taler", n)
    palette = setup_value("colors")
    state: dict[str, Any] = {
        "game": "wallenstein", "version": VERSION, "seats": list(seats), "options": {"setup": mode, **extra},
        "phase": "draft" if mode == "draft" else "plan", "year": None, "season": "setup",
        "players": {s: {"color": palette[i], "taler": taler, "grain": 0, "vp": 0,
                        "supply": setup_value("armies_per_seat")} for i, s in enumerate(seats)},
        "counties": {c: {"owner": None, "armies": 0, "buildings": [], "markers": 0} for c in in_play(n)},
        "peasants": setup_value("peasants"), "tower": {}, "tray": {},
        "events": {"face_up": [], "deck": sorted(events()), "current": None, "used": []},
        "actions": [], "bonus": [], "turn_order": list(seats), "draft": None, "log": [],
        "ranking": None, "winner": None,
    }
    state["tower"], state["tray"] = empty_cubes(state), empty_cubes(state)
    if extra:  # rule 8: the Imperial Court's components
        state["court"] = court.new_court(seats, options.get("favour_json"))
    return state


def _readings(options: Mapping[str, str]) -> dict[str, str]:
    """The GM's readings (rules version 1.2 on): ``palace_event`` and ``bank``, each checked."""
    given = {name: str(options[name]).strip().lower() for name in READINGS if name in options}
    for name, value in given.items():
        if not rule("reading_options"):
            raise GameError(RELEASES.not_yet("reading_options", f"The option {name}"))
        if value not in READINGS[name]:
            raise GameError(f"option {name} must be {' or '.join(READINGS[name])}, not {value!r} "
                            "(docs/wallenstein-rules.md, Readings)")
    return given


def create(seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A new game: setup events, and either the random deal or the draft waiting."""
    state = new_state(seats, options)
    ctx = Ctx(state, Chance(seed), None, "setup")
    n = len(seats)
    ctx.emit("GameCreated", seats=list(seats), colors={s: p["color"] for s, p in state["players"].items()},
             taler=setup_value("starting_taler", n), setup=state["options"]["setup"],
             groups=setup_value("army_groups", n), counties_in_play=list(in_play(n)),
             excluded=[] if n > 3 else list(setup_value("excluded_with_3")),
             **({"readings": {name: reading(state, name) for name in READINGS}} if rule("reading_options") else {}))
    out = fill_tower(ctx)
    if court.enabled(state):
        court.setup(ctx, out)
    draw_events(ctx)
    if state["phase"] == "draft":
        deck = ctx.stream(ctx.label("draft")).shuffled(in_play(n))
        state["draft"] = {"face_up": deck[:2], "deck": deck[2:]}
        if rule("draft_asked"):  # rules 1.2: one pick at a time (adjudicator/wallenstein/draft_asked.py)
            begin_draft_asked(state)
        ctx.emit("DraftDeck", label=ctx.label("draft"), face_up=deck[:2])
    else:
        deal(ctx)
        start_year(ctx, 1618)
    state["log"] = ctx.events
    return state, ctx.events


def fill_tower(ctx: Ctx) -> dict[str, int]:
    """Rule 3.5: 7 armies per seat and 10 peasants into the empty tower; what falls out returns (and is returned)."""
    state = ctx.state
    fill = setup_value("tower_fill")
    thrown = {s: fill["armies_per_seat"] for s in state["seats"]}
    thrown[PEASANTS] = fill["peasants"]
    for s in state["seats"]:
        state["players"][s]["supply"] -= thrown[s]
    state["peasants"] -= thrown[PEASANTS]
    label = ctx.label("tower")
    out, after = tower.throw(state["tower"], thrown, colours(state), ctx.stream(label))
    state["tower"] = after
    for s in state["seats"]:
        state["players"][s]["supply"] += out[s]
    state["peasants"] += out[PEASANTS]
    ctx.emit("TowerFill", label=label, thrown=nonzero(thrown), out=nonzero(out), tower=nonzero(after))
    return out


def draw_events(ctx: Ctx) -> None:
    """Rules 3.7 and 4.2.4: turn up 4 event cards from the (unordered) remaining deck."""
    ev = ctx.state["events"]
    label = ctx.label("events")
    k = setup_value("event_cards_face_up")
    drawn = ctx.stream(label).shuffled(ev["deck"])[:k]
    ev["face_up"] = drawn
    ev["deck"] = sorted(set(ev["deck"]) - set(drawn))
    ctx.emit("EventCards", label=label, cards=drawn)


def place(ctx: Ctx, seat: str, county: str, armies: int) -> None:
    """Put a starting group on a county (rule 3.3 step 2)."""
    state = ctx.state
    state["players"][seat]["supply"] -= armies
    state["counties"][county].update(owner=seat, armies=armies)


def deal(ctx: Ctx) -> None:
    """``setup=random``: a seeded deal of counties; groups in printed order go to the dealt cards."""
    state = ctx.state
    seats, n = state["seats"], len(state["seats"])
    groups = setup_value("army_groups", n)
    label = ctx.label("deal")
    deck = ctx.stream(label).shuffled(in_play(n))
    placements: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    for i, armies in enumerate(groups):
        for j, seat in enumerate(seats):
            county = deck[i * n + j]
            place(ctx, seat, county, armies)
            placements[seat].append({"county": county, "armies": armies})
    ctx.emit("Deal", label=label, placements=placements)


def start_year(ctx: Ctx, year: int) -> None:
    """Begin a year at spring."""
    start_season(ctx, year, SEASONS[0])


def start_season(ctx: Ctx, year: int, season: str) -> None:
    """Rules 4.1.1-4.1.2: shuffle the action cards (5 shown) and lay out the bonus tiles."""
    state = ctx.state
    state["year"], state["season"] = year, season
    ctx.year, ctx.season = year, season
    ctx.emit("SeasonStart")
    label = ctx.label("actions")
    state["actions"] = ctx.stream(label).shuffled(ACTIONS)
    ctx.emit("ActionCards", label=label, shown=state["actions"][:5])
    label = ctx.label("bonus")
    state["bonus"] = ctx.stream(label).shuffled(BONUS_TILES)
    ctx.emit("BonusTiles", label=label, places=list(state["bonus"]))
    if court.enabled(state):  # rule 9.1: laying out the favour cards
        court.lay_out(ctx)
