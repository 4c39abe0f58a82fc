"""Rulebook cases as data: every file in cases/ named scenario_*.json, one test per case."""

import glob
import json
import os

import pytest

from adjudicator.havoc.releases import RELEASES
from tests.havoc.scenario import run
from tests.versioned import rules_of

HERE = os.path.join(os.path.dirname(__file__), "cases")
CASES = [c for path in sorted(glob.glob(os.path.join(HERE, "scenario_*.json")))
         for c in json.load(open(path, encoding="utf-8"))["cases"]]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scenario(case):
    with rules_of(RELEASES, case):  # a case of an earlier version says which ("version")
        run(case)
