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

Games of "1" created between the rules review's first commit and version 2's name on main
(2026-11-30 03:22:57 to 03:32:14 UTC) read the review's first three rule points as "2" does
(``windows``: the creation moment is the ``GameCreated`` event's, in the hash chain).
"""

from __future__ import annotations

import os

from adjudicator.versions import Release, Releases

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")

_SETUP = "7b6a9fe2327ff76231c676b7af2e98780ac1f7669c418cf465eb8418d48c8f4f"
_DATA_1 = {"battles.json": "29ba8831c30cd964795ed4fb04dcd903eefd6f9e2ab47f90155d9a1739f2bb0b", "setup.json": _SETUP}
_DATA_2 = {"battles.json": "e19f25d0fee20ee444b309f30d89472390b1cf777c8e00923da6e4cc47a3c264", "setup.json": _SETUP}

RELEASES = Releases("havoc", DATA_DIR, [
    Release("1", "2026-11-30", data=_DATA_1, rules={
        "full_recruits_any_take": False, "small_variant_shift": False, "peace_fresh_five_seats": False,
        "dogs_out": False, "loot_look": False,
    }, windows=(
        ("2026-11-30T03:22:57+00:00", "2026-11-30T03:32:14+00:00",
         {"full_recruits_any_take": True, "small_variant_shift": True, "peace_fresh_five_seats": True}),
    ), changes=(
        "The first version: the base game and John of Gaunt, 2-6 seats.",
    )),
    # the battle deck's sources were rewritten under version 2 (landed 2026-12-01 02:13 UTC)
    Release("2", "2026-11-30", data=_DATA_2, data_before=(("2026-12-01T02:13:00+00:00", _DATA_1),), rules={
        "full_recruits_any_take": True, "small_variant_shift": True, "peace_fresh_five_seats": True,
        "dogs_out": True, "loot_look": True,
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
])

rule = RELEASES.rule
