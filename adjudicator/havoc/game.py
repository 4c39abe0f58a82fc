"""Havoc's registry entry (:class:`adjudicator.gameinfo.GameInfo`): where its grammar and reports
live, its doc pages, chance words and transcriber's hints. Small and free of the engine:
reading it loads none of the game's tables."""

from __future__ import annotations

from typing import Any

from adjudicator.gameinfo import GameInfo


def standing_when(pending: Any) -> str:
    """The decision name standing orders use (docs/orders-havoc.md, "Standing and conditional
    orders"): a battle's first round is ``join``, a later one ``round``; else the kind."""
    if pending.kind == "battle":
        return "join" if pending.info.get("round") == 1 else "round"
    return str(pending.kind)


GAME = GameInfo(
    name="havoc",
    engine="adjudicator.havoc",
    grammar=("turns.havoc",),
    warnings="turns.havoc_warnings:order_warnings",
    renderer="reports.havoc.render:render",
    content="reports.havoc.content",
    names="reports.havoc.naming",
    problems="reports.havoc.problems",
    public_record="reports.havoc.recruits:public_record",
    label_root="havoc",
    # records written before reshuffles were named by battle: "b3 deck reshuffle 1"
    older_labels=((r"^battle (\d+) (deck reshuffle \d+)$", r"b\1 \2"),),
    order_pages=("orders-havoc.md",),
    rules_pages=("havoc-rules.md",),
    transcribe_hints=(
        "deal initial: hands <seat> <its 7 ordinary cards>; <next seat> ...; recruits <the 3 recruits> (each "
        "seat's Dog of War is dealt apart); deal deck: the draw pile, top card first (those not named follow "
        "as listed); a reshuffle of the discard adds 'battle N deck reshuffle M: order ...' (N: the battle "
        "being played towards, M: the game's reshuffles so far)", "orders: docs/orders-havoc.md"),
    standing_when=standing_when,
    chart_unit="battle",
)
