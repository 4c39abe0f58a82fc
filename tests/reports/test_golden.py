"""The rendered reports of a fixed seeded game equal the reviewed golden files.

On a difference, look at the diff, and if the change is intended run ``make golden``
and commit the regenerated files with the change.
"""

from __future__ import annotations

import difflib

import pytest

from tests.reports.golden import CASES, GOLDEN_DIR, file_name, render_all


@pytest.fixture(scope="module")
def rendered():
    return render_all()


@pytest.mark.parametrize("case", CASES, ids=lambda c: file_name(*c))
def test_report_matches_golden(rendered, case):
    name = file_name(*case)
    path = GOLDEN_DIR / name
    assert path.exists(), f"missing golden file {path}: run `make golden`"
    expected = path.read_text(encoding="utf-8")
    if rendered[name] != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), rendered[name].splitlines(True),
                                            f"golden/{name}", "rendered", n=2))
        pytest.fail(f"{name} differs from its golden file (run `make golden` if intended):\n{diff[:6000]}")


def test_no_stray_golden_files():
    names = {file_name(*c) for c in CASES}
    stray = sorted(p.name for p in GOLDEN_DIR.glob("golden-*") if p.name not in names)
    assert stray == []
