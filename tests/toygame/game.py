"""The toy game's registry entry: everything the shared code asks about it."""

from __future__ import annotations

from adjudicator.gameinfo import GameInfo

NAME = "toy-dice-race"

GAME = GameInfo(
    name=NAME,
    engine="tests.toygame.engine",
    grammar=("tests.toygame.grammar",),
    warnings="tests.toygame.grammar:order_warnings",
    renderer="tests.toygame.reports:render",
    names="tests.toygame.reports",
    problems="tests.toygame.problems",
    label_root="dicerace",
    label_prefix="round ",  # "dicerace/2/dice" -> "round 2 dice"
    seat_names=("orange", "green", "purple"),
    palette=("orange", "green", "purple"),
    transcribe_hints=("round N dice: rolled 4 -- each seat's die of round N, in seat order (one line per die)",),
    chart_unit="round",
    demo_note="(Dice race: three rounds of secret bids)",
)
