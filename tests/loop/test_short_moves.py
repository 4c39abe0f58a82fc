"""A decision's mail costs what it says: in God's Playground and Havoc a "your move" mail is
a short plain-text mail that names (and replies to) the seat's last full report, while the
report with its pictures goes out once a round or battle; a seat may ask for its reports as
plain text without pictures (``DIGEST ON``), recorded in the log."""

from __future__ import annotations

import json

import pytest

from adjudicator.chance import Chance
from pbem.mailout.deliver import message_of
from pbem.loop.demo import bot_for, order_mail
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from pbem.loop.service import Service
from tests.clirun import run

GP = [("white", "w@x.org"), ("blue", "b@x.org"), ("red", "r@x.org")]
HAVOC = [("red", "anna@example.org"), ("blue", "ben@example.org"), ("yellow", "cis@example.org")]


def _play(service: Service, game_id: str, steps: int, seed: str) -> None:
    chance = Chance(seed)
    for n in range(steps):
        game = service.load(game_id)
        if game.pending is None:
            return
        for seat in service.awaited(game):
            orders = bot_for(game, "random")(game.state, seat, chance.stream(f"{n}/{seat}"))
            service.submit(game_id, seat, orders, "", {"kind": "bot"})
        service.adjudicate(game_id, limit=1)


def _rows(service: Service, kind: str) -> list[dict]:
    return [r for r in service.store.outbox() if r["kind"] == kind]


def _parts(row: dict) -> list[str]:
    return [p.get_content_type() for p in message_of(row).walk()]


@pytest.mark.parametrize("engine,seats,steps", [("gods-playground", GP, 80), ("havoc", HAVOC, 30)])
def test_a_your_move_mail_is_short_text_naming_the_last_report(service, engine, seats, steps):
    service.new_game("g", engine, seats, {}, seed="short-moves-" + "s" * 40)
    _play(service, "g", steps, "short")
    moves, reports = _rows(service, "your-move"), _rows(service, "report")
    assert moves and reports, (len(moves), len(reports))
    for row in moves:
        assert _parts(row) == ["text/plain"], "a your-move mail carries no HTML and no pictures"
        assert len(row["message"]) < 6000, len(row["message"])
        msg = message_of(row)
        text = msg.get_body(preferencelist=("plain",)).get_content()
        assert "Mail REPORT (as the subject) to get your report as it stands now, with the map." in " ".join(text.split())
        # prose is folded at 72 characters; an indented order line stays whole (a player copies it)
        assert max(len(line) for line in text.splitlines() if not line[:1].isspace()) <= 72
        # it replies to the last mail that carried the seat's whole report (a report or the welcome)
        earlier = [r for r in service.store.outbox() if r["to_addr"] == row["to_addr"] and r["id"] < row["id"]
                   and r["kind"] in ("report", "welcome")]
        assert msg["In-Reply-To"] == earlier[-1]["message_id"]
        assert f'"{earlier[-1]["subject"]}"' in " ".join(text.split())
    assert all("image/png" in _parts(r) for r in reports if engine == "gods-playground")
    # the pictures are stored once, with the reports; the your-move mails add none
    blobs = service.store.conn.execute("select count(*) from blobs").fetchone()[0]
    _play(service, "g", 3, "more")
    if not [r for r in _rows(service, "report") if r["id"] > max(r["id"] for r in reports)]:
        assert service.store.conn.execute("select count(*) from blobs").fetchone()[0] == blobs


def test_god_s_playground_your_move_tells_what_happened_since_the_seat_s_last_mail(service):
    service.new_game("g", "gods-playground", GP, {}, seed="short-moves-" + "t" * 40)
    _play(service, "g", 30, "story")
    texts = [message_of(r).get_body(preferencelist=("plain",)).get_content() for r in _rows(service, "your-move")]
    told = [t for t in texts if "WHAT HAPPENED SINCE YOUR LAST MAIL" in t]
    assert told and all("YOUR POSITION" in t for t in texts)
    assert any("took a starting estate" in t or "passed" in t for t in told)


def _mail(service: Service, game_id: str, seat: str, password: str, body: str, n: int) -> str:
    game = service.load(game_id)
    raw = order_mail(game, seat, password, body, service.store.clock(), service.sender)
    raw = raw.replace(b"@demo.pbem.invalid>", f".{n}@digest.invalid>".encode())
    Ingestor(service).ingest(RawMail(raw, f"mail-{n}"))
    reply = [r for r in service.store.outbox() if r["to_addr"] == game.seats[seat]["email"] and r["kind"] == "reply"][-1]
    return " ".join(message_of(reply).get_content().split())


def test_digest_on_by_mail_makes_the_seat_s_reports_plain_text_and_is_in_the_log(service, tmp_path):
    created = service.new_game("w1", "wallenstein", [("red", "r@x.org"), ("blue", "b@x.org"), ("yellow", "y@x.org")],
                               {}, seed="digest-" + "d" * 40)
    reply = _mail(service, "w1", "red", created.passwords["red"], "DIGEST ON", 1)
    assert "DIGEST for game w1, seat red (GAME line" in reply and "plain text without pictures" in reply
    assert "DIGEST for game w1, seat red" in _mail(service, "w1", "red", created.passwords["red"], "digest on", 2)
    events = [e for e in service.store.events("w1") if e.type == "SeatPreference"]
    assert [(e.payload["seat"], e.payload["digest"]) for e in events] == [("red", True)]  # the second changed nothing
    service.adjudicate("w1", force=True)
    reports = {r["to_addr"]: r for r in _rows(service, "report")}
    assert _parts(reports["r@x.org"]) == ["text/plain"]
    assert "image/png" in _parts(reports["b@x.org"])
    text = message_of(reports["r@x.org"]).get_content()
    assert "DIGEST OFF brings the pictures back" in " ".join(text.split())
    status = json.loads(run("--db", service.store.path, "status", "w1", "--json"))
    assert status["digest"] == ["red"]
    assert "reports as plain text without pictures (DIGEST ON): red" in run("--db", service.store.path, "status", "w1")
    assert "verified" in run("--db", service.store.path, "replay", "w1", "--verify")
    _mail(service, "w1", "red", created.passwords["red"], "DIGEST OFF", 3)
    assert service.load("w1").wants_digest("red") is False


def test_the_gm_sets_the_digest_and_a_published_archive_keeps_it_without_its_source(service, tmp_path):
    service.new_game("w1", "wallenstein", [("red", "r@x.org"), ("blue", "b@x.org"), ("yellow", "y@x.org")], {},
                     seed="digest-" + "e" * 40)
    db = service.store.path
    assert "red's reports of w1 now come plain text" in run("--db", db, "seat", "w1", "red", "--digest", "on")
    assert "already" in run("--db", db, "seat", "w1", "red", "--digest", "on")
    out = tmp_path / "w1.pbem.json"
    run("--db", db, "export", "w1", "-o", str(out))
    published = json.loads(out.read_text())
    [pref] = [e for e in published["events"] if e["type"] == "SeatPreference"]
    assert pref["payload"]["seat"] == "red" and pref["payload"]["digest"] is True
    assert set(pref["payload"]["source"]) <= {"kind", "sealed"}
    run("--db", str(tmp_path / "other.db"), "import", str(out))
