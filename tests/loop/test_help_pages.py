"""A player gets the order syntax and the rules by mail, as the welcome mail says: a mail
`HELP ORDERS` (subject or first line) brings the game's order page and the mail envelope
page of docs/ whole, `HELP RULES` its rules reference, for each of the three games (the
Imperial Court's page too when the game plays it). The welcome mail names the game as on its
box (not the engine id), says how to get these pages (no "ask your GM for a copy"), and
mentions a map picture only when the report has one (Havoc's has none)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from tests.loop.mailrun import SEATS, Setup, text

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAMES = {
    "wallenstein": (("red", "blue", "green"), "Wallenstein", "orders-wallenstein.md", "wallenstein-rules.md"),
    "havoc": (("red", "blue", "green"), "Havoc: The Hundred Years War", "orders-havoc.md", "havoc-rules.md"),
    "gods-playground": (("white", "blue", "red"), "God's Playground", "orders-gods-playground.md",
                        "gods-playground-rules.md"),
}


class Clock:
    now = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def _setup(tmp_path, engine: str, **options: str) -> Setup:
    gm = Setup(tmp_path, Clock())
    SEATS.setdefault("white", "wil@example.org")
    gm.new_game("g1", engine, GAMES[engine][0], options=options or None, deadline_every="72h")
    return gm


def _page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8").rstrip()


@pytest.mark.parametrize("engine", list(GAMES))
def test_help_orders_and_help_rules_mail_the_pages(tmp_path, engine):
    seats, title, orders, rules = GAMES[engine]
    gm = _setup(tmp_path, engine)
    player = SEATS[seats[1]]
    gm.mail(player, "HELP ORDERS", "thanks\n")
    gm.mail(player, "question", "help rules\n\nand thanks\n")
    out = gm.ingest()
    assert out.count("command") >= 2, out
    answers = {a["subject"]: text(a) for a in gm.outbox("command", to=player)}
    assert sorted(answers) == [f"[g1] order syntax ({title})", f"[g1] rules reference ({title})"], list(answers)
    syntax, reference = answers[f"[g1] order syntax ({title})"], answers[f"[g1] rules reference ({title})"]
    assert _page(orders) in syntax and _page("order-mail.md") in syntax
    assert _page(rules) in reference and _page(orders) not in reference


def test_the_court_game_gets_the_court_page_too(tmp_path):
    gm = _setup(tmp_path, "wallenstein", expansion="court")
    gm.mail(SEATS["blue"], "HELP ORDERS", "thanks\n")
    gm.mail(SEATS["blue"], "HELP RULES", "thanks\n")
    gm.ingest()
    rows = {a["subject"]: text(a) for a in gm.outbox("command")}
    title = "Wallenstein with the Imperial Court"
    syntax, reference = rows[f"[g1] order syntax ({title})"], rows[f"[g1] rules reference ({title})"]
    court = _page("wallenstein-court.md")
    assert court in syntax and court in reference


@pytest.mark.parametrize("engine", list(GAMES))
def test_the_welcome_mail_names_the_game_and_how_to_get_the_pages(tmp_path, engine):
    seats, title, _, _ = GAMES[engine]
    gm = _setup(tmp_path, engine)
    welcome = text(gm.outbox("welcome", to=SEATS[seats[0]])[0])
    assert " ".join(welcome.split()).startswith(f"Welcome to {title}, game g1. You play the seat '{seats[0]}'."), welcome[:200]
    assert "ask your GM" not in welcome and "HELP ORDERS" in welcome and "HELP RULES" in welcome
    assert f"Welcome to {engine}" not in welcome
    has_map = engine != "havoc"
    assert ("see the map picture" in welcome) == has_map, welcome
    help_ = None
    gm.mail(SEATS[seats[0]], "HELP", "thanks\n")
    gm.ingest()
    help_ = text(gm.outbox("command", to=SEATS[seats[0]])[0])
    assert "HELP ORDERS" in help_ and "HELP RULES" in help_ and "docs/" not in help_
