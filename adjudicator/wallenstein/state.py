"""The state's shape and the small helpers every rules module shares.

A state is plain JSON (see adjudicator/base.py)::

    game, version, seats (seating order), options, phase (draft|plan|over),
    year, season, players {seat: {color, taler, grain, vp, supply}},
    counties {name: {owner, armies, buildings, markers}} (in-play counties only),
    peasants (peasant supply), tower, tray ({colour: cubes}, colours = seats + peasants),
    events {face_up, deck (sorted), current, used}, actions (10), bonus (5),
    turn_order, draft (only in the draft), log (events of the last advance),
    ranking, winner

A county's card is in its owner's hand: the hand is derived from ``owner``.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import contains, itemgetter
from typing import Any

from adjudicator.chance import Chance, Stream
from adjudicator.wallenstein.data import rules
from adjudicator.wallenstein.releases import rule

PEASANTS = "peasants"
SEASONS = ("spring", "summer", "autumn")
#: the value of the game option ``expansion`` that plays the Imperial Court (rules 7-9)
COURT_OPTION = "court"


def court_enabled(state: dict[str, Any]) -> bool:
    """True when the game plays with the Imperial Court (:mod:`adjudicator.wallenstein.court`)."""
    return state["options"].get("expansion") == COURT_OPTION


def copy_state(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a JSON state to advance, with an empty ``log`` (advance replaces it).

    A pickle round trip: several times faster than a JSON one and the same data, since a state
    holds only JSON types (str keys, lists, no tuples), which the engine's contract tests check.
    The last advance's log is not copied (it is most of the state's size and never read)."""
    return pickle.loads(pickle.dumps({k: ([] if k == "log" else v) for k, v in state.items()},
                                     pickle.HIGHEST_PROTOCOL))


def colours(state: dict[str, Any]) -> list[str]:
    """Cube colours in their fixed order: seats in seating order, then peasants."""
    return [*state["seats"], PEASANTS]


def empty_cubes(state: dict[str, Any]) -> dict[str, int]:
    """A cube count with every colour at 0."""
    return {c: 0 for c in colours(state)}


def nonzero(cubes: dict[str, int]) -> dict[str, int]:
    """The cube count without its zero entries (for events)."""
    return {k: v for k, v in cubes.items() if v}


def hand(state: dict[str, Any], seat: str) -> list[str]:
    """The county cards ``seat`` holds (= the counties it owns), sorted."""
    return sorted(n for n, c in state["counties"].items() if c["owner"] == seat)


def held(state: dict[str, Any], seat: str) -> int:
    """How many county cards ``seat`` holds: ``len(hand(state, seat))``, without sorting them."""
    return list(map(_OWNER, state["counties"].values())).count(seat)


def turn_label(state: dict[str, Any]) -> str:
    """The pending turn's label: ``setup`` (``setup/pick-4`` from rules 1.2 on) or e.g. ``1618-spring``."""
    if state["phase"] == "draft":  # rules 1.2 on: each pick is a turn (draft_asked.label)
        return f"setup/pick-{state['draft']['pick']}" + ("/refreshed" if state["draft"].get("refreshed") else "") \
            if "pick" in state["draft"] else "setup"
    return f"{state['year']}-{state['season']}"


def pieces_left(state: dict[str, Any], piece: str) -> int:
    """Pieces of ``piece`` (palace, church, trade, revolt_markers) still in the box (rule 1)."""
    box = rules()["pieces"]["value"][piece]
    counties = state["counties"].values()
    if piece == "revolt_markers":
        used = sum(map(_MARKERS, counties))
    else:  # the counties whose buildings hold one (map: counted without a Python loop)
        used = sum(map(contains, map(_BUILDINGS, counties), repeat(piece)))
    return box - used


_OWNER, _MARKERS, _BUILDINGS = itemgetter("owner"), itemgetter("markers"), itemgetter("buildings")


#: The GM's choice between two readings of the rulebook (rules version 1.2 on): option -> its
#: values, the first being the default (docs/wallenstein-rules.md, "Readings").
READINGS: dict[str, tuple[str, ...]] = {"palace_event": ("attacks", "revolts"), "bank": ("160", "unlimited")}


def reading(state: dict[str, Any], option: str) -> str:
    """The reading of ``option`` this game plays: the GM's, else the default."""
    return str(state["options"].get(option, READINGS[option][0]))


def bank_left(state: dict[str, Any]) -> int | None:
    """Taler still in the bank (rule 1: the box's coins, 160 Taler, less what the players
    hold), or None when the bank is not limited (before rules version 1.2, or ``bank=unlimited``)."""
    if not rule("bank_limit") or reading(state, "bank") == "unlimited":
        return None
    return int(rules()["coins"]["taler"]) - sum(map(_TALER, state["players"].values()))


_TALER = itemgetter("taler")


def seat_count(state: dict[str, Any]) -> int:
    """How many seats play."""
    return len(state["seats"])


@dataclass
class Ctx:
    """The working context of one advance: the state being changed and its event list."""

    state: dict[str, Any]
    chance: Chance
    year: int | None
    season: str
    events: list[dict[str, Any]] = field(default_factory=list)
    battles: int = 0
    battle_sites: list[str] = field(default_factory=list)  # the county of each battle, in turn
    holders: dict[str, str] = field(default_factory=dict)  # bonus tile -> seat
    event: dict[str, Any] | None = None  # the current event card
    # (seat, county) of county cards that left a seat's action spaces this season (rule 4.1.6 note)
    handed_over: set[tuple[str, str]] = field(default_factory=set)

    def emit(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Record a derived event (with this context's year and season)."""
        ev = {"type": type_, "year": self.year, "season": self.season, **fields}
        self.events.append(ev)
        return ev

    def label(self, *parts: object) -> str:
        """A chance label ``wallenstein/<year>/<season>/...`` (or ``wallenstein/setup/...``)."""
        head = ["wallenstein", "setup"] if self.season == "setup" else ["wallenstein", str(self.year), self.season]
        return "/".join([*head, *(str(p) for p in parts)])

    def stream(self, label: str, words: Sequence[tuple[str, int]] = ()) -> Stream:
        """The seeded stream of ``label`` (``words``: how a recorded line names it, see
        :meth:`adjudicator.chance.Chance.stream`)."""
        return self.chance.stream(label, words)

    def effect(self, name: str) -> dict[str, Any] | None:
        """The current event card when its effect is ``name``, else None."""
        if self.event is not None and self.event["effect"] == name:
            return self.event
        return None

    def hand_over(self, seat: str | None, county: str) -> None:
        """``seat`` loses ``county``'s card: its planned action there is gone for the season.

        Rule 4.1.6 note: "Kivétel ez alól, ha valaki meghódít egy tartományt: ilyenkor a
        vesztes azonmód átnyújtja a hódítónak az adott tartomány kártyáját" -- the card
        leaves the action space at once, so its action does not happen even if the county
        is taken back later in the season (a devastated county's card goes beside the board).
        """
        if seat is not None:
            self.handed_over.add((seat, county))

    def has_tile(self, seat: str, tile: str) -> bool:
        """True when ``seat`` holds bonus tile ``tile`` this season."""
        return self.holders.get(tile) == seat
