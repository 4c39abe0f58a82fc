"""Rendering the hand-built sample view: layout, content, determinism, escaping."""

from __future__ import annotations

import re

import pytest

from reports.render import render_report
from reports.doc import WIDTH
from reports.render import UnknownGame
from tests.reports.pngcheck import png_size, png_text_chunks
from tests.reports.sample import sample_input


@pytest.fixture(scope="module")
def red():
    return render_report(sample_input("red"))


def test_text_fits_72_columns(red):
    too_long = [line for line in red.text.splitlines() if len(line) > WIDTH]
    assert too_long == []


def test_same_input_same_bytes(red):
    again = render_report(sample_input("red"))
    assert again.text == red.text
    assert again.html == red.html
    assert again.images == red.images


def test_pictures_are_pngs_without_varying_metadata(red):
    assert set(red.images) == {"map.png", "chart.png"}
    # 80 dpi (small mails), still wider than the HTML shows each picture
    assert png_size(red.images["map.png"]) == (720, 768)
    shown = {m[0]: int(m[1]) for m in re.findall(r'<img src="([^"]+)"[^>]* width="(\d+)"', red.html)}
    assert png_size(red.images["map.png"])[0] >= shown["map.png"]
    w, h = png_size(red.images["chart.png"])
    assert w >= shown["chart.png"] and h > 200
    for data in red.images.values():
        assert png_text_chunks(data) == []


def test_no_chart_without_history():
    r = render_report(sample_input("red", history=[]))
    assert set(r.images) == {"map.png"}
    assert "chart.png" not in r.html


def test_season_events_in_order(red):
    text = red.text
    marks = ["Bids: red 3 Taler; blue county card Anhalt; green no bid", "Event of the season: When a county with a palace is attacked",
             "Turn order: red, blue, green. Bonus tiles taken: red tax (place 2)", "Action 1: collect taxes",
             "red collects 7 Taler in Böhmen (bonus +1); now 17.", "Action 2: manoeuvre A",
             "Battle for Hm. Paderborn", "from the tray: red 1. Fell out: green 3, red 1, peasants 1.",
             "The attacker wins and moves in with 2 armies.", "green conquers Hm. Paderborn (was neutral)"]
    flat = " ".join(text.split())
    positions = [flat.index(" ".join(m.split())) for m in marks]
    assert positions == sorted(positions)


def test_winter_scoring_table(red):
    assert "WINTER" in red.text
    winter = red.text.split("WINTER")[1].split("MAP")[0]
    assert "Famine for red" in winter and "Revolt in Lausitz" in winter
    assert "Region majorities" in winter and "Österreich  palace" in winter


def test_footer_hashes_provisional_and_no_seed(red):
    assert "c" * 64 in red.text and "a" * 64 in red.text
    assert "PROVISIONAL: 1 figure in use is our own choice" in red.text  # a later season: one line for a seat
    assert "provisional: revolt_markers (rules.json)" not in red.text
    first = render_report(sample_input("red", turn="1618-spring")).text
    assert "It is:" in first and "- revolt_markers" in first and "(rules.json)" not in first
    gm = render_report(sample_input("@gm")).text
    assert "PROVISIONAL figures in use" in gm and "provisional: revolt_markers (rules.json): revolt markers unlimited" in gm
    assert "Seed (the game is over" not in red.text


def test_final_report_reveals_seed():
    r = render_report(sample_input("@public", seed="the-secret-seed"))
    assert "the-secret-seed" in r.text and "the-secret-seed" in r.html


def test_deadline_absolute_with_zone(red):
    assert "Sun 6 Dec 2026, 18:00 UTC+01:00 (17:00 UTC)" in red.text.replace("\n", " ")


def test_hands_by_viewer():
    red = render_report(sample_input("red"))
    public = render_report(sample_input("@public"))
    gm = render_report(sample_input("@gm"))
    assert "YOUR COUNTY CARDS" in red.text and "Vogtland" in red.text.split("YOUR COUNTY CARDS")[1]
    assert "Strassburg, Baden" not in red.text
    assert "COUNTY CARDS" not in public.text
    assert "Strassburg, Baden" in gm.text and "Vogtland, Passau" in gm.text
    assert "HIDDEN CARDS (GM ONLY)" in gm.text and "HIDDEN CARDS" not in red.text + public.text


def test_html_is_autoescaped():
    view_help = "<script>alert(1)</script> & <b>"
    r = render_report(sample_input("red", order_help=view_help))
    assert "<script>alert(1)</script>" not in r.html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;" in r.html
    assert view_help in r.text


def test_html_refers_to_pictures_by_name(red):
    assert 'src="map.png"' in red.html and 'src="chart.png"' in red.html
    assert red.html.count("style=") > 20


def test_html_repeated_styles_once_in_head_essentials_inline(red):
    """Cell, list and footer styles are written once in a <style> block in <head> (not on
    each of hundreds of elements); where a client strips it, the header row's colour, the
    right-aligned numbers and the cell spacing are HTML attributes and still show."""
    head, body = red.html.split("</head>", 1)
    assert head.count("<style>") == 1 and "<style" not in body
    assert "<td style=" not in body and "<li style=" not in body and "<th style=" not in body
    assert 'bgcolor="#efe6d2"' in body and '<td align="right">' in body and 'cellpadding="5"' in body
    assert '<span class="sw" style="background:' in body


def test_unknown_game():
    with pytest.raises(UnknownGame):
        render_report(sample_input("red", game="chess"))


def test_other_hands_never_shown_even_if_a_view_leaked_them():
    """Defence in depth: only the viewer's own hand is ever read from a view."""
    inp = sample_input("red")
    inp.view["seats"]["blue"]["hand"] = ["SECRET-COUNTY"]
    r = render_report(inp)
    assert "SECRET-COUNTY" not in r.text and "SECRET-COUNTY" not in r.html


def test_seat_summary_first():
    r = render_report(sample_input("red"))
    first = " ".join(r.text.split("IN SHORT", 1)[1].split("\n\n")[0].split("\n")[2:])
    assert first.startswith("You (red) have 10 Taler, 5 grain and 12 victory points (place 3 of 3 by VP, then "
                            "Taler)")
    assert "IN SHORT" not in render_report(sample_input("@public")).text
