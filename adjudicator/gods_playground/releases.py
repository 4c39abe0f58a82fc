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

From version 3 (the third reading):

- ``rebid_all_zero``: Phase 3, „Ha a licit is egyenlő volt, a licitek a bankba kerülnek, és
  új licitet kell tartanotok, addig, amíg valaki nem győz.”: tied bids of 0 are bid again
  (the marker stays only when no tied seat has any money); in "1"/"2" the marker stayed.
- ``recruit_cube_per_province``: Phase 9, „onnét el kell távolítania egy nemeskockáját; ezután
  már bárhány egységet toborozhat ide”: one noble cube per province per recruitment phase; in
  "1"/"2" one cube every recruitment turn.
- ``turkish_box_keeps_cubes``: round 4, the Turkish Habsburg box's cubes are its strength
  (Phase 5: a 5 is a Turkish cube there; Phase 11: base 10) and its garrison, so none move into
  Greater Poland in the raids; in "1"/"2" those above 2 moved as well (counted twice).
- ``cossacks_tatars_only``: Phase 10, „A kozákok csak a tatárokat támadják.”: in defence too
  the Cossacks fight the Tatars only, and only beside a Polish infantry or cavalry there
  (Phase 11: „A harc szabályai megegyeznek a hadjáratoknál leírtakkal.”); in "1"/"2" they
  rolled against any invader or raider of Ukraine, alone if need be.
- ``cannon_on_province``: Phase 10, „Ha a tartományon van ágyú, minden dobás eredményéhez +1
  járul.”: any cannon on the province; in "1"/"2" only the rolling seat's own.
- ``bank_limit``: „A pénz elvileg korlátos - amennyi érme van a játékban”: the bank holds 22
  gold (5) and 22 silver (1) coins, 132 thalers, and pays no more than it holds.
- ``gm_readings``: the GM option ``turks_from_habsburgs`` (docs/gods-playground-rules.md).
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


_OLD_READINGS = {"rebid_all_zero": False, "recruit_cube_per_province": False, "turkish_box_keeps_cubes": False,
                 "cossacks_tatars_only": False, "cannon_on_province": False, "bank_limit": False, "gm_readings": False}
_NEW_READINGS = {key: True for key in _OLD_READINGS}

def _upgrade_to_3(state: dict[str, Any]) -> dict[str, Any]:
    """A state of version 2 as version 3 keeps it: the GM's readings, at their defaults (the
    printed sentence: Turks leave the Habsburgs' box into Greater Poland always); upgraded
    during a recruitment phase, the provinces where a seat already has units are the ones it
    paid its noble cube for in that phase (units stand on the board only from this round's
    recruitment)."""
    out = {**state, "readings": {"turks_from_habsburgs": "always"}}
    if state["phase"] == "recruit":
        paid = {seat: [p for p, prov in state["prov"].items() if any(prov["units"][seat].values())]
                for seat in state["seats"]}
        out["q"] = {**state["q"], "paid": {seat: ps for seat, ps in paid.items() if ps}}
    return out


RELEASES = Releases("gods-playground", DATA_DIR, [
    Release("1", "2026-12-01", data={"board.json": "b89ece2256335c3a71a78210843c67960aebb873a222a6b04ca9f7d13828f876"}, rules={
        "treaty_campaign_on_cubes": False, "estate_choice": False, "arms_needs_disc": False,
        "turks_fixed_for_round": False, **_OLD_READINGS,
    }, changes=(
        "The first version: the whole game for 3 seats, with plans sent in advance.",
    )),
    Release("2", "2026-12-01", data={"board.json": "a675e8701e0607eb0228dc9a7852d16daebbccb5e8147920d02020d0a4403111"}, rules={
        "treaty_campaign_on_cubes": True, "estate_choice": True, "arms_needs_disc": True,
        "turks_fixed_for_round": True, **_OLD_READINGS,
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
    Release("3", "2026-12-07", data={"board.json": "a675e8701e0607eb0228dc9a7852d16daebbccb5e8147920d02020d0a4403111"}, rules={
        "treaty_campaign_on_cubes": True, "estate_choice": True, "arms_needs_disc": True,
        "turks_fixed_for_round": True, **_NEW_READINGS,
    }, changes=(
        "Election of the king: when the tied players all bid 0 they bid again (Phase 3: new bids until "
        "someone wins); the marker stays only when none of them has a thaler. A missed re-bid is 1 thaler.",
        "Recruitment: one noble cube per province for the whole phase; later recruitments there that "
        "phase cost no cube (Phase 9: one cube, then any number of units there).",
        "Round 4: a 5 rolled for the Turkish Habsburg box adds to its strength only; no Turkish cubes "
        "leave that box for Greater Poland in the raids (they were counted twice).",
        "The Cossacks fight only the Tatars, in defence too, and only beside a Polish infantry or "
        "cavalry on Ukraine (Phase 10).",
        "A cannon adds +1 to every roll on its province, whoever owns it (Phase 10).",
        "The bank holds 132 thalers (22 gold, 22 silver coins) and pays out no more than it holds.",
        "A new game's GM may choose how Turks leave the Habsburgs' box: --option "
        "turks_from_habsburgs=like-a-raid (not into Greater Poland while Turkish cubes stand there).",
    ), upgrade=_upgrade_to_3),
])

rule = RELEASES.rule
