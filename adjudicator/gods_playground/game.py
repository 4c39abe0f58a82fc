"""God's Playground's registry entry (:class:`adjudicator.gameinfo.GameInfo`): where its grammar
and reports live, its seat names, doc pages, chance words and transcriber's hints. Small and
free of the engine: reading it loads none of the game's tables."""

from __future__ import annotations

from adjudicator.gameinfo import GameInfo

GAME = GameInfo(
    name="gods-playground",
    engine="adjudicator.gods_playground",
    grammar=("turns.gods_playground", "turns.gods_playground_plan"),
    bot="adjudicator.gods_playground.bots:heuristic_orders",
    renderer="reports.gods_playground.render:render",
    content="reports.gods_playground.content",
    names="reports.gods_playground.naming",
    problems="reports.gods_playground.problems",
    label_root="gods_playground",
    label_prefix="round ",  # "gods_playground/3/campaign/2" -> "round 3 campaign 2"
    seat_names=("white", "blue", "red"),  # seed 004: the white, blue and red families
    order_pages=("orders-gods-playground.md",),
    rules_pages=("gods-playground-rules.md",),
    transcribe_hints=(
        "every die rolled, one line per roll, named by the round and what was rolled for: 'round 1 events: "
        "rolled 2, 2, 4, 6' (and 'round N invasions'), 'round 2 white's campaign against the Tatars: rolled "
        "5, 3, 1' (the seat's troops, then the Cossacks, then the royal army), 'round 2 white's counterattack on "
        "<province>', 'round 3 blue's diplomacy die: rolled 5', 'round 2 defence of <province> against the "
        "Turks' (each seat's units in seat order, then the Cossacks); a second roll of the same words in a round "
        "is the next such line; the older 'round 2 campaign 14' (the internal step) still reads",
        "orders: docs/orders-gods-playground.md"),
)
