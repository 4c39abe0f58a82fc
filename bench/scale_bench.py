"""A mailbox for thousands of games: ``pbem tick`` and ``pbem status`` as whole processes on
databases of 1, 100, 1,000 and 5,000 running games (Wallenstein, Havoc and God's Playground
mid-game, a third each: :mod:`bench.gamedb`).

- ``status G``: one game's status (the floor of the tick rows: a process that opens the
  database and loads one game); median CPU of 5 runs, wall time and peak memory in the note.
- ``tick, nothing due``: a cron run when no deadline has passed and no orders are complete:
  target CPU <= 2 x ``status G`` of the same database (the games are found by the due index,
  none is loaded); its peak memory: target <= 150 MB.
- ``tick, k due`` (1,000 and 5,000 games): k games' deadlines have passed; the run adjudicates
  each (engine, events, reports and mail). Floor: 2 x ``status G`` + the k adjudications, each
  measured in a process whose imports and caches are warm, on a game of the same engine in the
  same database, + loading the report machinery once (``pbem adjudicate G --force`` as a
  process, less a ``status`` and a warm adjudication): target ratio <= 1.

Every process starts from pbem's bytecode, as an installed pbem does (:func:`bench.timing.bytecode`
compiles the packages first; the bare interpreter and click start from theirs too).
CPU is the process's own (``wait4``), so other processes on the machine do not inflate it;
``BENCH_SCALE=1,100`` picks the sizes, ``BENCH_QUICK=1`` uses 1, 30 and 100 games.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bench.gamedb import TEMPLATES, copy_games, make_templates
from bench.timing import bytecode, median_process, run_process

QUICK = bool(os.environ.get("BENCH_QUICK"))
SIZES = [int(n) for n in os.environ.get("BENCH_SCALE", "1,30,100" if QUICK else "1,100,1000,5000").split(",")]
DUE = 3 if QUICK else 9  # games due in a "k due" run (a third of each engine)
MAILS = int(os.environ.get("BENCH_SCALE_MAILS", "300" if QUICK else "10000"))  # order mails ingested in one run
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith(("PBEM_IMAP", "PBEM_SMTP"))},
       "PYTHONDONTWRITEBYTECODE": "1"}


def pbem(db: Path, *args: str) -> list[str]:
    """The command line of ``pbem --db DB ARGS``."""
    exe = Path(sys.executable).with_name("pbem")
    return [*([str(exe)] if exe.exists() else [sys.executable, "-m", "pbem"]), "--db", str(db), *args]


def build(directory: Path, sizes: list[int], start: datetime) -> dict[int, Path]:
    """A database per size, each grown from the one before by copying games."""
    base = directory / "templates.db"
    make_templates(base, start)
    out: dict[int, Path] = {}
    made = {t[0]: 0 for t in TEMPLATES}  # copies of each template so far
    current = base
    for size in sorted(sizes):
        db = directory / f"games-{size}.db"
        _copy_file(current, db)
        if size == 1:
            _keep_only(db, TEMPLATES[0][0])
            out[size] = db
            continue
        want = [(size - 3) // 3 + (1 if i < (size - 3) % 3 else 0) for i in range(3)]
        for (template, _, _), count in zip(TEMPLATES, want):
            if count > made[template]:
                copy_games(db, template, count - made[template], template[1], made[template])
                made[template] = count
        out[size], current = db, db
    return out


def _copy_file(source: Path, target: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(source)
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.close()
    shutil.copyfile(source, target)
    if Path(str(source) + ".passwords.json").exists():
        shutil.copyfile(str(source) + ".passwords.json", str(target) + ".passwords.json")


def _keep_only(db: Path, game_id: str) -> None:
    import sqlite3

    conn = sqlite3.connect(db)
    for (table,) in conn.execute("select name from sqlite_master where type = 'table'").fetchall():
        columns = [r[1] for r in conn.execute(f'pragma table_info("{table}")')]
        if "game_id" in columns:
            conn.execute(f'delete from "{table}" where game_id is not null and game_id != ?', [game_id])
    conn.commit()
    conn.execute("vacuum")
    conn.close()


def make_due(db: Path, games: list[str], when: datetime) -> None:
    """Set the deadline of each of ``games``' pending turn to ``when`` (the past)."""
    from pbem.loop.service import Service
    from pbem.store.db import Store

    store = Store(db)
    service = Service(store, "gm@bench.invalid")
    for game_id in games:
        service.set_deadline(game_id, when.isoformat())
    store.close()


def rows_for(size: int, db: Path) -> list[dict[str, Any]]:
    """The rows of one database."""
    sample = "tw" if size == 1 else "w1"
    status_cpu, status_wall, status_rss = median_process(pbem(db, "status", sample), env=ENV)
    tick_cpu, tick_wall, tick_rss = median_process(pbem(db, "tick", "--no-send"), env=ENV)
    label = f"{size:,} game{'s' if size > 1 else ''}"
    rows = [
        {"bench": "scale", "measure": f"status G, {label} (Wallenstein mid-game)", "value": status_cpu * 1000,
         "unit": "ms CPU", "target": "value <= 150",
         "note": f"wall {status_wall * 1000:.0f} ms, peak {status_rss / 1024:.0f} MB"},
        {"bench": "scale", "measure": f"tick, nothing due, {label}", "value": tick_cpu * 1000, "unit": "ms CPU",
         "floor": f"{status_cpu * 1000:.0f} ms status G", "ratio": tick_cpu / status_cpu, "target": "ratio <= 2",
         "note": f"wall {tick_wall * 1000:.0f} ms (ratio {tick_wall / status_wall:.2f})"},
        {"bench": "scale", "measure": f"tick memory, nothing due, {label}", "value": tick_rss / 1024, "unit": "MB",
         "target": "value <= 150", "note": "peak resident set of the process"},
    ]
    if size > 1:  # the other games' mid-game states (one game database holds only Wallenstein)
        for key, name in (("h", "Havoc"), ("g", "God's Playground")):
            cpu, wall, _ = median_process(pbem(db, "status", f"{key}1"), repeat=3, env=ENV)
            rows.append({"bench": "scale", "measure": f"status G, {label} ({name} mid-game)", "value": cpu * 1000,
                         "unit": "ms CPU", "target": "value <= 150", "note": f"wall {wall * 1000:.0f} ms"})
    if size >= 1000 or (QUICK and size == max(SIZES)):
        rows.append(_due_row(size, db, label, status_cpu))
        rows += _ingest_rows(size, db, label)
    return rows


def _ingest_rows(size: int, db: Path, label: str) -> list[dict[str, Any]]:
    """``pbem ingest MAILDIR`` of ``MAILS`` order mails spread over every game, as one process,
    on a copy of the database: its peak memory, and its CPU against parsing the same mails
    with the stdlib (in this process)."""
    import mailbox
    import time
    from email import message_from_bytes, policy

    from bench.gamedb import order_mails

    per = (size - 3) // 3
    games = [f"{k}{n}" for n in range(per) for k in ("w", "h", "g")]
    mails = order_mails(db, games, MAILS)
    work = db.parent / "ingest"
    work.mkdir(exist_ok=True)
    box = mailbox.Maildir(work / "Maildir", create=True)
    for raw in mails:
        box.add(raw)
    start = time.process_time()
    for raw in mails:
        message_from_bytes(raw, policy=policy.default).get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    floor = time.process_time() - start
    copy = work / "ingest.db"
    _copy_file(db, copy)
    cpu, wall, peak = run_process(pbem(copy, "ingest", str(work / "Maildir"), "--quiet"), env=ENV)
    outcomes = _outcomes(copy)
    shutil.rmtree(work)
    note = (f"{len(mails):,} mails over {len(games):,} games ("
            + ", ".join(f"{n:,} {k}" for k, n in sorted(outcomes.items())) + f"); wall {wall:.1f} s")
    return [{"bench": "scale", "measure": f"ingest {len(mails):,} mails, {label}", "value": cpu,
             "unit": "s CPU", "floor": f"{floor:.2f} s stdlib parse", "ratio": cpu / floor,
             "target": "ratio <= 3", "note": note + " (one password per seat: each checked once)"},
            {"bench": "scale", "measure": f"ingest memory, {len(mails):,} mails, {label}", "value": peak / 1024,
             "unit": "MB", "target": "value <= 150", "note": "peak resident set of the process"}]


def _outcomes(db: Path) -> dict[str, int]:
    """How many of the mails kept in ``db`` ended in each status."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return {str(k): int(n) for k, n in conn.execute("select status, count(*) from mails group by status")}
    finally:
        conn.close()


def _due_row(size: int, db: Path, label: str, status_cpu: float) -> dict[str, Any]:
    """``tick`` with ``DUE`` games past their deadline, against status and their adjudications."""
    past = datetime.now(timezone.utc) - timedelta(minutes=5)
    per = DUE // 3
    due = [f"{t[0][1]}{10 + n}" for t in TEMPLATES for n in range(per)]
    warm, imports = _adjudication_costs(db, status_cpu)
    runs = []
    for attempt in range(3):
        games = [f"{g[0]}{int(g[1:]) + 10 * attempt * per}" for g in due]
        make_due(db, games, past)
        runs.append(run_process(pbem(db, "tick", "--no-send"), env=ENV))
    cpu = statistics.median(r[0] for r in runs)
    floor = 2 * status_cpu + imports + sum(warm[g[0]] for g in due)
    return {"bench": "scale", "measure": f"tick, {len(due)} due, {label}", "value": cpu * 1000, "unit": "ms CPU",
            "floor": f"{floor * 1000:.0f} ms = 2 x status + {len(due)} adjudications", "ratio": cpu / floor,
            "target": "ratio <= 1",
            "note": f"peak {max(r[2] for r in runs) / 1024:.0f} MB; one adjudication (CPU, warm): "
                    + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in warm.items())
                    + f"; loading the report machinery once {imports * 1000:.0f} ms"}


def _adjudication_costs(db: Path, status_cpu: float) -> tuple[dict[str, float], float]:
    """Per engine, the CPU of one adjudication in a process that has made one already (its
    imports and caches warm), and the CPU that the first adjudication of a process adds for
    loading the report machinery (``pbem adjudicate G --force`` as a process, less a
    ``status`` and a warm adjudication); on games no tick run touches."""
    import time

    from pbem.loop.service import Service
    from pbem.store.db import Store

    _forget_pictures()
    warm: dict[str, float] = {}
    service = Service(Store(db), "gm@bench.invalid")
    for template, _, _ in TEMPLATES:
        key = template[1]
        service.adjudicate(f"{key}5", force=True)  # warms this process
        start = time.process_time()
        service.adjudicate(f"{key}6", force=True)
        warm[key] = time.process_time() - start
    service.store.close()
    imports = max(run_process(pbem(db, "adjudicate", f"{t[0][1]}7", "--force"), env=ENV)[0] - status_cpu
                  - warm[t[0][1]] for t in TEMPLATES)
    return warm, max(imports, 0.0)


def _forget_pictures() -> None:
    """Empty this process's caches of drawn maps and rendered reports. A larger database holds
    the games of the smaller one under the same ids: without this, the adjudications measured
    on it would reuse the pictures drawn for those games in the smaller one, which a ``tick``
    process never has (its first picture of each game is drawn anew)."""
    import pbem.mailout.reporting
    from reports.gods_playground import mapplot as gods_map
    from reports.wallenstein import mapplot as wallenstein_map

    wallenstein_map._map_png.cache_clear()
    gods_map.clear_cache()
    pbem.mailout.reporting._CACHE.clear()


def run() -> list[dict[str, Any]]:
    """Rows for ``python -m bench``."""
    rows: list[dict[str, Any]] = []
    bytecode(compiled=True)  # as installed: no process compiles pbem from source at its start
    with tempfile.TemporaryDirectory() as tmp:
        start = datetime.now(timezone.utc) - timedelta(hours=1)
        dbs = build(Path(tmp), SIZES, start)
        for size in sorted(dbs):
            rows += rows_for(size, dbs[size])
            if size != max(dbs):
                for suffix in ("", "-wal", "-shm"):
                    Path(str(dbs[size]) + suffix).unlink(missing_ok=True)
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
