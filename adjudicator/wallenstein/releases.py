"""Wallenstein's released rules versions: the rule points that differ, and the data each reads.

A game keeps the version it was created with (:mod:`adjudicator.versions`). Each rule point
below is read where its rule is implemented (``RELEASES.rule("box_pieces")``); a rules fix is
a new row, never an edit of a released one. docs/changelog-wallenstein.md is written from
``changes`` (tests/test_versions.py keeps it so).

Rule points:

- ``lost_card_stays_lost``: rule 4.1.6 note ("a vesztes azonmód átnyújtja a hódítónak az
  adott tartomány kártyáját"): a county lost in the season takes its action card with it, even
  if it is won back before the card comes up (1.0: the action happened if the seat held the
  county again when it came up).
- ``box_pieces``: rule 1, the box's pieces (28 palaces, 26 churches, 26 trading houses, 42
  revolt markers, 20 peasant cubes) are the limit, and running short is reported (1.0: only a
  county's building spaces limited buildings; revolt markers were unlimited).
- ``manoeuvre_choices``: ATTACKA/ATTACKB may say ELSE, LEAVE and IF (the decision a player takes
  when the card comes up at the table); 1.0 refuses them.
- ``famine_order``: rule 4.2.2, the FAMINE order sets the order a seat's famine revolts are
  fought in ("ő dönti el, milyen sorrendben"); in 1.0 they were fought in the order drawn and
  the order is refused.
- ``recruit1_always_recruits``: rule 4.1.3 item 8 ("bárhány seregét átmozgathatja": the move
  is a "may") and 4.1.6 (an action that can be carried out must be): recruit-and-move 1 always
  recruits, and only a planned move that became impossible is dropped. True in every release;
  main read it otherwise (no recruit when the move could not be made) until 2026-11-30 03:20:36
  UTC, under version 1.0's name.
- ``recruit_tile_sets_six``: the recruit tile ("6 sereg") is absolute and applies after the
  event (4.1.3 "Fontos"): recruit 5 with the tile places 6 armies even under the event that
  reduces recruiting. True in every release; until 2026-11-30 03:23:38 UTC main added one army
  to the action's (the event's) number, with a supply of more than that number.
- ``favour_none_refuses_at``: ``FAVOUR NONE`` takes no county, so ``FAVOUR NONE AT <county>``
  is refused. True in every release; until 2026-11-30 02:53:05 UTC main accepted it.

The last three are read otherwise only by the games created in those minutes (``windows``:
the creation moment is the ``GameCreated`` event's, in the hash chain).

From version 1.2 on (the table decisions the engine used to take for a player, rule 1's coins,
and the GM's choice between two readings):

- ``draft_choices``: rule 3.3 ("átrakja játékostáblájáról az egyik ottani csoport összes
  seregét": the player chooses the group for the county just taken) and its note ("azokat, ha
  akarja, a pakli aljára rakhatja"): ``DRAFT <county> WITH <group>`` and ``REFRESH``.
- ``favour_counties``: ``FAVOUR ... AT <county>, <county>, ...``: the counties a favour card's
  effect is tried in, in order (rule 9.4: the player carries the card out when taking it).
- ``recruit_tile_choice``: the recruit tile "6 sereget rakhat le" (may place 6):
  ``RECRUIT5 <county> NO TILE`` places the action's number instead.
- ``draft_asked``: rule 3.3 ("Először a legidősebb játékos választ tartományt ... Utána a tőle
  balra ülő játékos következik ... körbe és körbe"): each pick is a decision of its own, asked
  of the seat whose pick it is when it comes up (pending kind ``draft``, one seat, turn
  ``setup/pick-N``), with the face-up pair and the map as they are then; a seat's ``DRAFT``,
  ``GROUPS`` and ``REFRESH`` lines are standing orders, used at its pick while a wish of the
  list is face up (or the list ends with ``DECK``); the seat is asked otherwise, and at a
  deadline draws the top card of the deck. Before 1.2 the draft was one simultaneous decision
  of every seat's whole wish list.
- ``chosen_notes``: every choice the engine makes for a seat (no GROUPS, BONUS, FAVOUR or FAMINE
  line; a favour's county; the tile's 6; a stale draft pair kept; missed orders) is a
  ``ChosenForSeat`` event that only that seat (and the GM) sees.
- ``bank_limit``: rule 1, "60 érme: 20 egytalléros, 20 kéttalléros és 20 öttalléros": the
  players hold at most 160 Taler; a tax the bank cannot pay in full is not collected (4.1.6).
- ``reading_options``: the GM options ``palace_event`` and ``bank`` (docs/wallenstein-rules.md,
  "Readings"), recorded in ``GameCreated``.
"""

from __future__ import annotations

import os
from typing import Any

from adjudicator.versions import Release, Releases

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")

_DATA_1_0 = {
    "counties.json": "6c9a9ddd62ef4084e6042519150b5c2999d2974c814bac5dd13ca767d1bf02b5",
    "court.json": "0a4283a353ccec3beda0184453e003ccf4b52c32eaf494f8e373ec4c0a96b60c",
    "events.json": "49d50da7a3cf42d75f34af1b20956e5968eb58811264b2d668d4d0278502c12f",
    "famine.json": "15ed7b49ae85b2565fe28fcbdd10f6a9a7fdb985a7919a2d5112192ee2b251e8",
    "favour_cards.json": "f5ec1a0d661843785a56be8b54f941e8c99d9e3cae28cb1c5d3ecfcfc4284e3e",
    "rules.json": "8b2d5a3c435f13515dcffb1b8d8be9b27111defb2616f2723732703e9bfeea6b",
    "setup.json": "bdbe9943a198a80532aa1447100c38123cd887d1f6bcc84cf6b7d096e8582616",
    "tower.json": "c00714ce10079090d35326fa8732c04654f771afcf9afd5596673d3b3a4849c8",
}
_DATA_1_1 = {
    "counties.json": "7c5407ecb9015469308c6cd2e760b9d4a2ee088c1171266a4b186c1f8be88a52",
    "court.json": "a12d4c059fce5c1110df4cb5d3ba43f22fec97050c0fcc2134b94bed36b78dd8",
    "events.json": "94a55e41ac591455b5c7b904546b253234d40303db6139a373c4d49ccaa516ce",
    "famine.json": "15ed7b49ae85b2565fe28fcbdd10f6a9a7fdb985a7919a2d5112192ee2b251e8",
    "favour_cards.json": "48bf91f61f6cece240df0439ea217103a47f8e5e33758006aca84f933f748ad8",
    "rules.json": "8bde2f96c98f750e96eb40a1b653aaafbad317381b64c109d815fd1601f2cdd4",
    "setup.json": "7f8670fe52ea6a5368b83c40849fa972e56e21d8331ba62d7404bd9535f0ddca",
    "tower.json": "3c8bee1f8f53b6d183f40726b9773737d57e9199acf187518a04b7199ca1f501",
}

_DATA_1_2 = {**_DATA_1_1, "rules.json": "790f93266f188430f1d03826f3cbde9ce5850ce1e02afeacf96460bf4367c014",
             "court.json": "31152cf6fa6bd4058a64e0056eacacdfbf992b5f5887242db39767a003c9504b"}

#: the rule points that came with version 1.2 (false before it)
_NEW_1_2 = ("draft_choices", "draft_asked", "favour_counties", "recruit_tile_choice", "chosen_notes", "bank_limit", "reading_options")
_BEFORE_1_2 = {point: False for point in _NEW_1_2}


def begin_draft_asked(state: dict[str, Any]) -> None:
    """Add what a draft asked pick by pick keeps to ``state["draft"]`` (rule 3.3: the picks go
    round the table from the first seat; a new game of 1.2, or a game of 1.0/1.1 waiting for its
    draft and moved to 1.2). Kept here, beside the upgrade that needs it, so that the release
    table imports nothing of the engine (the engine's modules import the table)."""
    draft = state["draft"]
    printed = list(RELEASES.load("setup.json")["army_groups"][str(len(state["seats"]))])
    draft.setdefault("pick", 1)
    draft.setdefault("left", {s: list(printed) for s in state["seats"]})
    draft.setdefault("last_pair", {s: None for s in state["seats"]})
    draft.setdefault("standing", {})
    draft.setdefault("printed", [])
    draft.setdefault("picks", [])
    draft.setdefault("refreshed", False)


def _upgrade_to_1_2(state: dict[str, Any]) -> dict[str, Any]:
    """A state of 1.1 as 1.2 keeps it: a game still waiting for its draft drafts one pick at a
    time from the first (``draft_asked``); everything else is kept alike."""
    if state.get("phase") == "draft" and state.get("draft") is not None:
        begin_draft_asked(state)
    return state

RELEASES = Releases("wallenstein", DATA_DIR, [
    Release("1.0", "2026-11-30", data=_DATA_1_0, rules={
        "lost_card_stays_lost": False, "box_pieces": False, "manoeuvre_choices": False, "famine_order": False,
        "recruit1_always_recruits": True, "recruit_tile_sets_six": True, "favour_none_refuses_at": True,
        **_BEFORE_1_2,
    }, windows=(
        (None, "2026-11-30T02:53:05+00:00", {"favour_none_refuses_at": False}),
        (None, "2026-11-30T03:20:36+00:00", {"recruit1_always_recruits": False}),
        (None, "2026-11-30T03:23:38+00:00", {"recruit_tile_sets_six": False}),
    ), changes=(
        "The first version: the base game and the Imperial Court, random or drafted setup.",
    )),
    Release("1.1", "2026-12-01", data=_DATA_1_1, rules={
        "lost_card_stays_lost": True, "box_pieces": True, "manoeuvre_choices": True, "famine_order": True,
        "recruit1_always_recruits": True, "recruit_tile_sets_six": True, "favour_none_refuses_at": True,
        **_BEFORE_1_2,
    }, changes=(
        "A county you lose during a season takes its action card with it at once: its action is not "
        "carried out even if you win the county back before the card comes up (rule 4.1.6).",
        "The box's pieces are the limit: 28 palaces, 26 churches, 26 trading houses, 42 revolt markers and "
        "20 peasant armies. A building with none of its kind left is not built, a revolt marker with none "
        "left is not placed, and a battle takes only the peasants still in the supply; the report says so "
        "(rule 1).",
        "ATTACKA and ATTACKB may say what you would decide when the card comes up: ELSE <county> <armies> "
        "(another target if the first cannot be carried out), LEAVE <n> (armies that stay behind) and "
        "IF <n> (only with at least n armies there). See the order guide.",
        "FAMINE <county>, <county>, ...: the order your famine revolts are fought in this winter "
        "(rule 4.2.2); without it they are fought in the order drawn.",
        "Data: the figures' sources now cite the rulebook or public pages; no figure changed.",
    )),
    Release("1.2", "2026-12-07", data=_DATA_1_2, rules={
        "lost_card_stays_lost": True, "box_pieces": True, "manoeuvre_choices": True, "famine_order": True,
        "recruit1_always_recruits": True, "recruit_tile_sets_six": True, "favour_none_refuses_at": True,
        **{point: True for point in _NEW_1_2},
    }, upgrade=_upgrade_to_1_2, changes=(
        "Your report has a section \"Chosen for you\": whenever the game decides something for you because "
        "your orders did not say it (no GROUPS, BONUS, FAVOUR or FAMINE line, a favour card's county, the "
        "recruit tile's 6 armies, a stale draft pair left face up, missed orders), it says what and why. "
        "Only you and the GM see it.",
        "Draft: DRAFT <county> WITH <group> puts that group on the county if you get it, and REFRESH puts "
        "the two face-up cards under the deck when they are still the two you chose from at your previous "
        "pick (rule 3.3 and its note). See the order guide.",
        "Draft: each pick is asked when it comes up, from the player whose pick it is, with the two face-up "
        "cards and the map as they are then (rule 3.3). Your DRAFT, GROUPS and REFRESH lines are kept as standing "
        "orders and make your pick while one of your wishes is face up; a wish taken by another player is "
        "skipped; end the list with DECK to draw the top card of the deck when none is, otherwise you are asked. "
        "With no answer by the deadline you draw the top card of the deck.",
        "FAVOUR ... AT <county>, <county>, ...: the counties a favour card's effect is tried in, in your order.",
        "RECRUIT5 <county> NO TILE: with the recruit tile, place the action's armies instead of 6 "
        "(the tile says you may place 6).",
        "The bank holds the box's coins, 160 Taler: the players never hold more than 160 together. A tax the "
        "bank cannot pay in full is not collected, and a favour card pays what the bank still has (rule 1). "
        "The GM may play an unlimited bank (option bank=unlimited).",
        "Two readings the rulebook leaves open are the GM's choice when the game is created: "
        "palace_event=attacks (the default) or revolts (the palace event's extra army defends in "
        "revolts too), and bank=160 or unlimited. The game's record names them.",
        "Data: the court's step 1 in turn order is no longer marked provisional: the other reading "
        "(the left-hand neighbour) gives the same game.",
    )),
])

rule = RELEASES.rule
