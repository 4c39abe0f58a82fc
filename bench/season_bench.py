"""A 5-seat Wallenstein game played through the service, season by season, with every
report: adjudicating one season against the floor of one savefig of its map, the size of
one seat's report mail, and the database's growth per season.

- ``adjudicate``: wall time of ``Service.adjudicate`` for one season (engine, events,
  snapshot, every viewer's report rendered and queued), the median over the measured
  seasons. Floor: saving, as PNG, one figure that already holds the season's map artists
  (what drawing the map once costs at least). Target: ratio <= 2.5. The next row gives the
  same ratio in CPU time (this process's only: on a busy machine a season is preempted more
  often than the short savefigs of the floor, and its wall time reads high); same target. The
  floor is drawn by matplotlib's own canvas and renderer; pbem's canvas remembers laid-out
  texts and rendered glyphs across pictures (reports.glyphs), which belongs to what is
  measured. The CPU row's note gives, beside it, a stricter floor: the same map as a season
  draws it (pbem's canvas, warm), and the season's ratio to that.
- ``mail``: the largest seat report mail of the last season, in KB (target <= 150 KB).
- ``database``: growth of the database file per season, in MB (target <= 0.5 MB).
- ``languages``: ``adjudicate`` again with the seats reading three languages (English,
  Hungarian, German): the map is drawn once per language, not once per seat, so the floor is
  three savefigs; same target.
"""

from __future__ import annotations

import io
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.timing import best as _best

QUICK = bool(os.environ.get("BENCH_QUICK"))
SEATS = ("red", "blue", "green", "yellow", "purple")
#: The seats' languages of the ``languages`` row.
LANGUAGES = {"blue": "hu", "green": "de", "yellow": "hu", "purple": "de"}


def play_seasons(directory: Path, seasons: int, seed: str = "bench-season",
                 languages: dict[str, str] | None = None) -> dict[str, Any]:
    """Play ``seasons`` turns of a 5-seat Wallenstein game with random orders (``languages``:
    the seats' own, pbem.mailout.languages); returns the adjudicate wall times, the DB size after
    creation and after the last season, and the service (for the floor)."""
    from adjudicator.chance import Chance
    from pbem.loop.service import Service
    from pbem.store.db import Store

    db = directory / "season.db"
    service = Service(Store(db), "gm@bench.invalid")
    service.new_game("season", "wallenstein", [(s, f"{s}@bench.invalid") for s in SEATS], {}, seed,
                     languages=languages)
    start_size = db_size(service.store)
    bot, times, cpu, turns = Chance("bot:" + seed), [], [], []
    for step in range(seasons):
        game = service.load("season")
        pending = game.pending
        if pending is None:
            break
        for seat in pending.seats:
            orders = game.engine.random_orders(game.state, seat, bot.stream(f"{step}/{seat}"))
            service.submit("season", seat, orders, "", {"via": "bench"})
        start, start_cpu = time.perf_counter(), time.process_time()
        service.adjudicate("season")
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        turns.append(pending.turn)
    return {"service": service, "db": db, "start_size": start_size, "end_size": db_size(service.store),
            "times": times, "cpu": cpu, "turns": turns}


def db_size(store: Any) -> int:
    """The database's size in bytes once its write-ahead log is written back (pages in use)."""
    store.db.execute("pragma wal_checkpoint(truncate)")
    page_size = store.db.execute("pragma page_size").fetchone()[0]
    pages, free = (store.db.execute(f"pragma {p}").fetchone()[0] for p in ("page_count", "freelist_count"))
    return int((pages - free) * page_size)


def report_sizes(service: Any, turn: str) -> list[int]:
    """The sizes in bytes of the seat report mails of ``turn``, as they would be sent."""
    msgid = f"Message-ID: <report.season.{turn}.".encode()  # the subject names the turn in words
    return [len(r["message"]) for r in service.store.outbox()
            if r["kind"] == "report" and msgid in bytes(r["message"])]


def map_floor(service: Any, repeat: int, clock: Any = time.perf_counter) -> float:
    """One savefig of the current season's public map (a figure holding its artists), in
    seconds of ``clock``: drawn by matplotlib's own Agg canvas and renderer, as any program
    drawing this map with matplotlib would (pbem's canvas remembers glyphs across pictures:
    that is part of what the season row measures, not of its floor)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from adjudicator.base import PUBLIC
    from reports.wallenstein.mapplot import PNG_OPTS, map_figure

    game = service.load("season")
    fig = map_figure(game.engine.view(game.state, PUBLIC), "bench")
    FigureCanvasAgg(fig)  # matplotlib's canvas (map_figure measured its labels on pbem's)
    return _best(lambda: fig.savefig(io.BytesIO(), **PNG_OPTS), repeat, clock)


def own_map(service: Any, repeat: int, clock: Any = time.perf_counter) -> float:
    """The current season's public map as a season draws it (pbem's canvas, its glyphs and
    legend remembered, palette PNG), in seconds of ``clock``: a stricter floor than
    :func:`map_floor`, given beside the ratio."""
    from adjudicator.base import PUBLIC
    from reports.wallenstein.mapplot import map_figure, save_png

    game = service.load("season")
    fig = map_figure(game.engine.view(game.state, PUBLIC), "bench")
    return _best(lambda: save_png(fig), repeat, clock)


def run() -> list[dict[str, Any]]:
    """Rows for ``python -m bench``."""
    seasons = 3 if QUICK else 6
    with tempfile.TemporaryDirectory() as tmp:
        got = play_seasons(Path(tmp), seasons)
        service, times, turns = got["service"], got["times"], got["turns"]
        floor = map_floor(service, 3 if QUICK else 5)
        cpu_floor = map_floor(service, 3 if QUICK else 5, time.process_time)
        own = own_map(service, 3 if QUICK else 5, time.process_time)
        measured = times[1:] if len(times) > 1 else times  # the first turn (the draft) warms caches
        wall = statistics.median(measured)
        cpu = statistics.median(got["cpu"][1:] if len(times) > 1 else got["cpu"])
        mail = max(report_sizes(service, turns[-1]))
        growth = (got["end_size"] - got["start_size"]) / len(times) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        mixed = play_seasons(Path(tmp), seasons, languages=LANGUAGES)
        mixed_wall = statistics.median(mixed["times"][1:] if len(mixed["times"]) > 1 else mixed["times"])
        mixed_cpu = statistics.median(mixed["cpu"][1:] if len(mixed["cpu"]) > 1 else mixed["cpu"])
    return [
        {"bench": "season", "measure": "adjudicate one season, all reports (5 seats)", "value": wall * 1000,
         "unit": "ms", "floor": f"{floor * 1000:.3g} ms one savefig of the map", "ratio": wall / floor,
         "target": "ratio <= 2.5", "note": f"median of {len(measured)} seasons; CPU {cpu * 1000:.0f} ms / "
                                           f"{cpu_floor * 1000:.0f} ms = {cpu / cpu_floor:.2f}"},
        {"bench": "season", "measure": "adjudicate one season, all reports (5 seats), CPU", "value": cpu * 1000,
         "unit": "ms CPU", "floor": f"{cpu_floor * 1000:.3g} ms CPU one savefig of the map", "ratio": cpu / cpu_floor,
         "target": "ratio <= 2.5", "note": "the same seasons in this process's CPU time (a busy machine preempts a "
                                          "season more often than the short savefigs: its wall time reads high); "
                                          f"the map as a season draws it: {own * 1000:.0f} ms CPU, "
                                          f"season / that = {cpu / own:.2f}"},
        {"bench": "season", "measure": "one seat's report mail", "value": mail / 1000, "unit": "KB",
         "target": "value <= 150", "note": f"largest seat mail of {turns[-1]}"},
        {"bench": "season", "measure": "database growth per season", "value": growth, "unit": "MB",
         "target": "value <= 0.5", "note": f"{len(times)} turns, 5 seats, all mail"},
        {"bench": "season", "measure": "adjudicate one season, seats in 3 languages", "value": mixed_wall * 1000,
         "unit": "ms", "floor": f"{3 * floor * 1000:.3g} ms three savefigs of the map",
         "ratio": mixed_wall / (3 * floor), "target": "ratio <= 2.5",
         "note": f"en, hu, de, hu, de: one map per language; {mixed_wall / wall:.2f}x the English season; "
                 f"CPU {mixed_cpu * 1000:.0f} ms / {3 * cpu_floor * 1000:.0f} ms = {mixed_cpu / (3 * cpu_floor):.2f}"},
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
