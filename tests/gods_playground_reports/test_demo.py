"""End to end through the shell: bots play God's Playground by mail; the demo page links
each reported turn's public map and every viewer's report; reports tell what happened since
the viewer's previous report (ReportInput.recent from pbem/mailout/reporting.py)."""

from __future__ import annotations

import json

import pytest

from click.testing import CliRunner

from pbem.cli.main import cli


@pytest.mark.slow  # a whole game: the long campaigns' marker (CI runs them)
def test_gods_playground_demo_writes_maps_reports_and_index(tmp_path):
    out = tmp_path / "demo"
    db = str(tmp_path / "demo.db")
    result = CliRunner().invoke(cli, ["--db", db, "demo", "--game", "gods-playground", "--seats", "3",
                                      "--out", str(out), "--turns", "50", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verified"] and data["mails"] > 0
    maps = sorted((out / "reports").rglob("public/map.png"))
    assert len(maps) >= 1
    index = (out / "index.html").read_text()
    for m in maps:
        assert str(m.relative_to(out)) in index
    first = maps[0].parent.parent  # the first report: the end of round 1
    for viewer in ("white", "blue", "red", "public", "gm"):
        for name in ("report.txt", "report.html", "map.png", "chart.png"):
            assert (first / viewer / name).exists(), first / viewer / name
    english = [seat for seat, told in data["seats"].items() if told["language"] == "en"]
    assert len(english) == 1 and len(data["seats"]) == 3  # the demo's seats read hu, de and en
    text = (first / english[0] / "report.txt").read_text()
    assert "WHAT HAPPENED SINCE YOUR LAST REPORT" in text
    for told in ("Income:", "Nobles revealed", "Sejm elections", "Round 1 ended"):
        assert told in text, told
