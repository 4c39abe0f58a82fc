"""What players plan from: neighbours, the famine warning, grammar, event cards said once,
Havoc's provisional figures said once, the court's order syntax."""

from __future__ import annotations

import copy
import re

import pytest

from adjudicator.base import GM, PUBLIC
from adjudicator.registry import get_engine
from adjudicator.wallenstein.data import events, neighbours
from reports.render import render_report
from reports.wallenstein.content import build_doc
from reports.wallenstein.events import event_list, event_text
from reports.wallenstein.planning import famine_warning, neighbours_section
from tests.reports.games import play, report_input, viewers


EVENT_TEXTS = {event_text(card) for card in events()}


@pytest.fixture(scope="module")
def turns():
    return play("real-3")


def test_every_own_county_lists_its_board_neighbours_and_what_a_manoeuvre_can_send(turns):
    view = get_engine("wallenstein").view(turns[0].state, "red")
    section = neighbours_section(view, "red")
    lines = section.blocks[1].items
    owned = sorted(n for n, c in view["counties"].items() if c["owner"] == "red")
    assert [line.split(" (", 1)[0] for line in lines] == owned
    for name, line in zip(owned, lines):
        listed = re.findall(r"([^:;]+?) \((?:yours|neutral|red|blue|green), \d+\)", line.split("): ", 1)[1])
        assert [n.strip() for n in listed] == list(neighbours(name, 3)), line
        armies = view["counties"][name]["armies"]
        expect = ("too few armies" if armies < 2 else "can send 1 to any" if armies == 2 else
                  f"can send 1 to {armies - 1} to any")
        assert expect in line, line


def test_neighbours_only_in_a_seats_own_report(turns):
    text = render_report(report_input("g", "real-3", turns[0], "red")).text
    assert "YOUR COUNTIES AND THEIR NEIGHBOURS" in text
    for viewer in (PUBLIC, GM):
        assert "THEIR NEIGHBOURS" not in render_report(report_input("g", "real-3", turns[0], viewer)).text


def test_famine_warning_before_winter_only():
    engine = get_engine("wallenstein")
    state, _ = engine.create(["red", "blue", "green"], {}, "famine")
    view = engine.view(state, "red")
    assert famine_warning(view, "red") == []  # spring next: no winter before it
    owned = [n for n, c in view["counties"].items() if c["owner"] == "red"]
    summer = copy.deepcopy(view)
    summer["turn"]["season"] = "summer"
    summer["seats"]["red"]["grain"] = 2
    text = famine_warning(summer, "red")[1].text
    assert f"You hold {len(owned)} counties, so winter needs {len(owned)} grain; you have 2 in store." in text
    assert f"Short by {len(owned) - 2}" in text and "(summer, autumn)" in text and "GRAIN " in text
    summer["seats"]["red"]["grain"] = len(owned)
    assert "That is enough" in famine_warning(summer, "red")[1].text


def test_no_plural_after_one_and_no_list_item_twice(turns):
    for turn in turns:
        for viewer in viewers(turn.state):
            text = render_report(report_input("g", "real-3", turn, viewer)).text
            assert not re.search(r"\b1 (armies|counties|cards|markers)\b", text), (turn.label, viewer)
            doc, _ = build_doc(report_input("g", "real-3", turn, viewer))
            for block in (b for section in doc.sections for b in section.blocks if b.kind == "items"):
                cards = [i for i in block.items if i in EVENT_TEXTS]  # event cards: each text once per list
                assert len(cards) == len(set(cards)), (turn.label, viewer, block.items)


def test_event_list_says_each_text_once():
    cards = ["trading_post_calms_a", "trading_post_calms_b", "grain_min_4"]
    assert len(event_list(cards)) == 2 and event_list(cards)[0].endswith("(both copies)")
    deck = event_list(cards, ordered=True)
    assert len(deck) == 3 and deck[1].endswith("(the other copy)") and deck[0] + " (the other copy)" == deck[1]


def test_havoc_provisional_figures_in_full_only_in_the_first_report_and_the_gms():
    from tests.havoc_reports.games import due_steps, play as play_havoc
    from tests.havoc_reports.games import report_input as havoc_input

    steps = list(due_steps(play_havoc(3, "prov")))
    first, later = steps[0], steps[1]
    assert first.turn.startswith("b1/") and not later.turn.startswith("b1/")
    first_text = render_report(havoc_input(first, "red", "prov")).text
    assert "- provisional:" not in first_text and "Crécy: 2nd-place points, cards dealt" in first_text  # plain list
    short = render_report(havoc_input(later, "red", "prov")).text
    assert "- provisional:" not in short and "Crécy:" not in short
    assert re.search(r"PROVISIONAL: \d+ figures in use are our own choice", short)
    assert "mail HELP RULES" in " ".join(short.split())
    assert render_report(havoc_input(first, GM, "prov")).text.count("- provisional:") > 10
    assert render_report(havoc_input(later, GM, "prov")).text.count("- provisional:") > 10


def test_court_order_syntax_in_the_report_and_the_welcome_mail(tmp_path):
    from click.testing import CliRunner

    from pbem.cli.main import cli
    from pbem.mailout.reporting import order_help

    assert "COURT3" in order_help("wallenstein", {"expansion": "court"})
    assert "COURT3" not in order_help("wallenstein", {})
    db = str(tmp_path / "c.db")
    seats = [a for s in ("red", "blue", "yellow") for a in ("--seat", f"{s}={s}@example.org")]
    run = CliRunner()
    assert run.invoke(cli, ["--db", db, "new", "c1", "--game", "wallenstein", *seats, "--seed", "court", "--weak-seed",
                            "--option", "expansion=court"]).exit_code == 0
    import sqlite3

    from pbem.store.mailpack import unpack

    conn = sqlite3.connect(db)
    welcome = unpack(conn, conn.execute("SELECT message FROM outbox WHERE kind = 'welcome'").fetchone()[0])
    assert b"COURT3 <county>" in welcome and b"FAVOUR <card numbers" in welcome and b"BID TOWER" in welcome
    run.invoke(cli, ["--db", db, "bots", "c1", "--seat", "red", "--seat", "blue", "--seat", "yellow"])
    assert run.invoke(cli, ["--db", db, "adjudicate", "c1"]).exit_code == 0
    out = tmp_path / "r"
    assert run.invoke(cli, ["--db", db, "report", "c1", "--seat", "red", "--out", str(out)]).exit_code == 0
    text = next(out.rglob("report.txt")).read_text(encoding="utf-8")
    assert "COURT3 <county>" in text and "FAVOUR" in text and "TAX TOWER" in text


def test_html_footer_wraps_at_spaces_and_breaks_only_overlong_hashes(turns):
    html = render_report(report_input("g", "real-3", turns[1], "red")).html
    footer = html[html.index("Seed commitment") - 400:]
    assert "break-all" not in html  # broke ordinary words ("so m / arkers")
    assert "overflow-wrap:anywhere" in footer


def test_chart_axes_make_sense_from_the_first_season():
    from matplotlib.figure import Figure

    from reports.charts import _axes_limits

    ax = Figure().subplots()
    _axes_limits(ax, {"red": [0.0], "blue": [0.0]}, 1)
    low, high = ax.get_ylim()
    assert low <= 0 and high >= 5 and low > -1  # not -0.04..0.04 around a single dot
    ax = Figure().subplots()
    _axes_limits(ax, {"red": [30.0, 31.0]}, 2)
    assert ax.get_ylim()[0] <= 0 and ax.get_ylim()[1] > 31


def test_equal_lines_in_a_chart_both_show():
    import io

    from PIL import Image

    from reports.charts import line_charts

    palette = {"red": "#c0392b", "blue": "#2e6fd1"}
    history = [{"turn": t, "scores": {"red": v, "blue": v}} for t, v in (("a", 0), ("b", 3), ("c", 12))]
    image = Image.open(io.BytesIO(line_charts(history, (("scores", "VP"),), palette))).convert("RGB")
    counts = {rgb: n for n, rgb in image.getcolors(maxcolors=1_000_000)}
    for colour in palette.values():
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert counts.get(rgb, 0) > 150, f"{colour} hidden by an equal line"


def test_havoc_reports_carry_the_public_recruiting_record_and_no_deck_card():
    from types import SimpleNamespace

    from pbem.mailout.reporting import public_record
    from tests.havoc_reports.games import due_steps, play as play_havoc
    from tests.havoc_reports.games import report_input as havoc_input

    steps = play_havoc(3, "record")
    game = SimpleNamespace(engine=SimpleNamespace(name="havoc"),
                           turns=[{"turn": s.turn, "events": s.events} for s in steps])
    shown = 0

    def recruited(step):
        battle = step.turn.split("/", 1)[0]
        return [e for s in steps if s.turn.startswith(battle + "/") for e in s.events if e["type"] == "Recruit"]

    for step in [s for s in due_steps(steps) if recruited(s)][1:4]:  # battles with recruiting before them
        recruits = recruited(step)
        drawn = {c["card"] for e in recruits for c in e["took"] if c["from"] == "deck"}
        inp = havoc_input(step, PUBLIC, "record")
        inp.record = public_record(game, step.turn)
        text = " ".join(render_report(inp).text.split())
        assert len(inp.record) == len(recruits) and "RECRUITING BEFORE THIS BATTLE" in text
        for e in recruits:
            assert f"- {e['seat']} " in text
            for c in e["took"]:
                if c["from"] != "deck":
                    assert c["card"] in text
                    shown += 1
            if e.get("laid"):
                assert f"laid {e['laid']}" in text
        assert not [c for r in inp.record for t in r["took"] if t["from"] == "deck" for c in [t["card"]] if c]
        assert not drawn & {c for r in inp.record for t in r["took"] for c in [t["card"]] if c}
    assert shown > 0
