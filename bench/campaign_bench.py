"""The attack campaign (:mod:`bench.campaign`) as ``make bench`` rows: leaks, forgeries
accepted, tracebacks and internal errors must be 0; the slowest mail at most 2 s; one
``pbem ingest`` run of ``BENCH_CAMPAIGN_MAILS`` mails (default 10,000) under 300 MB."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

QUICK = bool(os.environ.get("BENCH_QUICK"))
MAILS = int(os.environ.get("BENCH_CAMPAIGN_MAILS", "300" if QUICK else "10000"))


def run() -> list[dict[str, Any]]:
    """The campaign's rows."""
    from bench.campaign import run as campaign

    with tempfile.TemporaryDirectory() as tmp:
        f = campaign(Path(tmp), MAILS, per_archive=8 if QUICK else 25, big=6 if QUICK else 60)
    mails = f"{f['mails']} mails ({f['maildir_mb']:.0f} MB)"
    outcomes = ", ".join(f"{k} {n}" for k, n in f["outcomes"].items())
    return [
        {"bench": "campaign", "measure": f"pbem ingest of {mails} in one run", "value": f["peak_mb"],
         "unit": "MB peak RSS", "target": "value <= 300",
         "note": f"{f['seconds']:.0f} s, exit {f['exit']}{', TRACEBACK' if f['traceback'] else ''}; {outcomes}"},
        {"bench": "campaign", "measure": f"slowest of the {f['mails']} mails, one at a time", "value": f["slowest_s"],
         "unit": "s", "target": "value <= 2",
         "note": f"{f['slowest_mail']}; slowest by outcome {f['slowest_by_outcome']}"},
        {"bench": "campaign", "measure": "forged mails accepted", "value": f["forgeries_accepted"], "unit": "mails",
         "target": "value <= 0"},
        {"bench": "campaign", "measure": "mails ending in an internal error", "value": f["errors"], "unit": "mails",
         "target": "value <= 0"},
        {"bench": "campaign", "measure": f"{f['archives']} tampered archives: tracebacks or errors of more than a line",
         "value": f["archive_tracebacks"], "unit": "archives", "target": "value <= 0",
         "note": "; ".join(f["archive_examples"][:3])},
        {"bench": "campaign", "measure": f"{f['archives']} tampered archives: forgeries imported as genuine",
         "value": f["archive_forgeries_accepted"], "unit": "archives", "target": "value <= 0"},
        {"bench": "campaign", "measure": f"leaks in {f['leak_outputs']} published outputs of running games",
         "value": f["leaks"], "unit": "leaks", "target": "value <= 0", "note": "; ".join(f["leak_examples"][:3])},
    ]
