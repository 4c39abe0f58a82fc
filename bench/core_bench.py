"""Replay against the floor of reading the events; random games per minute; store scaling."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from adjudicator.chance import Chance
from adjudicator.registry import engine_names, get_engine
from pbem.store.events import fold
from pbem.loop.service import Service
from pbem.store.db import Store

from bench.timing import best as _best
from bench.timing import best_process, bytecode

QUICK = bool(os.environ.get("BENCH_QUICK"))



def demo_game(directory: Path) -> tuple[Store, str]:
    """The demo game (without rendering reports) in a fresh store."""
    import pbem.cli.main  # noqa: F401 - registers the commands first (pbem.cli.commands.reports imports the cli)
    from pbem.loop.demo import run_demo

    store = Store(directory / "bench.db")
    run_demo(Service(store, "gm@bench.invalid"), directory, max_turns=2 if QUICK else None, render=None)
    return store, "demo-wallenstein"


def replay_rows(store: Store, game_id: str) -> list[dict[str, Any]]:
    """Full replay (engine re-run, every hash verified) vs reading + JSON-decoding the events,
    both in CPU time of this process (a busy machine does not inflate them)."""
    seed = store.secrets(game_id)[0]
    floor = _best(lambda: store.events(game_id), 7, time.process_time)
    replay = _best(lambda: fold(game_id, store.events(game_id), seed, verify=True), 7, time.process_time)
    return [{"bench": "replay", "measure": "full replay --verify of the demo game", "value": replay * 1000,
             "unit": "ms CPU", "floor": f"{floor * 1000:.3g} ms read+decode", "ratio": replay / floor,
             "target": "ratio <= 6", "note": f"{len(store.events(game_id))} events"}]


def whole_game_replay_rows(directory: Path) -> list[dict[str, Any]]:
    """``replay --verify`` of a whole game of each engine (played to its end by random bots
    through the service, with a relative clock: a deadline event per turn) against reading and
    decoding its events, both in CPU time of this process."""
    from datetime import datetime, timedelta, timezone

    from bench.gamedb import make_templates

    db = directory / "whole.db"
    make_templates(db, datetime.now(timezone.utc) - timedelta(days=60),
                   (("ww", "wallenstein", 99), ("wh", "havoc", 999), ("wg", "gods-playground", 999)))
    store = Store(db)
    rows = []
    for game_id, name in (("ww", "Wallenstein"), ("wh", "Havoc"), ("wg", "God's Playground")):
        seed = store.secrets(game_id)[0]
        events = store.events(game_id)
        floor = _best(lambda: store.events(game_id), 7, time.process_time)
        replay = _best(lambda: fold(game_id, store.events(game_id), seed, verify=True), 7, time.process_time)
        turns = sum(e.type == "TurnAdjudicated" for e in events)
        rows.append({"bench": "replay", "measure": f"replay --verify of a whole {name} game", "value": replay * 1000,
                     "unit": "ms CPU", "floor": f"{floor * 1000:.3g} ms read+decode", "ratio": replay / floor,
                     "target": "ratio <= 6", "note": f"{len(events)} events, {turns} adjudications"})
    store.close()
    return rows


def status_process_rows(db: Path, game_id: str) -> list[dict[str, Any]]:
    """``pbem status G`` as a whole process (start-up, imports, replay, output), in CPU time of
    the process (wall time in the note), vs a bare interpreter; pbem starts from its bytecode,
    as an installed pbem does."""
    bytecode(compiled=True)
    pbem = Path(sys.executable).with_name("pbem")
    command = [str(pbem)] if pbem.exists() else [sys.executable, "-m", "pbem.cli.main"]
    command += ["--db", str(db), "status", game_id]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    floor, floor_wall = best_process([sys.executable, "-c", "pass"], env=env)
    whole, wall = best_process(command, env=env)
    return [{"bench": "cli", "measure": "pbem status G, whole process", "value": whole * 1000, "unit": "ms CPU",
             "floor": f"{floor * 1000:.3g} ms CPU bare python start", "ratio": whole / floor,
             "target": "value <= 150",
             "note": f"the demo game; wall {wall * 1000:.0f} ms (bare {floor_wall * 1000:.0f} ms)"}]


def play_game(engine: Any, seats: list[str], seed: str) -> int:
    """One seeded game of random legal orders, as the engine plays it (the contract test's
    per-step hashing and re-validation are test work, not play); returns its decisions."""
    state, _ = engine.create(seats, {}, seed)
    bot = Chance("bot:" + seed)
    steps = 0
    while (pending := engine.pending(state)) is not None:
        orders = {s: engine.random_orders(state, s, bot.stream(f"{steps}/{s}")) for s in pending.seats}
        state, _ = engine.advance(state, orders, seed)
        steps += 1
    return steps


def random_game_rows() -> list[dict[str, Any]]:
    """Seeded random games per minute, per engine, in CPU time (one core)."""
    from tests.contract import SEAT_NAMES

    rows = []
    for name in engine_names():
        if name.startswith("toy-"):
            continue
        engine = get_engine(name)
        seats = list(SEAT_NAMES[: max(engine.min_seats, min(4, engine.max_seats))])
        games = 3 if QUICK else 20
        start, cpu = time.perf_counter(), time.process_time()
        for g in range(games):
            play_game(engine, seats, f"bench-{name}-{g}")
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        rows.append({"bench": "random games", "measure": f"{name}, {len(seats)} seats, one core",
                     "value": games / cpu * 60, "unit": "games/min",
                     "target": "value >= 1500" if name == "havoc" else None,
                     "note": f"{games} games in {cpu:.2f} s CPU ({games / elapsed * 60:.0f}/min wall)"})
    return rows


def store_scaling_rows(directory: Path) -> list[dict[str, Any]]:
    """``status`` of one game and replaying one game with 10, 100 and 1,000 games in the store."""
    store = Store(directory / "many.db")
    service = Service(store, "gm@bench.invalid")
    seats = [(s, f"{s}@bench.invalid") for s in ("red", "blue", "green")]
    rows, made = [], 0
    for target in ([10, 100] if QUICK else [10, 100, 1000]):
        with store.transaction():
            while made < target:
                service.new_game(f"g{made}", "wallenstein", seats, {}, f"seed-{made}")
                made += 1
        status = _best(lambda: service.status("g5"))
        replay = _best(lambda: service.load("g5", verify=True))
        rows.append({"bench": "store scaling", "measure": f"status of one game, {target} games", "value": status * 1000,
                     "unit": "ms"})
        rows.append({"bench": "store scaling", "measure": f"replay one game, {target} games", "value": replay * 1000,
                     "unit": "ms"})
    return rows


def run() -> list[dict[str, Any]]:
    """All core benchmarks."""
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        store, game_id = demo_game(directory)
        rows = replay_rows(store, game_id)
        rows += whole_game_replay_rows(directory)
        rows += status_process_rows(directory / "bench.db", game_id)
        rows += random_game_rows()
        rows += store_scaling_rows(directory)
    return rows
