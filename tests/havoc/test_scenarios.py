"""Rulebook cases as data: every file in cases/ named scenario_*.json, one test per case."""

import glob
import json
import os

import pytest

from tests.havoc.scenario import run

HERE = os.path.join(os.path.dirname(__file__), "cases")
CASES = [c for path in sorted(glob.glob(os.path.join(HERE, "scenario_*.json")))
         for c in json.load(open(path, encoding="utf-8"))["cases"]]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scenario(case):
    run(case)
