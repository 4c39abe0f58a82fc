"""No internal label reaches people where they read: mail subjects name seasons, rounds and
phases, battles and battle rounds (`[g1] your move: round 1, starting estates`, `[w1] spring
1618: report for red`, not `r1/estate/0/red` or `1618-spring report for red`); the site of a
game says `Over after 8 battles and Castillon` (not `Over after 65 turn(s)`), lists its pages
by name and draws its chart's axis by name. The TURN label stays in the mail body, where a
TURN line needs it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.store.db import Store
from reports.gamenames import played, turn_name, turn_short
from tests.clirun import run
from tests.loop.mailrun import text

LABEL = re.compile(r"\b(?:r\d+/\w+|b\d+/\w+|final/\w+|\d{4}-(?:spring|summer|autumn))")
GP = ["--seat", "white=wil@example.org", "--seat", "blue=ben@example.org", "--seat", "red=red@example.org"]


@pytest.mark.parametrize("engine, label, view, name, after, short", [
    ("wallenstein", "1618-spring", None, "spring 1618", "spring 1618", "spring 1618"),
    ("wallenstein", "setup", None, "the setup draft", "the setup draft", "the setup draft"),
    ("gods-playground", "r1/counter/33/blue", None, "round 1, counterattacks", "the end of round 1", "round 1"),
    ("gods-playground", "r2/bid/10", None, "round 2, bidding for the crown", "round 2, bidding for the crown",
     "round 2"),
    ("havoc", "b3/battle/round2/red", {"battle": {"battle": {"name": "Poitiers"}}},
     "battle 3 (Poitiers), round 2", "after battle 3 (Poitiers)", "Poitiers"),
    ("havoc", "b1/dogs/green", {"last_battle": {"name": "Crécy"}}, "battle 1 (Crécy), the Dogs of War",
     "after battle 1 (Crécy)", "Crécy"),
    ("havoc", "b2/recruit/red/11", {}, "before battle 2, red's turn", "before battle 2, red's turn", "battle 2"),
    ("havoc", "final/castillon", {"over": True}, "Castillon, the last battle", "the end of the war", "Castillon"),
])
def test_each_label_in_the_games_words(engine, label, view, name, after, short):
    assert turn_name(engine, label, view) == name
    assert turn_name(engine, label, view, after=True) == after
    assert turn_short(engine, label, view) == short


def test_how_much_was_played():
    assert played("gods-playground", ["r1/estate/0/red", "r1/counter/33/blue", "r2/nobles"]) == "2 rounds"
    assert played("havoc", ["b1/recruit/red/0", "b1/dogs/red", "b2/recruit/blue/9", "final/castillon"]) == \
        "2 battles and Castillon"
    assert played("wallenstein", ["setup", "1618-spring", "1618-summer"]) == "2 seasons"


def test_wallenstein_subjects_name_the_season(tmp_path):
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", "--seat", "red=red@example.org",
        "--seat", "blue=ben@example.org", "--seat", "green=cis@example.org", "--deadline-every", "72h")
    run("--db", db, "adjudicate", "w1", "--force")
    rows = Store(db).outbox()
    subjects = {r["subject"] for r in rows}
    assert "[w1] spring 1618: report for red" in subjects and "[w1] orders missed (spring 1618)" in subjects
    assert not [s for s in subjects if LABEL.search(s)], subjects
    late = text(next(r for r in rows if r["kind"] == "late" and r["to_addr"] == "red@example.org"))
    assert "(TURN 1618-spring)" in late  # the label where a player would copy it


def test_a_your_move_subject_names_the_round_and_phase(tmp_path):
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "g1", "--game", "gods-playground", *GP, "--deadline-every", "72h")
    awaited = run("--db", db, "status", "g1").split("awaiting: ")[1].split(";")[0]
    run("--db", db, "bots", "g1", "--seat", awaited)
    run("--db", db, "adjudicate", "g1")
    (mail,) = [r for r in Store(db).outbox() if r["kind"] == "your-move"]
    assert mail["subject"] == "[g1] your move: round 1, starting estates", mail["subject"]
    assert re.search(r"TURN r1/estate/1/\w+", text(mail))


@pytest.fixture(scope="module")
def havoc_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    run("--db", str(root / "h.db"), "demo", "--game", "havoc", "--seats", "3", "--no-reports", "--out", str(root / "d"))
    run("--db", str(root / "h.db"), "site", "demo-havoc", "--out", str(root / "site"))
    return root


def test_the_site_says_battles_not_turns(havoc_site):
    index = (havoc_site / "site" / "index.html").read_text(encoding="utf-8")
    shown = re.sub(r"<script.*?</script>|<[^>]+>", " ", index, flags=re.S)
    assert "Over after 8 battles and Castillon; winner:" in shown, shown[:600]
    assert "turn(s)" not in shown and not LABEL.search(shown), LABEL.findall(shown)[:5]
    assert "after battle 1 (" in shown and "the end of the war" in shown
    assert "Havoc: The Hundred Years War" in shown


def test_the_site_chart_axis_names_the_battles(havoc_site, monkeypatch):
    import reports.charts
    from pbem.loop.service import Service
    from pbem.archives.site import site_input

    drawn = {}

    def spy(history, panels, palette, xlabel="", dpi=100):
        drawn["labels"], drawn["xlabel"] = [h["turn"] for h in history], xlabel
        return b""

    monkeypatch.setattr(reports.charts, "line_charts", spy)
    site_input(Service(Store(str(havoc_site / "h.db"))), "demo-havoc")
    assert drawn["labels"][0] == "Sluys" and drawn["labels"][-1] == "Castillon", drawn
    assert drawn["xlabel"] == "battle" and not [x for x in drawn["labels"] if LABEL.search(x)], drawn
