"""Rendering one seat's Wallenstein season report (text + HTML + map + chart) against the
floor of saving a matplotlib figure with the same artists.

The floor saves, as PNG, a figure that already holds exactly the map's artists (cells,
border collections, labels, legend): drawing and encoding them is what any matplotlib
renderer of this map must at least spend; the report adds building the artists, the
document, the templates and the chart. ``ratio`` = report / floor.
"""

from __future__ import annotations

import io
import os
import time
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg

from reports import charts
from reports.render import render_report
from reports.wallenstein import mapplot
from reports.wallenstein.mapplot import PNG_OPTS, map_figure
from reports.wallenstein.render import render_documents

from bench.timing import best as _best

QUICK = bool(os.environ.get("BENCH_QUICK"))



def _uncached(inp: Any) -> Any:
    """One report with its pictures drawn (not taken from the per-process picture caches)."""
    mapplot.clear_cache()
    charts.clear_cache()
    return render_report(inp)


def run() -> list[dict[str, Any]]:
    """Rows for ``python -m bench``."""
    from tests.reports.games import play, report_input

    turn = play("bench-reports")[2]
    inp = report_input("bench", "bench-reports", turn, "red")
    repeat = 2 if QUICK else 5
    render_report(inp)  # warm caches (fonts, templates, map geometry)
    full = _best(lambda: _uncached(inp), repeat)
    docs = _best(lambda: render_documents(inp), repeat)
    fig = map_figure(inp.view, "bench")
    FigureCanvasAgg(fig)  # matplotlib's own canvas and renderer (pbem's remembers glyphs: measured, not floor)
    floor = _best(lambda: fig.savefig(io.BytesIO(), **PNG_OPTS), repeat)  # a plain savefig (RGBA PNG)
    return [
        {"bench": "reports", "measure": "one seat's season report (text+HTML+map+chart)", "value": full * 1000,
         "unit": "ms", "floor": f"{floor * 1000:.3g} ms savefig of the map's artists", "ratio": full / floor,
         "note": "Wallenstein, 3 seats, 1618-autumn"},
        {"bench": "reports", "measure": "text + HTML only", "value": docs * 1000, "unit": "ms",
         "floor": None, "ratio": None, "note": "jinja2, no pictures"},
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
