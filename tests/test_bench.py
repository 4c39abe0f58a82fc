"""``python -m bench``: targets judged per row, results written as JSON next to the previous run."""

from __future__ import annotations

import json
import sys
import types

import bench.__main__ as bench_main


def test_targets_are_judged_on_ratio_or_value():
    assert bench_main.target_met({"ratio": 1.9, "target": "ratio <= 2"}) is True
    assert bench_main.target_met({"ratio": 2.1, "target": "ratio <= 2"}) is False
    assert bench_main.target_met({"value": 1499.0, "target": "value >= 1500"}) is False
    assert bench_main.target_met({"value": 149, "target": "value <= 150"}) is True
    assert bench_main.target_met({"value": 3.0}) is None


def test_a_run_writes_json_and_compares_with_the_previous_one(tmp_path, monkeypatch, capsys):
    figures = iter([4.0, 1.5])
    fake = types.ModuleType("bench_fake")
    fake.run = lambda: [{"bench": "fake", "measure": "m", "value": 10.0, "unit": "ms", "ratio": next(figures),
                         "target": "ratio <= 2"}]
    monkeypatch.setitem(sys.modules, "bench_fake", fake)
    monkeypatch.setattr(bench_main, "MODULES", ["bench_fake"])
    out = tmp_path / "results.json"
    assert bench_main.main(["--json", str(out)]) == 0
    first = json.loads(out.read_text())
    assert first["rows"][0]["met"] is False and first["rows"][0]["ratio"] == 4.0
    assert bench_main.main(["--json", str(out)]) == 0
    table = capsys.readouterr().out
    assert "prev" in table and "4" in table.splitlines()[-3]
    assert json.loads(out.read_text())["rows"][0]["met"] is True
    assert json.loads(out.with_suffix(".prev.json").read_text())["rows"][0]["ratio"] == 4.0
