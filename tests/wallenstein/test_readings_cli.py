"""The GM's readings (docs/wallenstein-rules.md, "Readings") as a GM sets them: `pbem new
--option`, refused with one line when wrong, recorded in GameCreated, named in the record,
the view and the first report; and seat colours chosen with `--seat name=email:colour`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clirun import SEATS, run


def test_a_reading_is_recorded_and_named(tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--option", "palace_event=revolts",
        "--option", "bank=unlimited")
    log = json.loads(run("--db", db, "log", "w1", "--json"))
    created = (log["events"] if isinstance(log, dict) else log)[0]
    payload = created.get("payload", created)
    assert payload["options"] == {"palace_event": "revolts", "bank": "unlimited"}
    assert payload["setup_events"][0]["readings"] == {"palace_event": "revolts", "bank": "unlimited"}
    record = tmp_path / "w1.txt"
    run("--db", db, "export", "w1", "--format", "record", "-o", str(record))
    text = record.read_text(encoding="utf-8")
    assert '[Option "palace_event=revolts"]' in text and '[Option "bank=unlimited"]' in text
    view = json.loads(run("--db", db, "show", "w1", "--seat", "red", "--json"))
    assert view["readings"] == {"palace_event": "revolts", "bank": "unlimited"} and view["bank"] is None
    out = tmp_path / "out"
    run("--db", db, "report", "w1", "--seat", "red", "--out", str(out))
    report = " ".join(next(out.rglob("report.txt")).read_text(encoding="utf-8").split())
    assert "Readings in force (the GM chooses them): " in report
    assert "the palace event's extra army defends in revolts too" in report and "the bank is unlimited" in report


def test_the_default_readings_and_a_bank_of_160(tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS)
    view = json.loads(run("--db", db, "show", "w1", "--public", "--json"))
    assert view["readings"] == {"palace_event": "attacks", "bank": "160"}
    assert view["bank"] == 160 - 3 * 18  # rule 1's coins less the starting money of 3 seats (3.2)


def test_a_wrong_reading_is_refused_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    out = run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--option", "bank=200", code=1)
    assert "option bank must be 160 or unlimited, not '200'" in out and "Traceback" not in out


def test_the_gm_gives_each_seat_its_colour(tmp_path: Path) -> None:
    """Rule 3.2: each player gets his pieces "választott színében" (in the colour he chooses)."""
    db = str(tmp_path / "p.db")
    seats = ["--seat", "anna=anna@example.org:purple", "--seat", "bob=bob@example.org:black",
             "--seat", "cy=cy@example.org"]
    run("--db", db, "new", "w1", "--game", "wallenstein", *seats)
    view = json.loads(run("--db", db, "show", "w1", "--gm", "--json"))
    assert {s: d["color"] for s, d in view["seats"].items()} == {"anna": "purple", "bob": "black", "cy": "red"}
