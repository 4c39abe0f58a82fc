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
- ``gm_readings``: the GM options ``turks_from_habsburgs`` and ``habsburg_influence``
  (docs/gods-playground-rules.md).
- ``influence_track``: Phase 11 Example 2, „A forduló elején 4 befolyásjelző került fel a
  dobozra, a 11. fázis elején még egy”: in rounds 1-3 the Habsburgs' box gets the influence
  markers of its strength track at the start of the round (GM reading ``habsburg_influence``,
  ``track`` by default; the board's figures for rounds 1-3), besides those of the 5s; in
  "1"/"2" only the 5s put markers there.
- ``recruit_one_tile``: Phase 9, „Játéksorrendben mind vásárolhattok egyetlen sereglapkát,
  felrakva azt egy tartományra.”: a recruitment turn places one army tile (a Cossack is one);
  a RECRUIT naming several is a standing list, placed one tile a turn; in "1"/"2" one turn
  placed them all.
- ``vp_track_disc``: Components „16 vörös korong” and Phase 15 „A győzelmi pontokat a győzelmi
  sávon kell jelölötök, a korongok segítségével.”: one of a seat's 16 discs marks its score,
  so at most 15 go on estates and the Sejm; in "1"/"2" all 16.
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
                 "cossacks_tatars_only": False, "cannon_on_province": False, "bank_limit": False, "gm_readings": False,
                 "influence_track": False, "recruit_one_tile": False, "vp_track_disc": False}
_NEW_READINGS = {key: True for key in _OLD_READINGS}

def _upgrade_to_3(state: dict[str, Any]) -> dict[str, Any]:
    """A state of version 2 as version 3 keeps it: the GM's readings, at their defaults (the
    printed sentence: Turks leave the Habsburgs' box into Greater Poland always; influence
    markers from the Habsburgs' strength track, from the next round's start), but a game on a
    GM's board file of version 2, which gives no track, keeps the 5s alone (``dice``); upgraded
    during a recruitment phase, the provinces where a seat already has units are the ones it
    paid its noble cube for in that phase (units stand on the board only from this round's
    recruitment)."""
    influence = "track" if state.get("board") is None else "dice"
    out = {**state, "readings": {"turks_from_habsburgs": "always", "habsburg_influence": influence}}
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
    Release("3", "2026-12-07", data={"board.json": "a7da778b0cc43550e13f0aad978be139ce2d8ed1633b158ca15249d2b5aa568d"}, rules={
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
        "Habsburg influence, rounds 1-3: at the start of the round the markers of the Habsburgs' "
        "strength track go on their box (provisional 3, 4, 5), besides one for each 5 rolled (Phase 11 "
        "Examples 2 and 3). The GM may keep the 5s alone: --option habsburg_influence=dice.",
        "Recruitment: one army tile a turn, a Cossack too (Phase 9); a RECRUIT line of several units is "
        "placed one tile a turn, the rest waiting for your next turns, so one mail still does the round.",
        "Discs: one of your 16 marks your score, so at most 15 go on estates and the Sejm (Phase 15).",
        "Board data: the Habsburgs' strength track for rounds 1-3 (provisional influence markers).",
    ), upgrade=_upgrade_to_3),
])

rule = RELEASES.rule
