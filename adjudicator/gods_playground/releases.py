"""God's Playground's released rules versions: the rule points that differ, and the data each reads.

A game keeps the version it was created with (:mod:`adjudicator.versions`); a rules fix is a
new row, never an edit of a released one. docs/changelog-gods-playground.md is written from
``changes``.

Rule points (seed 004, the Hungarian rules):

- ``treaty_campaign_on_cubes``: Phase 10, "A tartományon lévő ellenségkocka akkor is
  támadható, ha amúgy egyezség van kötve az adott ellenséggel": a campaign against an enemy
  under treaty may clear its cubes on the province (no hit cubes on its box); in "1" no
  campaign against it at all.
- ``estate_choice``: Phase 8, "eldönti, melyikhez rakja az intézőt": ``ON <value>`` names the
  estate that gets a steward or a town; refused in "1" (the most valuable one is taken).
- ``arms_needs_disc``: right of arms puts one of the seat's discs on the estate, so it needs
  one; "1" did not check.
- ``turks_fixed_for_round``: the Turks' overrun of the Habsburgs (round 3) and the Turkish box
  of round 4 hold for the round even when a counterattack clears the box (reference page); in
  "1" they were read from the box as it stood at each moment.
"""

from __future__ import annotations

import os
from typing import Any

from adjudicator.versions import Release, Releases

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")


def _upgrade_to_2(state: dict[str, Any]) -> dict[str, Any]:
    """A state of version 1 as version 2 keeps it: the Turks' overrun and the Turkish box of
    round 4 are read from the Habsburgs' box as it stands at the upgrade (version 1's reading
    at that moment), then fixed for the rest of the round."""
    held = state["box"]["habsburgs"]["turks"] > 0
    return {**state, "turks_overran": held and state["round"] >= 3, "turkish_habsburgs": held and state["round"] == 4}


RELEASES = Releases("gods-playground", DATA_DIR, [
    Release("1", "2026-12-01", data={"board.json": "b89ece2256335c3a71a78210843c67960aebb873a222a6b04ca9f7d13828f876"}, rules={
        "treaty_campaign_on_cubes": False, "estate_choice": False, "arms_needs_disc": False,
        "turks_fixed_for_round": False,
    }, changes=(
        "The first version: the whole game for 3 seats, with plans sent in advance.",
    )),
    Release("2", "2026-12-01", data={"board.json": "a675e8701e0607eb0228dc9a7852d16daebbccb5e8147920d02020d0a4403111"}, rules={
        "treaty_campaign_on_cubes": True, "estate_choice": True, "arms_needs_disc": True,
        "turks_fixed_for_round": True,
    }, changes=(
        "A campaign against an enemy you have a treaty with may attack its cubes on the province (Phase "
        "10); no hit cubes go on its box.",
        "STEWARD and TOWN may name the estate: ON <value> (Phase 8: the player decides which estate); "
        "without it the most valuable one is taken, as before.",
        "Right of arms puts one of your discs on the estate, so it needs a disc left.",
        "The Turks' overrun of the Habsburgs in round 3, and the Turkish box of round 4, hold for the "
        "whole round even if a counterattack clears the Habsburgs' box (reference page).",
        "Board data: the Turks' provisional strength is 4 in rounds 1 and 2 (it was 6 and 8); sources shortened.",
    ), upgrade=_upgrade_to_2),
])

rule = RELEASES.rule
