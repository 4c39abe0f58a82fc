"""The rulebook's combat Example 3 (rule 5.5.1) as a short historical record: the
tower results typed in as CHANCE lines give the outcome the scenario case expects."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbem.errors import DomainError
from pbem.archives.records import import_record
from pbem.store.db import Store

HERE = Path(__file__).parent
RECORD = HERE / "records" / "combat_example_3.txt"
CASE = next(c for c in json.loads((HERE / "cases" / "actions.json").read_text(encoding="utf-8"))
            if c["id"] == "example-3-kursachsen")


def test_example_3_record_gives_the_rulebook_outcome(tmp_path):
    game = import_record(Store(tmp_path / "h.db"), RECORD.read_text(encoding="utf-8"))
    assert game.created["chance"] == "recorded"
    state, want = game.state, CASE["expect"]
    for county, fields in want["counties"].items():
        assert {k: state["counties"][county][k] for k in fields} == fields
    assert state["counties"]["Kursachsen"]["owner"] == "blue"
    assert {c: n for c, n in state["tower"].items() if n} == want["tower"]
    events = [e for e in game.turns[0]["events"] if e["type"] in ("Battle", "Conquest")]
    for got, expected in zip(events, want["events"]):
        assert {k: got.get(k) for k in expected} == expected


def test_more_cubes_out_than_went_in_is_refused_with_the_line(tmp_path):
    text = RECORD.read_text(encoding="utf-8")
    n = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("CHANCE 1618-spring battle 1"))
    bad = text.replace("out blue 3, yellow 1, peasants 1; stayed blue 1, yellow 2", "out blue 9", 1)
    with pytest.raises(DomainError, match=rf"^line {n}: 1618-spring battle 1 for Kursachsen: 9 blue cubes fell out, "
                                          r"but only 4 were thrown in$"):
        import_record(Store(tmp_path / "x.db"), bad)
    bad = text.replace("stayed blue 1, yellow 2", "stayed blue 2, yellow 2", 1)
    with pytest.raises(DomainError, match=rf"^line {n}: .*2 blue cube\(s\) stayed in the tower, but 4 were in it "
                                          r"and 3 fell out, so 1 stayed"):
        import_record(Store(tmp_path / "y.db"), bad)


NAMED = "CHANCE 1618-spring battle 1 for Kursachsen:"


@pytest.mark.parametrize("words", ["CHANCE 1618-spring battle for Kursachsen:",  # unnumbered
                                   "CHANCE 1618-spring battle 1 tower:"])  # the draw's label (older records)
def test_a_battle_line_may_name_the_county_without_its_number_or_be_the_old_numbered_line(tmp_path, words):
    text = RECORD.read_text(encoding="utf-8")
    want = import_record(Store(tmp_path / "a.db"), text).state_hash
    assert NAMED in text
    assert import_record(Store(tmp_path / "b.db"), text.replace(NAMED, words)).state_hash == want


@pytest.mark.parametrize("words", ["CHANCE 1618-spring battle 1 for Anhalt:", "CHANCE 1618-spring battle for Anhalt:"])
def test_a_battle_line_naming_the_wrong_county_is_refused_in_a_sentence(tmp_path, words):
    text = RECORD.read_text(encoding="utf-8")
    n = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(NAMED))
    written = words[len("CHANCE "):-1]
    with pytest.raises(DomainError, match=rf"^line {n}: {written}: 1618-spring battle 1 was for Kursachsen, "
                                          r"not for Anhalt$"):
        import_record(Store(tmp_path / "x.db"), text.replace(NAMED, words))


def test_a_missing_battle_line_is_asked_for_with_the_colours_thrown_in(tmp_path):
    text = RECORD.read_text(encoding="utf-8")
    lines = text.splitlines()
    turn = lines.index("= 1618-spring") + 1
    gone = "\n".join(line for line in lines if not line.startswith(NAMED))
    # blue's 4 armies and yellow's 3 defenders were thrown in (rule 5.5.1); the tower held
    # the setup's one peasant
    with pytest.raises(DomainError, match=rf"^line {turn} \(turn 1618-spring\): 1618-spring battle 1 for Kursachsen: "
                                          r"the game draws here but the record has no line for it: add one such as "
                                          r"'CHANCE 1618-spring battle 1 for Kursachsen: out blue 4, yellow 3; "
                                          r"stayed peasants 1' with what happened at the table$"):
        import_record(Store(tmp_path / "x.db"), gone)


def test_what_stayed_in_the_tower_may_be_left_out(tmp_path):
    text = RECORD.read_text(encoding="utf-8")
    want = import_record(Store(tmp_path / "a.db"), text)
    short = text.replace("peasants 1; stayed blue 1, yellow 2", "peasants 1", 1)
    assert short != text
    got = import_record(Store(tmp_path / "b.db"), short)
    assert got.state_hash == want.state_hash and got.state["tower"] == want.state["tower"]



REVOLTS = HERE / "records" / "revolt_examples_1_2.txt"


def _case(name: str, case_id: str) -> list[dict]:
    """A scenario case's expected events, its seat played by blue here (Gábor, Éva)."""
    case = next(c for c in json.loads((HERE / "cases" / name).read_text(encoding="utf-8")) if c["id"] == case_id)
    return json.loads(re.sub(r'"(gabor|eva)"', '"blue"', json.dumps(case["expect"]["events"])))


def _matches(events: list[dict], want: list[dict]) -> list[dict]:
    """The first event of each wanted type in turn, cut to the wanted fields."""
    got, rest = [], iter(events)
    for w in want:
        e = next((e for e in rest if e["type"] == w["type"]), {})
        got.append({k: e.get(k) for k in w})
    return got


def test_revolt_examples_record_gives_the_rulebook_outcomes(tmp_path):
    """Rule 5.3 Example 1 (autumn, after two seasons of taxes in Lüneburg: 4 armies against 2
    peasants) and rule 5.4 Example 2 (the winter after: 2 short, Anhalt drawn, 3 peasants)."""
    game = import_record(Store(tmp_path / "h.db"), REVOLTS.read_text(encoding="utf-8"))
    autumn = next(t for t in game.turns if t["turn"] == "1618-autumn")["events"]
    lueneburg = [e for e in autumn if e.get("county") == "Lüneburg" or e["type"] == "RevoltMarker"]
    want = [e for e in _case("actions.json", "example-1-lueneburg-revolt") if e["type"] != "Tax"]
    assert _matches(lueneburg, want) == want
    assert next(e for e in lueneburg if e["type"] == "Battle")["out"] == {"blue": 3, "peasants": 1}
    winter = [e for e in autumn if e.get("season") == "winter" and e.get("seat", "blue") == "blue"]
    want = [e for e in _case("winter.json", "eva-anhalt-3-peasants") if e["type"] != "Winter"]
    assert _matches(winter, want) == want
    famine = next(e for e in winter if e["type"] == "Famine")
    revolt = next(e for e in winter if e["type"] == "Revolt")
    assert (famine["grain"], famine["counties"], revolt["markers"]) == (7, 9, 1)  # 1 marker + 2 extra
    assert game.state["counties"]["Anhalt"]["owner"] is None
    assert game.state["counties"]["Lüneburg"]["armies"] == 2  # the winter clears the markers
