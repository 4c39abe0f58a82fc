"""``python -m bench``: run every benchmark, print one table, write the results as JSON.

Each benchmark module has ``run() -> list[row]``; a row is a dict with the keys of ``COLUMNS``
(missing keys are empty):

- ``bench``, ``measure``: what was measured; ``value`` + ``unit``: the figure;
- ``floor``: the least any implementation must spend (text), ``ratio``: pbem's time / floor;
- ``target``: the goal as ``"<ratio|value> <<=|>=> <number>"`` (e.g. ``"ratio <= 2"``,
  ``"value >= 1500"``); ``python -m bench`` fills ``met`` (true/false) from it;
- ``note``: anything else.

The JSON file (default ``bench/results.json``; ``--json PATH``, ``--no-json``) holds the run's
time, whether it was quick, and the rows. When the file already exists, the table gets a
``prev`` column with that run's figure (ratio when there is one, else value) and the old file
is kept as ``*.prev.json``, so a change can be compared with the previous run.

Environment: ``BENCH_QUICK=1`` shrinks the workloads (a smoke run). ``--only core,ingest``
runs only the modules whose name contains one of the words. Exit status: 1 if a benchmark
crashed, else 0 (a missed target is reported, not an error).
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import operator
import os
import platform
import sys
import traceback
from pathlib import Path
from typing import Any

MODULES = ["bench.core_bench", "bench.ingest_bench", "bench.hostile_bench", "bench.reports_bench", "bench.gp_bench",
           "bench.season_bench",
           "bench.scale_bench", "bench.length_bench", "bench.startup_bench", "bench.campaign_bench"]
COLUMNS = ["bench", "measure", "value", "unit", "floor", "ratio", "target", "met", "note"]
DEFAULT_JSON = Path(__file__).resolve().parent / "results.json"
_OPS = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}


def target_met(row: dict[str, Any]) -> bool | None:
    """Whether ``row`` meets its ``target`` (None when it has none or the figure is missing)."""
    target = row.get("target")
    if not target:
        return None
    field, op, number = str(target).split()
    figure = row.get(field)
    if figure is None:
        return None
    return bool(_OPS[op](float(figure), float(number)))


def _key(row: dict[str, Any]) -> tuple[str, str]:
    return str(row.get("bench")), str(row.get("measure"))


def _figure(row: dict[str, Any]) -> Any:
    return row.get("ratio") if row.get("ratio") is not None else row.get("value")


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)


def run_modules(names: list[str]) -> tuple[list[dict[str, Any]], int]:
    """Rows of the named benchmark modules (``met`` filled in) and how many crashed."""
    rows: list[dict[str, Any]] = []
    failed = 0
    for name in names:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            print(f"(skipping {name}: {exc})", file=sys.stderr)
            continue
        try:
            rows += module.run()
        except Exception:  # noqa: BLE001 - report and go on with the next benchmark
            failed += 1
            traceback.print_exc()
    for row in rows:
        row["met"] = target_met(row)
    return rows, failed


def print_table(rows: list[dict[str, Any]], previous: dict[tuple[str, str], Any]) -> None:
    """The rows as a text table; a ``prev`` column when there was a previous run."""
    cols = COLUMNS + (["prev"] if previous else [])
    table = [[_fmt(r.get(c)) for c in COLUMNS] + ([_fmt(previous.get(_key(r)))] if previous else [])
             for r in rows]
    widths = [max(len(c), *(len(t[i]) for t in table)) if table else len(c) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    print("  ".join("-" * w for w in widths))
    for t in table:
        print("  ".join(v.ljust(w) for v, w in zip(t, widths)))


def load_previous(path: Path) -> dict[tuple[str, str], Any]:
    """The figures of the previous run stored at ``path`` (empty when there is none)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {_key(r): _figure(r) for r in data.get("rows", [])}


def write_json(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write this run to ``path``, keeping the previous file as ``<name>.prev.json``."""
    if path.exists():
        path.replace(path.with_suffix(".prev.json"))
    data = {"when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "quick": bool(os.environ.get("BENCH_QUICK")), "python": platform.python_version(),
            "cpus": os.cpu_count(), "rows": rows}
    path.write_text(json.dumps(data, indent=1, default=str) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks; print the table; write the JSON; non-zero if one crashed."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write the results")
    parser.add_argument("--no-json", action="store_true", help="write no JSON file")
    parser.add_argument("--only", default="", help="comma-separated words; run the modules containing one")
    args = parser.parse_args(argv)
    words = [w for w in args.only.split(",") if w]
    names = [m for m in MODULES if not words or any(w in m for w in words)]
    rows, failed = run_modules(names)
    previous = {} if args.no_json else load_previous(args.json)
    print_table(rows, previous)
    if not args.no_json:
        write_json(args.json, rows)
        print(f"\nresults written to {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
