"""Press between seats: PRESS TO ... END blocks relayed by the GM's mailbox."""

from __future__ import annotations

import json
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from pbem.mailout import press as press_log
from pbem.cli.main import cli
from pbem.errors import DomainError
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from tests.mail.conftest import PASSWORDS, SEATS, create, replies, reply_text

SECRET = "Meet me at the Danube, betray green in autumn"


def mail(seat: str, body: str, subject: str = "orders", msgid: str | None = None) -> bytes:
    """A real MIME mail from ``seat``'s registered address."""
    msg = EmailMessage()
    msg["From"] = SEATS[seat]
    msg["To"] = "gm@pbem.example"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime(2026, 1, 1, 13, 0, tzinfo=timezone.utc))
    msg["Message-ID"] = msgid or make_msgid(domain="example.org")
    msg.set_content(body)
    return bytes(msg)


def block(seat: str, inner: str, game: str = "duel") -> str:
    return f"Hi GM,\n\nGAME {game} {seat} {PASSWORDS[seat]}\n{inner}\nEND\n\nCheers\n"


def relayed(service) -> list[dict]:
    return [r for r in service.store.outbox() if r["kind"] == "press"]


def text_of(row: dict) -> str:
    return reply_text(row)


def flat(text: str) -> str:
    """``text`` with its line wrapping undone (a reply wraps long lines)."""
    return " ".join(text.split())


def test_press_only_block_is_relayed_to_the_named_seats_from_the_gm(games, ingest):
    out = ingest(mail("blue", block("blue", f"PRESS TO red, green\n{SECRET}\nEND")))
    assert out.outcome == "accepted" and out.note == "duel/blue accepted (press: 1 of 1 relayed)"
    rows = relayed(games)
    assert sorted(r["to_addr"] for r in rows) == sorted([SEATS["red"], SEATS["green"]])
    for row in rows:
        msg = message_from_bytes(row["message"], policy=policy.default)
        assert msg["From"] == "gm@pbem.example" and msg["Subject"] == "[duel] press from blue"
        body = text_of(row)
        assert SECRET in body and "seat blue" in body and "red, green" in body
        assert SEATS["blue"] not in row["message"].decode("utf-8", "replace")  # no address passed on
        assert msg["X-PBEM-Loop"] == "press"
    [reply] = replies(games)
    assert reply["to_addr"] == SEATS["blue"]
    assert "PRESS on line 4: relayed to red, green" in reply_text(reply)
    assert SECRET not in reply_text(reply)
    assert games.load("duel").submitted == {}  # press needs no orders and records none


def test_press_and_orders_in_one_block(games, ingest):
    out = ingest(mail("red", block("red", f"BID 1\nPRESS TO ALL\n{SECRET}\nEND")))
    assert out.outcome == "accepted"
    assert {s: o["text"] for s, o in games.load("duel").submitted.items()} == {"red": "BID 1"}
    assert sorted(r["to_addr"] for r in relayed(games)) == sorted(SEATS[s] for s in ("blue", "green", "yellow"))
    assert all(text_of(r).count(SECRET) == 1 and "to every seat" in text_of(r) for r in relayed(games))
    body = reply_text(replies(games)[0])
    assert "ACCEPTED" in body and "BID 1" in body and "relayed to blue, green, yellow" in body


def test_rejected_orders_do_not_stop_the_press_and_the_reply_says_so(games, ingest):
    ingest(mail("red", block("red", f"BID 99\nPRESS TO blue\n{SECRET}\nEND")))
    assert [r["to_addr"] for r in relayed(games)] == [SEATS["blue"]]
    body = " ".join(reply_text(replies(games)[0]).split())
    assert "REJECTED" in body and "None of its orders were recorded" in body and "relayed to blue" in body


def test_same_mail_twice_relays_once(games):
    raw = mail("blue", block("blue", f"PRESS TO red\n{SECRET}\nEND"), msgid="<press-1@example.org>")
    ingestor = Ingestor(games)
    assert ingestor.ingest(RawMail(raw, "a")).outcome == "accepted"
    assert ingestor.ingest(RawMail(raw, "b")).outcome == "duplicate"
    assert Ingestor(games, retry_rejected=True).ingest(RawMail(raw, "c")).outcome == "duplicate"
    assert len(relayed(games)) == 1 and len(press_log.rows(games.store, "duel")) == 1


def test_a_rejected_mail_retried_does_not_relay_its_press_again(games):
    raw = mail("red", block("red", f"BID 99\nPRESS TO blue\n{SECRET}\nEND"), msgid="<press-2@example.org>")
    assert Ingestor(games).ingest(RawMail(raw, "a")).outcome == "rejected"  # the orders were wrong
    again = Ingestor(games, retry_rejected=True).ingest(RawMail(raw, "b"))
    assert again.outcome == "rejected" and len(relayed(games)) == 1
    assert len(press_log.rows(games.store, "duel")) == 1


def test_press_from_an_unauthenticated_sender_is_refused_like_orders(games, ingest):
    forged = mail("blue", block("blue", f"PRESS TO red\n{SECRET}\nEND")).replace(
        SEATS["blue"].encode(), b"mallory@evil.example")
    assert ingest(forged).outcome == "ignored"  # an address no game knows
    wrong = mail("blue", block("blue", f"PRESS TO red\n{SECRET}\nEND").replace(PASSWORDS["blue"], "xxxx-yyyy-zzzz"))
    assert ingest(wrong).outcome == "rejected"
    assert relayed(games) == [] and press_log.rows(games.store, "duel") == []


@pytest.mark.parametrize("inner,why", [
    (f"PRESS TO purple\n{SECRET}\nEND", "no seat 'purple' in game duel"),
    (f"PRESS TO blue\n{SECRET}\nEND", "names only your own seat"),
    ("PRESS TO red\n\nEND", "holds no text"),
    (f"PRESS\n{SECRET}\nEND", "names no seat"),
    (f"PRESS TO red, ALL\n{SECRET}\nEND", "PRESS TO ALL alone"),
])
def test_bad_press_is_refused_with_a_reason_and_nothing_relayed(games, ingest, inner, why):
    out = ingest(mail("blue", block("blue", inner)))
    assert out.outcome == "rejected" and out.problems == 1
    assert relayed(games) == []
    body = flat(reply_text(replies(games)[0]))
    assert "NOT relayed" in body and why in body


def test_press_without_its_end_is_an_envelope_problem_and_nothing_is_relayed(games, ingest):
    out = ingest(mail("blue", f"GAME duel blue {PASSWORDS['blue']}\nPRESS TO red\n{SECRET}\nEND\n"))
    assert out.outcome == "rejected" and relayed(games) == []
    assert "closed the PRESS block of line 2" in flat(reply_text(replies(games)[0]))


def _game(service, monkeypatch, **options: str) -> None:
    create(service, monkeypatch, "p1", ["red", "blue", "green"], options=options)


@pytest.fixture
def fresh(service, monkeypatch):
    def make(**options: str):
        _game(service, monkeypatch, **options)
        return lambda raw: Ingestor(service).ingest(RawMail(raw, "<test>"))
    return make


def test_press_off_is_refused(service, fresh):
    run = fresh(press="off")
    out = run(mail("blue", block("blue", f"PRESS TO red\n{SECRET}\nEND", "p1")))
    assert out.outcome == "rejected" and relayed(service) == []
    assert "press is off in game p1" in flat(reply_text(replies(service)[0]))
    assert service.load("p1").created["options"] == {}  # the engine never sees press options


def test_public_press_allows_only_to_all(service, fresh):
    run = fresh(press="public")
    run(mail("blue", block("blue", f"PRESS TO red\n{SECRET}\nEND", "p1")))
    assert relayed(service) == []
    assert "allows only public press" in flat(reply_text(replies(service)[0]))
    run(mail("blue", block("blue", f"PRESS TO ALL\n{SECRET}\nEND", "p1")))
    assert sorted(r["to_addr"] for r in relayed(service)) == sorted([SEATS["red"], SEATS["green"]])


def test_grey_press_hides_the_sender_from_recipients_not_from_the_gm(service, fresh):
    run = fresh(press="grey")
    run(mail("blue", block("blue", f"PRESS TO red\n{SECRET}\nEND", "p1")))
    [row] = relayed(service)
    assert row["subject"] == "[p1] press (anonymous)"
    body = text_of(row)
    assert SECRET in body and "blue" not in body and "an anonymous seat" in body
    assert "blue" not in row["message"].decode("utf-8", "replace").split("\n\n", 1)[0]
    assert press_log.visible(service.store, "p1", "red")[0]["from"] is None
    assert press_log.visible(service.store, "p1", "blue")[0]["from"] == "blue"
    assert press_log.visible(service.store, "p1", None)[0]["from"] == "blue"


def test_size_and_count_limits(service, fresh):
    run = fresh(press_size="20", press_count="2")
    run(mail("blue", block("blue", "PRESS TO red\n" + "x" * 21 + "\nEND", "p1")))
    assert "21 bytes, more than the 20" in flat(reply_text(replies(service)[-1]))
    for n in range(3):
        run(mail("blue", block("blue", f"PRESS TO red\nnote {n}\nEND", "p1")))
    assert [text_of(r).count("note ") for r in relayed(service)] == [1, 1]
    assert "sent 2 press messages in turn round-1" in flat(reply_text(replies(service)[-1]))


@pytest.mark.parametrize("options,why", [({"press": "loud"}, "choose one of on, public, grey, off"),
                                         ({"press_size": "0"}, "at least 1"),
                                         ({"press_count": "many"}, "at least 1")])
def test_bad_press_options_are_refused_at_creation(service, monkeypatch, options, why):
    with pytest.raises(DomainError, match=why):
        _game(service, monkeypatch, **options)


def test_a_password_pasted_into_press_is_never_relayed(games, ingest):
    ingest(mail("blue", block("blue", f"PRESS TO red\nmy password is {PASSWORDS['blue']} and {PASSWORDS['red']}\nEND")))
    body = text_of(relayed(games)[0])
    assert PASSWORDS["blue"] not in body and PASSWORDS["red"] not in body and "******" in body


def test_header_injection_in_press_stays_in_the_body(games, ingest):
    evil = "Bcc: everyone@example.org\r\nSubject: hacked\n\nbody"
    ingest(mail("blue", block("blue", f"PRESS TO red\n{evil}\nEND")))
    [row] = relayed(games)
    msg = message_from_bytes(row["message"], policy=policy.default)
    assert msg["Bcc"] is None and msg["Subject"] == "[duel] press from blue"
    assert row["to_addr"] == SEATS["red"]


def test_gm_text_cannot_send_press(games):
    out = Ingestor(games).ingest(RawMail(f"GAME duel blue\nPRESS TO red\n{SECRET}\nEND\nEND\n".encode(), "gm.txt"))
    assert relayed(games) == [] and "press is sent by a seat's own mail" in (out.reply or "")


def test_press_log_chain_detects_a_changed_row(games, ingest):
    ingest(mail("blue", block("blue", f"PRESS TO red\n{SECRET}\nEND")))
    ingest(mail("red", block("red", "PRESS TO blue\nno\nEND")))
    assert press_log.verify(games.store, "duel") == []
    games.store.db.execute("update press set text = 'yes' where seq = 2")
    assert press_log.verify(games.store, "duel") == ["press 2: changed after it was recorded"]


def test_press_json_lists_what_the_gm_and_a_seat_may_see(games, ingest):
    from click.testing import CliRunner

    from pbem.cli.app import App
    from pbem.cli.main import cli

    ingest(mail("blue", block("blue", f"PRESS TO red\n{SECRET}\nEND")))
    app = App(games.store.path)
    gm = json.loads(CliRunner().invoke(cli, ["press", "duel", "--json"], obj=app).output)
    assert [(p["from"], p["to"], p["text"]) for p in gm["press"]] == [("blue", ["red"], SECRET)]
    green = CliRunner().invoke(cli, ["press", "duel", "--seat", "green", "--json"], obj=app)
    assert json.loads(green.output)["press"] == []


def test_the_press_fixture_thunderbird_mail(games, ingest):
    out = ingest("press.eml")
    assert out.outcome == "accepted"
    assert sorted(r["to_addr"] for r in relayed(games)) == sorted([SEATS["red"], SEATS["green"]])
    assert {s: o["text"] for s, o in games.load("duel").submitted.items()} == {"blue": "BID 1"}


def test_the_welcome_mail_says_how_to_send_press(service, fresh):
    fresh(press="grey")
    welcome = next(r for r in service.store.outbox() if r["kind"] == "welcome")
    assert "PRESS TO <seat>" in text_of(welcome) and "anonymous in this game" in text_of(welcome)


def test_no_press_line_in_the_welcome_when_press_is_off(service, fresh):
    fresh(press="off")
    assert all("PRESS" not in text_of(r) for r in service.store.outbox() if r["kind"] == "welcome")


def test_relayed_press_is_delivered_over_smtp_to_the_recipient_only(games, ingest):
    """The relayed mail goes through a real SMTP server (aiosmtpd) to the recipient's
    address alone, from the GM's address, with the press text in its body."""
    from aiosmtpd.controller import Controller

    from pbem.mailout.deliver import SmtpSettings, SmtpTransport, send_outbox
    from tests.mail.servers import Scripted, free_port

    out = ingest(mail("blue", block("blue", f"PRESS TO green\n{SECRET}\nEND")))
    assert out.as_dict()["blocks"][0]["press"] == {"relayed": 1, "refused": 0}
    handler, port = Scripted(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        send_outbox(games.store, SmtpTransport(SmtpSettings("127.0.0.1", port)))
    finally:
        controller.stop()
    press_mails = [m for m in handler.messages if b"X-PBEM-Loop: press" in m[2]]
    assert [m[1] for m in press_mails] == [[SEATS["green"]]]
    msg = message_from_bytes(press_mails[0][2], policy=policy.default)
    assert msg["From"] == "gm@pbem.example" and msg["To"] == SEATS["green"]
    assert SECRET in msg.get_body(preferencelist=("plain",)).get_content()
    assert all(SECRET.encode() not in m[2] for m in handler.messages if m[1] != [SEATS["green"]])


def test_help_by_mail_says_how_to_send_press(games, ingest):
    assert ingest(mail("green", "HELP duel green\n", subject="HELP duel green")).outcome == "command"
    [answer] = [r for r in games.store.outbox() if r["kind"] == "command"]
    assert "'PRESS TO <seat>, <seat>' or 'PRESS TO ALL'" in " ".join(text_of(answer).split())


def test_an_exported_mail_keeps_its_orders_and_loses_its_press_and_password():
    from pbem.archives.masking import mask_mail

    raw = mail("blue", block("blue", f"BID 2\nPRESS TO red, green\n{SECRET}\nEND"))
    masked = mask_mail(raw, list(SEATS))
    text = masked.decode("utf-8")
    assert "BID 2" in text and f"GAME duel blue {'*' * len(PASSWORDS['blue'])}" in text
    assert SECRET not in text and "red, green" not in text
    assert mask_mail(mail("blue", block("blue", "BID 2")), list(SEATS)).count(b"BID 2") == 1


def test_a_turn_reopened_by_a_rollback_counts_its_press_limit_afresh(service, fresh):
    """Press sent in a turn before a rollback reopened it does not count toward
    the replayed turn's limit; the old press stays in the log (and its chain intact)."""
    from pbem.loop.reopen import rollback

    run = fresh(press_count="1")
    run(mail("blue", block("blue", "PRESS TO red\nnote 1\nEND", "p1")))
    run(mail("blue", block("blue", "PRESS TO red\nnote 2\nEND", "p1")))
    assert len(relayed(service)) == 1 and "sent 1 press messages" in flat(reply_text(replies(service)[-1]))
    turn = service.load("p1").pending.turn
    service.adjudicate("p1", force=True)
    rollback(service, "p1", turn, "a wrong order was recorded")
    assert service.status("p1")[0]["press"]["sent_this_turn"]["blue"] == 0
    run(mail("blue", block("blue", "PRESS TO red\nnote 3\nEND", "p1")))
    assert [text_of(r).count("note 3") for r in relayed(service)] == [0, 1]
    assert [r["turn"] for r in press_log.rows(service.store, "p1")] == [turn, turn]
    assert press_log.verify(service.store, "p1") == []
    run(mail("blue", block("blue", "PRESS TO red\nnote 4\nEND", "p1")))
    assert len(relayed(service)) == 2  # the replayed turn's own limit still holds
    service.store.db.execute("update press set rollbacks = 0 where seq = 2")  # hide it from the limit
    assert press_log.verify(service.store, "p1") == ["press 2: changed after it was recorded"]


def test_status_shows_the_press_rules_and_this_turns_press(service, fresh, tmp_path):
    from click.testing import CliRunner

    from pbem.cli.main import cli

    run = fresh(press="grey", press_count="3", press_size="100")
    run(mail("blue", block("blue", "PRESS TO red\nnote\nEND", "p1")))
    st = service.status("p1")[0]["press"]
    assert st == {"mode": "grey", "per_turn": 3, "max_bytes": 100,
                  "sent_this_turn": {"red": 0, "blue": 1, "green": 0}}
    out = CliRunner().invoke(cli, ["--db", str(service.store.path), "status", "p1"])
    assert out.exit_code == 0, out.output
    assert "press: grey; at most 3 per seat and turn, 100 bytes each; sent this turn: blue 1" in out.output


NOTE = "Meet me at the Danube in autumn"


@pytest.mark.parametrize("to", ["green, blue, yellow", "ALL", "green, yellow"])
def test_grey_press_recipients_cannot_tell_the_sender_from_the_recipient_list(service, monkeypatch, to):
    """The sender is never among the recipients, so a list of them names the
    one seat missing; a grey press mail and a seat's view of it name only the reader."""
    create(service, monkeypatch, "g4", ["red", "blue", "green", "yellow"], options={"press": "grey"})
    Ingestor(service).ingest(RawMail(mail("red", block("red", f"PRESS TO {to}\n{NOTE}\nEND", "g4")), "<t>"))
    rows = relayed(service)
    assert rows
    for row in rows:
        reader = next(s for s, a in SEATS.items() if a == row["to_addr"])
        body = text_of(row)
        assert NOTE in body
        others = [s for s in ("red", "blue", "green", "yellow") if s != reader]
        assert not [s for s in others if s in body], (reader, body)  # the sender is not findable
        assert not [s for s in others if s in row["subject"]]
        seen = press_log.visible(service.store, "g4", reader)[0]
        assert seen["from"] is None and not [s for s in others if s in json.dumps(seen)]
    shown = CliRunner().invoke(cli, ["--db", service.store.path, "press", "g4", "--seat", "green"]).output
    assert NOTE in shown and not [s for s in ("red", "blue", "yellow") if s in shown], shown
    assert "from red" in CliRunner().invoke(cli, ["--db", service.store.path, "press", "g4"]).output
