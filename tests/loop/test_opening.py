"""Every welcome mail carries the seat's opening report (text, HTML, map)
made from that seat's view only, and ``pbem report`` works before the first adjudication."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.mailout.deliver import message_of
from pbem.loop.service import Service
from pbem.store.db import Store

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org"), ("yellow", "cis@example.org")]


def _welcomes(service: Service, game_id: str) -> dict[str, object]:
    rows = [r for r in service.store.outbox() if r["game_id"] == game_id and r["kind"] == "welcome"]
    by_addr = {a: s for s, a in SEATS}
    return {by_addr[r["to_addr"]]: message_of(r) for r in rows}


def _parts(msg) -> tuple[str, str, list[str]]:
    text = msg.get_body(preferencelist=("plain",)).get_content()
    html = msg.get_body(preferencelist=("html",)).get_content()
    files = [p.get_filename() for p in msg.walk() if p.get_filename()]
    return text, html, files


@pytest.mark.parametrize("options", [{}, {"expansion": "court"}])
def test_wallenstein_welcome_carries_the_seats_opening_position(service, options):
    created = service.new_game("w1", "wallenstein", SEATS, options, seed="opening-" + "x" * 40)
    game = created.game
    mails = _welcomes(service, "w1")
    assert sorted(mails) == ["blue", "red", "yellow"]
    for seat, msg in mails.items():
        text, html, files = _parts(msg)
        view = game.engine.view(game.state, seat)
        mine = [n for n, c in view["counties"].items() if c["owner"] == seat]
        assert mine and all(n in text for n in mine)  # the seat's counties, so it can write orders
        assert f"Your password: {created.passwords[seat]}" in text and "GAME w1 " + seat in text
        assert f"You ({seat}) have" in text and "map.png" in files and "<table" in html
        assert "Your password" in html  # the welcome text leads the HTML part too
        if options:
            assert "court" in text.lower()
        assert not any(p in text for s, p in created.passwords.items() if s != seat)


def test_havoc_welcome_shows_only_the_seats_own_hand(service):
    created = service.new_game("h1", "havoc", SEATS, {}, seed="opening-" + "y" * 40)
    state = created.game.state
    for seat, msg in _welcomes(service, "h1").items():
        text, html, _ = _parts(msg)
        lines = text.splitlines()
        at = lines.index(next(line for line in lines if line.startswith("YOUR HAND")))
        para = " ".join(lines[at + 2:lines.index("", at + 2)])
        shown = para.split(": ", 1)[1].rstrip(".").split()
        assert sorted(shown) == sorted(state["hands"][seat])  # its own hand, and no other card
        assert "Your decision" in text or "WHOSE TURN" in text


def test_report_before_the_first_adjudication(tmp_path):
    db = str(tmp_path / "p.db")
    service = Service(Store(db))
    service.new_game("w1", "wallenstein", SEATS, {}, seed="opening-" + "z" * 40)
    result = CliRunner().invoke(cli, ["--db", db, "report", "w1", "--seat", "red", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "r" / "start" / "red" / "report.txt").read_text(encoding="utf-8")
    assert "You (red) have" in text and (tmp_path / "r" / "start" / "red" / "map.png").exists()
    bad = CliRunner().invoke(cli, ["--db", db, "report", "w1", "--turn", "1650-spring", "--out", str(tmp_path / "r")])
    assert bad.exit_code == 1 and "no adjudicated turn" in bad.output
