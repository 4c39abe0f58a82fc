"""The trust reviews' attack campaign, run again (bench/campaign.py): about 10,000 generated
mails (valid, forged, malformed, hostile, autoresponders) through ``pbem ingest`` in one run,
more than 130 forged, tampered and malformed archives through ``replay --verify`` and
``import``, and the leak checks over everything published about running games of all three
games. No leak, no forgery accepted, no traceback, no mail that ends in an internal error.

How long the slowest mail takes and the memory of the run are ``make bench`` rows
(bench/campaign_bench.py, docs/benchmarks.md), not asserted here.
"""

from __future__ import annotations

import os

import pytest

from bench.campaign import run

MAILS = int(os.environ.get("PBEM_CAMPAIGN_MAILS", "10000"))


@pytest.mark.slow
def test_the_attack_campaign_finds_no_leak_no_accepted_forgery_and_no_traceback(tmp_path):
    figures = run(tmp_path, MAILS)
    print(figures)  # the run's figures, for the log of a CI run
    assert figures["mails"] >= MAILS * 0.99 and figures["archives"] >= 130
    assert figures["exit"] == 0 and not figures["traceback"]
    assert figures["errors"] == 0, figures["outcomes"]
    assert figures["forgeries_accepted"] == 0, figures["outcomes"]
    assert figures["archive_tracebacks"] == 0, figures["archive_examples"]
    assert figures["archive_forgeries_accepted"] == 0, figures["archive_examples"]
    assert figures["leaks"] == 0, figures["leak_examples"]
    outcomes = figures["outcomes"]
    # the campaign's orders went through (but for the seats its wrong passwords locked)
    assert outcomes.get("valid/accepted", 0) > MAILS // 20
    assert outcomes.get("hostile/refused", 0) > 0 and outcomes.get("forged/ignored", 0) > 0
