"""End to end, as a GM runs a 4-seat Wallenstein season by mail:
new -> four order mails (in a Maildir) -> ingest -> status -> adjudicate -> replies and
each seat's season report in the outbox."""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from adjudicator.registry import get_engine
from adjudicator.chance import Chance
from pbem.cli.main import cli
from pbem.mailout.deliver import message_of
from pbem.loop.service import Service
from pbem.store.db import Store
from turns.games import format_orders

SEATS = {"gabor": "gabor@example.hu", "eva": "eva@example.hu", "gergo": "gergo@example.hu",
         "erika": "erika@example.de"}

pytest.importorskip("turns.wallenstein")


def run(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, result.output
    return result.output


def order_mail(seat: str, game: str, password: str, orders_text: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{seat.title()} <{SEATS[seat]}>"
    msg["To"] = "gm@pbem.example"
    msg["Subject"] = f"{game} orders"
    msg["Date"] = format_datetime(datetime(2026, 11, 30, 9, n, tzinfo=timezone.utc))
    msg["Message-ID"] = f"<{seat}.{n}@example.hu>"
    msg.set_content(f"Szia!\n\nGAME {game} {seat} {password}\n{orders_text}\nEND\n\n-- \n{seat}\n",
                    charset="iso-8859-2" if seat != "erika" else "utf-8")
    return bytes(msg)


def test_a_wallenstein_season_by_mail(tmp_path):
    db = str(tmp_path / "w.db")
    created = json.loads(run(db, "new", "w1", "--game", "wallenstein", "--seed", "mail-loop-1", "--weak-seed",
                             "--deadline", "2036-12-07T18:00+01:00", "--json",
                             *[a for s, e in SEATS.items() for a in ("--seat", f"{s}={e}")]))
    turn = created["turn"]
    service = Service(Store(db))
    game = service.load("w1")
    engine = get_engine("wallenstein")
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    sent_orders = {}
    for n, seat in enumerate(SEATS):
        orders = engine.random_orders(game.state, seat, Chance("bots").stream(f"{turn}/{seat}"))
        sent_orders[seat] = format_orders("wallenstein", orders)
        box.add(order_mail(seat, "w1", created["seats"][seat]["password"], sent_orders[seat], n))
    lines = sent_orders["gabor"].split("\n")
    lines[1] = "TAXX " + lines[1].split(" ", 1)[-1]  # a misspelt keyword on the second order line
    typo = "\n".join(lines)
    box.add(order_mail("gabor", "w1", created["seats"]["gabor"]["password"], typo, 9))

    out = json.loads(run(db, "ingest", str(tmp_path / "Maildir"), "--json"))
    assert sorted(o["outcome"] for o in out) == ["accepted"] * 4 + ["rejected"]
    rejected = next(o for o in out if o["outcome"] == "rejected")
    assert rejected["problems"] >= 1 and rejected["blocks"][0]["seat"] == "gabor"

    status = json.loads(run(db, "status", "w1", "--json"))
    assert status["turn"] == turn and sorted(status["submitted"]) == sorted(SEATS) and status["awaiting"] == []

    outbox = [r for r in Store(db).outbox() if r["kind"] == "reply"]
    assert len(outbox) == 5
    for row in outbox:
        body = message_of(row).get_body(preferencelist=("plain",)).get_content()
        seat = next(s for s, a in SEATS.items() if a == row["to_addr"])
        assert created["seats"][seat]["password"] not in body
        if "ACCEPTED" in body:
            assert sent_orders[seat] in body.replace("\n  ", "\n")
            assert "Sun 7 Dec 2036, 18:00 UTC+01:00 (17:00 UTC)" in body
            others = [t for s, t in sent_orders.items() if s != seat and t != sent_orders[seat]]
            assert not any(t in body for t in others)  # no seat sees another's orders
        else:
            assert "REJECTED" in body and "line 5: TAXX" in body, body

    adjudicated = json.loads(run(db, "adjudicate", "w1", "--json"))
    assert adjudicated[0]["turn"] == turn and adjudicated[0]["defaulted"] == []
    after = json.loads(run(db, "status", "w1", "--json"))
    assert after["turn"] != turn and after["submitted"] == []
    reports = [r for r in Store(db).outbox() if r["kind"] == "report"]
    assert sorted(r["to_addr"] for r in reports) == sorted(SEATS.values())  # the season's reports
    assert all(r["cause_seq"] for r in reports)
    for row in Store(db).outbox():  # replies and reports: never a password
        if row["kind"] != "welcome":
            assert not any(s["password"].encode() in row["message"] for s in created["seats"].values())
    log = json.loads(run(db, "log", "w1", "--json"))
    submitted = [e for e in log["events"] if e["type"] == "OrdersSubmitted"]
    assert len(submitted) == 4 and all(e["payload"]["source"]["kind"] == "mail" for e in submitted)
    assert log["chain_problems"] == []
