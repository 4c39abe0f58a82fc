"""``python -m bench``: run every benchmark and print one table of results.

Each benchmark returns rows ``{"bench", "measure", "value", "unit", "floor", "ratio", "note"}``;
the ratio compares pbem's time with a floor (the least any implementation must spend).
Environment: ``BENCH_QUICK=1`` shrinks the workloads (for a smoke run).
"""

from __future__ import annotations

import importlib
import sys
import traceback

MODULES = ["bench.core_bench", "bench.ingest_bench", "bench.reports_bench", "bench.gp_bench"]


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)


def main() -> int:
    """Run the benchmarks; print the table; non-zero if one crashed."""
    rows, failed = [], 0
    for name in MODULES:
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
    cols = ["bench", "measure", "value", "unit", "floor", "ratio", "note"]
    table = [[_fmt(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(t[i]) for t in table)) if table else len(c) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    print("  ".join("-" * w for w in widths))
    for t in table:
        print("  ".join(v.ljust(w) for v, w in zip(t, widths)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
