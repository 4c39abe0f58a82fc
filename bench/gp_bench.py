"""God's Playground: advance time per decision and random games per minute (one core).

Targets: median advance <= 1 ms per decision; >= 1,000 random games a minute.
Orders come from the random legal bot; the time of choosing them is not counted in the
advance time, but is in the games per minute, which are measured in CPU time (one core,
whatever else the machine runs) with the wall-clock rate in the note.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from adjudicator.chance import Chance
from adjudicator.gods_playground import ENGINE

QUICK = bool(os.environ.get("BENCH_QUICK"))
SEATS = ["white", "blue", "red"]


def play(seed: str, timings: list[float] | None = None) -> int:
    """One random game; returns the decisions it took (appends each advance's seconds)."""
    state, _ = ENGINE.create(SEATS, {}, seed)
    bot = Chance("bot:" + seed)
    steps = 0
    while (p := ENGINE.pending(state)) is not None:
        orders = {s: ENGINE.random_orders(state, s, bot.stream(f"{steps}/{s}")) for s in p.seats}
        start = time.perf_counter()
        state, _ = ENGINE.advance(state, orders, seed)
        if timings is not None:
            timings.append(time.perf_counter() - start)
        steps += 1
    return steps


def run() -> list[dict[str, Any]]:
    """The two rows."""
    timings: list[float] = []
    games = 5 if QUICK else 50
    for g in range(games):
        play(f"bench-gp-adv-{g}", timings)
    median = statistics.median(timings) * 1000
    p95 = sorted(timings)[int(len(timings) * 0.95)] * 1000
    count = 10 if QUICK else 100
    start, cpu = time.perf_counter(), time.process_time()
    decisions = sum(play(f"bench-gp-{g}") for g in range(count))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return [
        {"bench": "gods-playground", "measure": "advance per decision (median)", "value": median, "unit": "ms",
         "note": f"p95 {p95:.3g} ms over {len(timings)} decisions; target <= 1 ms"},
        {"bench": "gods-playground", "measure": "random games per minute (one core: CPU time)",
         "value": count / cpu * 60, "unit": "games/min",
         "note": f"{count} games, {decisions} decisions, {cpu:.2f} s CPU ({count / elapsed * 60:.0f}/min by the wall "
                 "clock on a shared machine); target >= 1,000"},
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
