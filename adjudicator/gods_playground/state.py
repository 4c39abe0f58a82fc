"""The God's Playground state: counting helpers and the working copy used by ``advance``.

The state is plain JSON (docs/gods-playground-rules.md, "State"). Seats are listed in
clockwise order (white, blue, red as the seats were given). Pieces are counted, never
tracked one by one: a seat's noble cubes in supply are 20 minus those on provinces and enemy
boxes (seed 004, Components: 20 noble cubes, 16 discs, 12 nobles per player).
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator import sequential
from adjudicator.base import State
from adjudicator.chance import Stream
from adjudicator.gods_playground.board import ENEMIES, PROVINCES, board
from adjudicator.gods_playground.releases import RELEASES, rule

NOBLE_CUBES = 20
DISCS = 16
NOBLES = (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
ENEMY_CUBES = 25
ROYAL_CUBES = 20
STEWARDS = 8
TOWNS = 2
INFLUENCE = 10
START_MONEY = 10
ROUNDS = 4
#: 22 gold coins of 5 and 22 silver coins of 1 (Components; Setup: „Az aranyérmék 5 tallért
#: érnek, az ezüstök 1-et.”)
COINS = 22 * 5 + 22 * 1


class Ctx(sequential.Ctx):
    """The shared working copy (:class:`adjudicator.sequential.Ctx`): every event carries
    the round, and chance streams are labelled by the round."""

    def emit(self, type_: str, **fields: Any) -> None:
        """Record a derived event of this round."""
        self.events.append({"type": type_, "round": self.s["round"], **fields})

    def stream(self, *parts: Any, words: str = "") -> Stream:
        """The chance stream ``gods_playground/<round>/<parts...>``.

        The label (with its internal step number) keys the seeded draw and never changes; a
        recorded chance line names the draw in the game's words instead, ``round <round>
        <words>`` (``round 2 white's campaign against the Tatars``), a repeat of those words
        in the round being the next such line (:meth:`adjudicator.chance.Chance.stream`).
        """
        label = "/".join(["gods_playground", str(self.s["round"]), *map(str, parts)])
        named = [(f"round {self.s['round']} {words}", -1)] if words else []
        return self.chance.stream(label, named)


def enemy_words(enemy: str) -> str:
    """An enemy as a chance line names it: ``the Tatars``, ``the Habsburgs``, ``the black``."""
    return f"the {enemy.capitalize()}" if enemy != "black" else "the black enemy"


def order_from(state: State, first: str) -> list[str]:
    """All seats clockwise starting with ``first`` (turn order when ``first`` starts)."""
    seats = state["seats"]
    i = seats.index(first)
    return seats[i:] + seats[:i]


def turn_order(state: State) -> list[str]:
    """The seats in turn order: the start player, then clockwise."""
    return order_from(state, state["start"])


#: The GM's choices where the rulebook reads two ways (``--option K=V``; the first value is the
#: default; docs/gods-playground-rules.md, "Readings the GM chooses"). Rules version 3 on.
READINGS: dict[str, tuple[str, ...]] = {
    # Phase 13: Turks leaving the Habsburgs' box always move into Greater Poland (the sentence
    # as printed), or only as a raid would: not where Turkish cubes already stand
    "turks_from_habsburgs": ("always", "like-a-raid"),
    # Phase 11 Examples 2 and 3: in rounds 1-3 influence markers also go on the Habsburgs' box
    # at the start of the round, by its strength track (the examples), or only from the 5s
    # rolled (the main text names no other source)
    "habsburg_influence": ("track", "dice"),
}


def reading(state: State, key: str) -> str:
    """The game's reading of GM option ``key`` (its default when the GM chose none, and in
    games of rules versions 1-2, which know no such option)."""
    return str(state.get("readings", {}).get(key, READINGS[key][0]))


def influence_from_track(state: State) -> bool:
    """True when the Habsburgs' strength track puts influence markers on their box at the
    start of rounds 1-3 (rules version 3, GM reading ``habsburg_influence=track``)."""
    return bool(rule("influence_track")) and reading(state, "habsburg_influence") == "track"


def provisional(state: State) -> list[str]:
    """The provisional board figures a game uses: all of its board's, but the Habsburgs'
    track for rounds 1-3 when the GM chose ``habsburg_influence=dice`` (unused then)."""
    items = list(board(state)["provisional"])
    if not rule("influence_track") or influence_from_track(state):
        return items
    return [x for x in items if not re.match(r"enemies\.habsburgs\.strength\[[012]\]", x)]


def bank(state: State) -> int:
    """Thalers in the bank: the coins not in the players' hands (rules version 3 pays no more
    than this, Phase 1: „A pénz elvileg korlátos - amennyi érme van a játékban”)."""
    return max(0, COINS - sum(state["money"].values()))


def pay_out(state: State, seat: str, due: int) -> int:
    """Pay ``seat`` ``due`` thalers from the bank: all of it in rules versions 1-2, at most what
    the bank holds from version 3; returns what was paid."""
    paid = min(due, bank(state)) if rule("bank_limit") else due
    state["money"][seat] += paid
    return paid


def cubes_on_board(state: State, seat: str) -> int:
    """A seat's noble cubes on provinces and enemy boxes."""
    return (sum(p["nobles"][seat] for p in state["prov"].values())
            + sum(b["nobles"][seat] for b in state["box"].values()))


def cube_supply(state: State, seat: str) -> int:
    """A seat's noble cubes in its supply."""
    return NOBLE_CUBES - cubes_on_board(state, seat)


def estates_of(state: State, seat: str) -> int:
    """How many estates carry ``seat``'s disc."""
    return sum(1 for p in state["prov"].values() for e in p["estates"] if e["owner"] == seat)


def sejm_discs(state: State, seat: str) -> int:
    """How many of ``seat``'s discs are on the Sejm."""
    return sum(1 for owner in state["sejm"].values() if owner == seat)


def disc_supply(state: State, seat: str) -> int:
    """A seat's discs not on an estate or the Sejm. From rules version 3 one of the 16 marks
    the seat's score (Phase 15: „A győzelmi pontokat a győzelmi sávon kell jelölötök, a
    korongok segítségével.”), so at most 15 go on the board."""
    if rule("vp_track_disc"):
        return max(0, DISCS - 1 - estates_of(state, seat) - sejm_discs(state, seat))
    return DISCS - estates_of(state, seat) - sejm_discs(state, seat)


def enemy_on_board(state: State, enemy: str) -> int:
    """An enemy's cubes on provinces and boxes (Turkish cubes on the Habsburgs' box count as Turkish)."""
    n = sum(p["enemy"][enemy] for p in state["prov"].values()) + state["box"][enemy]["cubes"]
    if enemy == "turks":
        n += state["box"]["habsburgs"]["turks"]
    return n


def enemy_supply(state: State, enemy: str) -> int:
    """An enemy's cubes still in the supply (25 of each, Components)."""
    return ENEMY_CUBES - enemy_on_board(state, enemy)


def royal_supply(state: State) -> int:
    """Royal cubes not on an enemy box."""
    return ROYAL_CUBES - sum(b["royal"] for b in state["box"].values())


def influence_on_board(state: State) -> int:
    """Habsburg influence markers on the Habsburgs' box and the provinces."""
    return state["box"]["habsburgs"]["influence"] + sum(p["influence"] for p in state["prov"].values())


def stewards_used(state: State) -> int:
    """Steward discs on estates."""
    return sum(1 for p in state["prov"].values() for e in p["estates"] if e["steward"])


def enemy_cubes(prov: dict[str, Any]) -> int:
    """All enemy cubes on a province, of every colour."""
    return sum(prov["enemy"].values())


def nobles_on(prov: dict[str, Any]) -> int:
    """All noble cubes on a province (every seat's)."""
    return sum(prov["nobles"].values())


def income_of(state: State, seat: str, province: str) -> int:
    """Income of ``seat``'s estates in a province: track value each, +2 per steward (Phase 1)."""
    p = state["prov"][province]
    return sum(p["track"] + (2 if e["steward"] else 0) for e in p["estates"] if e["owner"] == seat)


def province_of(state: State, enemy: str) -> str:
    """The province an enemy borders (fact 32)."""
    return str(board(state)["enemies"][enemy]["province"])


def enemy_of(state: State, province: str) -> str:
    """The enemy whose box borders ``province``."""
    return next(e for e in ENEMIES if province_of(state, e) == province)


def turks_hold_habsburgs(state: State) -> bool:
    """True when Turkish cubes stand on the Habsburgs' box (Phase 11, The Ottoman Empire)."""
    return state["box"]["habsburgs"]["turks"] > 0


def turks_overran(state: State) -> bool:
    """True once the Turks have put cubes on the Habsburgs' box (round 3): the Greater Poland
    influence rule of Phase 14 then no longer applies („Az első három fordulóban, ha a
    törökök nem rohanták le a Habsburgokat ...”), even if a counterattack clears the box
    (rules version 1: while Turkish cubes stand on the box)."""
    if not rule("turks_fixed_for_round"):
        return turks_hold_habsburgs(state)
    return bool(state.get("turks_overran"))


def turkish_habsburgs(state: State) -> bool:
    """True in round 4 when Turkish cubes stood on the Habsburgs' box as it began: the box is
    a Turkish box for the whole round (reference page: „Ha a negyedik forduló elején van
    török kocka a Habsburgok dobozán, az török doboz lesz.”; Phase 11: the purple arrows
    count as orange), even after a counterattack clears it (rules version 1: while Turkish
    cubes stand on the box)."""
    if not rule("turks_fixed_for_round"):
        return state["round"] == 4 and turks_hold_habsburgs(state)
    return state["round"] == 4 and bool(state.get("turkish_habsburgs"))


def units_on(prov: dict[str, Any], seat: str) -> dict[str, int]:
    """A seat's units on a province."""
    return prov["units"][seat]


def new_province(seats: list[str], values: list[int], track: int) -> dict[str, Any]:
    """An empty province."""
    return {"track": track, "estates": [{"value": v, "owner": None, "steward": False, "town": False} for v in values],
            "nobles": {s: 0 for s in seats}, "enemy": {e: 0 for e in ENEMIES}, "influence": 0,
            "units": {s: {"inf": 0, "cav": 0, "can": 0} for s in seats}, "cossacks": 0, "entered": False}


def new_box(seats: list[str]) -> dict[str, Any]:
    """An empty enemy box."""
    return {"cubes": 0, "nobles": {s: 0 for s in seats}, "royal": 0, "treaty": False,
            "influence": 0, "turks": 0, "cossacks": 0}


def all_provinces() -> tuple[str, ...]:
    """The five provinces, clockwise from Royal Prussia."""
    return PROVINCES


def take_sejm_disc(s: State, seat: str) -> str:
    """Remove ``seat``'s disc from the first Sejm space (clockwise from Royal Prussia)."""
    space = next(p for p in board(s)["sejm"] if s["sejm"][p] == seat)
    s["sejm"][space] = None
    return space
