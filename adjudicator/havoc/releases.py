"""Havoc's released rules versions: the rule points that differ, and the data each reads.

A game keeps the version it was created with (:mod:`adjudicator.versions`); a rules fix is a
new row, never an edit of a released one. docs/changelog-havoc.md is written from ``changes``.

Rule points (seed 002, the Hungarian rules):

- ``full_recruits_any_take``: "if the recruiting area is full, your first card must be taken
  from there" binds the first card taken by any means (RECRUIT, SIC or LOOT); in "1" only a
  first RECRUIT from the deck was refused.
- ``small_variant_shift``: the 2-3 seat variant ignores the 2nd-place points and moves the
  places below up (Castillon 11-5-3-1-0), but not on the Chevauchées; in "1" a battle paid its
  1st and 3rd places only, the Chevauchées too.
- ``peace_fresh_five_seats``: the first-round exemption of the 1-2 Peace card is the 5-6 seat
  rule; in "1" it came with option ``peace=12``.
- ``dogs_out``: ``DOGS OUT 0|1|2|BEST`` ("a játékos kijelentheti"); refused in "1".
- ``loot_look``: ``LOOT LOOK`` stops at the Looting so the seat looks through the discard pile
  ("átnézze a dobott lapokat"); refused in "1".
- ``recruit_asked``: recruiting is asked a part at a time when it arises ("A játékos húz két
  kártyát, és a kezéből lerak egy lapot az újoncokhoz"): a block may hold only the first parts
  (a lone ``RECRUIT DECK``), the seat is then asked for the rest (pending kind ``recruiting``)
  with what it drew; a complete block is still carried out at once. Before "3" a block had to
  hold both draws and the LAY.
- ``dogs_out_asked``: the Dogs declared out of a battle are asked at its end ("A csata végén a
  játékos kijelentheti", pending kind ``dogsout``) from each seat with a choice that declared
  nothing before; with no declaration the Dogs fight. Before "3" the engine declared the
  strongest choice for a seat that said nothing.
- ``gm_readings``: the GM options of equally plausible readings (``small_third``, ``sic``,
  ``peace_first_round`` with 5-6 seats,
  docs/havoc-rules.md "Readings"); unknown options before "3".
- ``final_lay_strongest``: the Castillon lay made for a seat without a FINAL (missed orders,
  bots) is the strongest of at most 6 cards, of equal ones the one with most cards („lerakja a
  legerősebb kombinációt, amit csak tud - természetesen legfeljebb 6 lapból”, „Egyenlőségnél az
  az erősebb, akinek kevesebb kártya maradt a kezében”): an exact search
  (:mod:`adjudicator.havoc.lay`). Before "3" a bounded search that could miss it.

Games of "1" created between the rules review's first commit and version 2's name on main
(2026-11-30 03:22:57 to 03:32:14 UTC) read the review's first three rule points as "2" does
(``windows``: the creation moment is the ``GameCreated`` event's, in the hash chain).
"""

from __future__ import annotations

import os

from typing import Any

from adjudicator.versions import Release, Releases

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")

_SETUP = "7b6a9fe2327ff76231c676b7af2e98780ac1f7669c418cf465eb8418d48c8f4f"
_DATA_1 = {"battles.json": "29ba8831c30cd964795ed4fb04dcd903eefd6f9e2ab47f90155d9a1739f2bb0b", "setup.json": _SETUP}
_DATA_2 = {"battles.json": "e19f25d0fee20ee444b309f30d89472390b1cf777c8e00923da6e4cc47a3c264", "setup.json": _SETUP}


def _upgrade_to_3(state: dict[str, Any]) -> dict[str, Any]:
    """A state of "2" as "3" keeps it: the options of the GM's readings at their defaults
    (version 2's readings). Everything else is kept alike."""
    big = len(state["seats"]) >= 5
    state["options"] = {**state["options"], **{k: v for k, v in READING_DEFAULTS.items()
                                               if k not in state["options"] and (big or k not in FIVE_SIX_READINGS)}}
    return state


#: The GM options of version 3 (docs/havoc-rules.md, "Readings") and their defaults: the
#: readings versions 1 and 2 played.
READINGS: dict[str, tuple[str, ...]] = {"small_third": ("shift", "none"), "sic": ("twice", "once"),
                                        "peace_first_round": ("exempt", "turned")}
READING_DEFAULTS = {k: v[0] for k, v in READINGS.items()}
#: the readings that concern only games of 5-6 seats (absent from the options of smaller games)
FIVE_SIX_READINGS = ("peace_first_round",)


RELEASES = Releases("havoc", DATA_DIR, [
    Release("1", "2026-11-30", data=_DATA_1, rules={
        "full_recruits_any_take": False, "small_variant_shift": False, "peace_fresh_five_seats": False,
        "dogs_out": False, "loot_look": False, "recruit_asked": False, "dogs_out_asked": False,
        "gm_readings": False, "final_lay_strongest": False,
    }, windows=(
        ("2026-11-30T03:22:57+00:00", "2026-11-30T03:32:14+00:00",
         {"full_recruits_any_take": True, "small_variant_shift": True, "peace_fresh_five_seats": True}),
    ), changes=(
        "The first version: the base game and John of Gaunt, 2-6 seats.",
    )),
    # the battle deck's sources were rewritten under version 2 (landed 2026-12-01 02:13 UTC)
    Release("2", "2026-11-30", data=_DATA_2, data_before=(("2026-12-01T02:13:00+00:00", _DATA_1),), rules={
        "full_recruits_any_take": True, "small_variant_shift": True, "peace_fresh_five_seats": True,
        "dogs_out": True, "loot_look": True, "recruit_asked": False, "dogs_out_asked": False,
        "gm_readings": False, "final_lay_strongest": False,
    }, changes=(
        "When the recruits are full, the first card you take by any means (RECRUIT, SIC or LOOT) must "
        "come from the recruits.",
        "2-3 seats (small=on): the 2nd-place points are ignored and the lower places move up (Castillon "
        "pays 11-5-3-1-0); the Chevauchées keep their own scoring.",
        "The first-round exemption of the 1-2 Peace card is the 5-6 seat rule (it no longer comes with "
        "option peace=12).",
        "DOGS OUT 0|1|2|BEST: declare which of your laid Dogs of War stay out of the battle (added on "
        "2026-12-01; without it the strongest choice is made for you, as before).",
        "LOOT LOOK: stop at the Looting to look through the discard pile and name the card (added on "
        "2026-12-01; without it you take the highest card, as before).",
        "Data: the battle cards' sources now cite public pages; Agincourt's 8 points are verified. No "
        "figure changed.",
    )),
    Release("3", "2026-12-07", data=_DATA_2, rules={
        "full_recruits_any_take": True, "small_variant_shift": True, "peace_fresh_five_seats": True,
        "dogs_out": True, "loot_look": True, "recruit_asked": True, "dogs_out_asked": True,
        "gm_readings": True, "final_lay_strongest": True,
    }, changes=(
        "Recruiting is asked a part at a time: send RECRUIT DECK (or a recruit) alone and you are mailed "
        "the card you drew and asked for the next part (the second card, SIC or LOOT, then the LAY). "
        "A complete block (two RECRUIT lines and a LAY) is still carried out at once.",
        "Dogs of War out of a battle are declared at its end: a seat that laid Dogs and has a choice is "
        "asked (DOGS OUT 0, 1 or 2) unless it declared with its HAVOC, JOIN, ADD or PASS (or a STANDING "
        "DOGSOUT line). With no declaration the Dogs fight: the engine no longer picks the strongest "
        "choice for you (DOGS OUT BEST still asks for it).",
        "GM options for three readings the rulebook leaves open: small_third=shift|none (2-3 seats: does "
        "3rd place at Castillon score the 4th-place points?), sic=twice|once (two Sic 'em!s in one "
        "recruiting, or one Dog action a turn) and peace_first_round=exempt|turned (5-6 seats: is the Peace "
        "card left unturned in the game's first round, or turned to 1 as in every later round?); the "
        "defaults are the readings of version 2.",
        "A seat that sends no FINAL lays the strongest combination its hand allows at Castillon (of equally "
        "strong ones, the one that leaves fewest cards in hand); the engine's search used to miss it now and "
        "then (a straight flush laid without its kicker).",
    ), upgrade=_upgrade_to_3),
])


rule = RELEASES.rule
