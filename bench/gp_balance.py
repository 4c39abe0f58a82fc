"""God's Playground: how hard the enemies press, with the bots, under board variants.

Plays seeded games with three bots and counts, per game, the invasions that land, the raids,
the estates lost in each round and the estates still held at the end. The variants pass a
modified board file as the game option ``board_json`` (as a GM with the printed board would):

- ``base``: the packaged board file;
- ``weak``: every provisional enemy strength 2 lower (at least 1);
- ``arrow1``: one raid arrow for every enemy but the black one (whose two are stated);
- ``royal``: the royal army table one infantry and one cavalry stronger per row.

docs/gods-playground-rules.md ("Why the bots see Poland overrun") quotes its figures. Run
``.venv/bin/python -m bench.gp_balance [games] [heuristic|random] [variant ...]``.
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
from collections import Counter
from typing import Any

from adjudicator.chance import Chance
from adjudicator.gods_playground import ENGINE
from adjudicator.gods_playground.board import BOARD_FILE
from adjudicator.gods_playground.bots import heuristic_orders, random_orders

SEATS = ["white", "blue", "red"]
BOTS = {"heuristic": heuristic_orders, "random": random_orders}
VARIANTS = ("base", "weak", "arrow1", "royal")


def variant(name: str) -> dict[str, Any]:
    """The packaged board file changed as the variant says (names may be joined by +)."""
    with open(BOARD_FILE, encoding="utf-8") as fh:
        raw = json.load(fh)
    raw = copy.deepcopy(raw)
    for part in name.split("+"):
        if part == "weak":
            for enemy in raw["enemies"].values():
                for fig in enemy["strength"]:
                    if fig["value"] and fig["status"] == "provisional":
                        fig["value"] = max(1, fig["value"] - 2)
        elif part == "arrow1":
            for key, enemy in raw["enemies"].items():
                if key != "black":
                    enemy["raids"]["value"] = enemy["raids"]["value"][:1]
        elif part == "royal":
            for row in raw["royal_army_table"]["value"]:
                row["inf"], row["cav"] = min(4, row["inf"] + 1), min(4, row["cav"] + 1)
        elif part != "base":
            raise SystemExit(f"unknown variant {part!r} (known: {', '.join(VARIANTS)})")
    return raw


def play(seed: str, bot: Any, options: dict[str, str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One game's final state and derived events."""
    state, events = ENGINE.create(SEATS, options, seed)
    rng = Chance("bot:" + seed)
    steps = 0
    while (p := ENGINE.pending(state)) is not None:
        orders = {s: bot(state, s, rng.stream(f"{steps}/{s}")) for s in p.seats}
        state, new = ENGINE.advance(state, orders, seed)
        events += new
        steps += 1
    return state, events


def measure(games: int, bot_name: str, name: str) -> dict[str, Any]:
    """The averages per game for one variant."""
    options = {} if name == "base" else {"board_json": json.dumps(variant(name))}
    lost: Counter[int] = Counter()
    landed = raids = 0
    kept: list[int] = []
    for g in range(games):
        state, events = play(f"balance-{g}", BOTS[bot_name], options)
        for e in events:
            if e["type"] == "Invasion" and e.get("cubes", 0) > 0:
                landed += 1
            elif e["type"] == "Raid":
                raids += 1
            elif e["type"] == "Estates":
                lost[e["round"]] += sum(len(r["lost"]) for r in e["provinces"].values())
        kept.append(sum(1 for p in state["prov"].values() for est in p["estates"] if est["owner"]))
    return {"variant": name, "bot": bot_name, "games": games, "invasions": landed / games, "raids": raids / games,
            "estates_lost_by_round": [round(lost[r] / games, 1) for r in range(1, 5)],
            "estates_held_at_end": statistics.mean(kept)}


def main(argv: list[str]) -> None:
    """Print one JSON row per variant."""
    games = int(argv[0]) if argv else 60
    bot_name = argv[1] if len(argv) > 1 else "heuristic"
    for name in argv[2:] or VARIANTS:
        print(json.dumps(measure(games, bot_name, name)))


if __name__ == "__main__":
    main(sys.argv[1:])
