"""The GM's choice of the readings the rulebook leaves open (rules version 3): the options
``small_third``, ``sic`` and ``peace_first_round`` are documented, recorded in GameCreated,
named in the game's record and refused with a one-line answer when mistyped."""

from __future__ import annotations

import json
from pathlib import Path

from adjudicator.havoc.releases import READINGS
from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]


def test_every_reading_option_is_documented_with_its_values() -> None:
    rules = (ROOT / "docs" / "havoc-rules.md").read_text(encoding="utf-8")
    guide = (ROOT / "docs" / "gm-guide.md").read_text(encoding="utf-8")
    for name, values in READINGS.items():
        for value in values:
            assert f"`{name}={value}`" in rules, (name, value)
        assert f"`{name}`" in guide or f"{name}=" in guide, name


def test_a_reading_option_is_recorded_and_named_in_the_record(tmp_path: Path) -> None:
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "h1", "--game", "havoc", "--seat", "red=r@example.org", "--seat", "blue=b@example.org",
        "--option", "sic=once", "--option", "small=on", "--option", "small_third=none")
    log = run("--db", db, "log", "h1", "--json")
    assert '"sic": "once"' in log and '"small_third": "none"' in log
    out = tmp_path / "h1.record.txt"
    run("--db", db, "export", "h1", "--format", "record", "-o", str(out))
    text = out.read_text(encoding="utf-8")
    assert '[Option "sic=once"]' in text and '[Option "small_third=none"]' in text and '[EngineVersion "3"]' in text
    shown = json.loads(run("--db", db, "show", "h1", "--seat", "red", "--json"))
    assert shown["readings"] == {"sic": "once", "small_third": "none"}
    report = tmp_path / "reports"
    run("--db", db, "report", "h1", "--seat", "red", "--out", str(report))
    text = " ".join("".join(p.read_text(encoding="utf-8") for p in report.rglob("*.txt")).split())
    assert "Readings in force (docs/havoc-rules.md, Readings): sic=once, small_third=none" in text


def test_a_mistyped_reading_option_is_refused_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "pbem.db")
    out = run("--db", db, "new", "h1", "--game", "havoc", "--seat", "red=r@example.org", "--seat", "blue=b@example.org",
              "--option", "sic=thrice", code=1)
    assert "option sic must be one of twice, once, not 'thrice'" in out and "Traceback" not in out


def test_the_peace_first_round_reading_is_a_five_six_seat_option(tmp_path: Path) -> None:
    db = str(tmp_path / "pbem.db")
    seats = [a for s in ("red", "blue", "green", "yellow", "white") for a in ("--seat", f"{s}={s}@example.org")]
    run("--db", db, "new", "h5", "--game", "havoc", *seats, "--option", "peace_first_round=turned")
    log = run("--db", db, "log", "h5", "--json")
    assert '"peace_first_round": "turned"' in log
    out = tmp_path / "h5.record.txt"
    run("--db", db, "export", "h5", "--format", "record", "-o", str(out))
    assert '[Option "peace_first_round=turned"]' in out.read_text(encoding="utf-8")
    shown = json.loads(run("--db", db, "show", "h5", "--seat", "red", "--json"))
    assert shown["readings"] == {"peace_first_round": "turned", "sic": "twice", "small_third": "shift"}
    four = run("--db", db, "new", "h4", "--game", "havoc", *seats[:8], "--option", "peace_first_round=turned", code=1)
    assert "option peace_first_round is a reading of the 5-6 seat rules" in four and "Traceback" not in four
    run("--db", db, "new", "h4", "--game", "havoc", *seats[:8])
    assert "peace_first_round" not in json.loads(run("--db", db, "show", "h4", "--seat", "red", "--json"))["readings"]
