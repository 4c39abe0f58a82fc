"""Wallenstein's registry entry (:class:`adjudicator.gameinfo.GameInfo`): where its grammar and
reports live, its seat colours, doc pages, chance words and transcriber's hints. Small and
free of the engine: reading it loads none of the game's tables."""

from __future__ import annotations

from adjudicator.gameinfo import GameInfo


GAME = GameInfo(
    name="wallenstein",
    engine="adjudicator.wallenstein",
    grammar=("turns.wallenstein",),
    warnings="turns.wallenstein_warnings:order_warnings",
    bot="adjudicator.wallenstein.bot:heuristic_orders",
    renderer="reports.wallenstein.render:render",
    content="reports.wallenstein.content",
    names="reports.wallenstein.naming",
    problems="reports.wallenstein.problems",
    describe_event="reports.wallenstein.events:describe",
    label_root="wallenstein",
    # records written before battles were numbered by county: "1618-summer battle 2 tower"
    older_labels=((r"^(\d{4}-\w+ battle \d+) for .+$", r"\1 tower"),),
    # the engine colours seats red, blue, yellow, black, purple in seat order: a demo's seats
    # named the same are drawn in their own colour on the map
    seat_names=("red", "blue", "yellow", "black", "purple"),
    palette_from="adjudicator.wallenstein.data:piece_colours",
    order_pages=("orders-wallenstein.md",),
    rules_pages=("wallenstein-rules.md",),
    option_pages=(("expansion", "court", "wallenstein-court.md"),),
    transcribe_hints=(
        "out red 3, peasants 1; stayed red 1 -- a tower throw: the cubes that fell out, by colour, then those "
        "left inside (rule 5.1); '; stayed ...' may be left out (nobody sees inside the tower: the import works it "
        "out); setup tower = the first filling (rule 3.5)",
        "each battle adds a line 'CHANCE <year>-<season> battle N for <county>: out ...; stayed ...', N counting "
        "the season's battles (revolts too) in the order they were fought, or 'battle for <county>' without N; "
        "the import asks for a missing one with the colours thrown in; winter adds famine and event lines",
        "orders: docs/orders-wallenstein.md",
    ),
    transcribe="adjudicator.wallenstein.transcribing",
    demo_note="(Wallenstein: spring, summer and autumn of two years; each winter is resolved with its autumn)",
)
