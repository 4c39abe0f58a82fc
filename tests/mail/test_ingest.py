"""Ingesting order mails into games: outcomes, records and the one reply per mail."""

from __future__ import annotations

import logging
import mailbox

from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import read_path
from tests.mail.conftest import FIXTURES, PASSWORDS, fixture, replies, reply_text


def _events(service, game="duel"):
    return service.store.events(game)


def _submitted(service, game="duel"):
    return {s: o["text"] for s, o in service.load(game).submitted.items()}


def test_accepted_mail_records_orders_and_queues_one_threaded_reply(games, ingest):
    out = ingest("plain.eml")
    assert out.outcome == "accepted" and out.problems == 0
    assert [b.as_dict()["seat"] for b in out.blocks] == ["blue"]
    assert _submitted(games) == {"blue": "BID 2"}
    event = _events(games)[-1]
    assert event.type == "OrdersSubmitted" and event.payload["source"]["kind"] == "mail"
    assert event.payload["source"]["message_id"] == "<a1b2c3d4-0001@example.org>"
    [row] = replies(games)
    assert row["to_addr"] == "ben@example.org" and row["game_id"] == "duel"
    from pbem.mailout.deliver import message_of

    msg = message_of(row)
    assert msg["Auto-Submitted"] == "auto-replied" and msg["X-PBEM-Loop"]
    assert msg["In-Reply-To"] == "<a1b2c3d4-0001@example.org>"
    assert msg["References"] == "<a1b2c3d4-0001@example.org>"
    assert msg["Subject"] == "Re: duel orders round 1"
    body = reply_text(row)
    assert "ACCEPTED" in body and "\n  BID 2\n" in body and "round-1" in body
    assert "You owe nothing more for turn round-1" in body and "3 seats still to send orders" in body
    status = games.store.db.execute("select status, note from mails").fetchall()
    assert status == [("accepted", "duel/blue accepted")]


def test_every_accepted_shape(games, ingest):
    expected = {"iso8859_2_qp.eml": ("duel", "red", "BID 3"), "windows1250.eml": ("duel", "green", "BID 1"),
                "base64.eml": ("duel", "yellow", "BID 0"), "flowed.eml": ("duel", "blue", "BID 1"),
                "outlook_alternative.eml": ("duel", "yellow", "BID 3"),
                "html_only.eml": ("duel", "green", "BID 2"), "quoted_reply.eml": ("duel", "blue", "BID 3"),
                "forwarded_inline.eml": ("duel", "red", "BID 2"),
                "forwarded_attachment.eml": ("duel", "red", "BID 1"),
                "signature.eml": ("duel", "yellow", "BID 2")}
    for name, (game, seat, text) in expected.items():
        out = ingest(name)
        assert out.outcome == "accepted", (name, out.as_dict())
        assert _submitted(games, game)[seat] == text, name
    assert len(replies(games)) == len(expected)
    assert "converted to text" in reply_text(replies(games)[5])  # html_only gets the plain-text hint


def test_two_games_in_one_mail(games, ingest):
    out = ingest("two_games.eml")
    assert out.outcome == "accepted" and [b.game for b in out.blocks] == ["duel", "duel2"]
    assert _submitted(games, "duel") == {"red": "BID 1"} and _submitted(games, "duel2") == {"red": "BID 2"}
    [row] = replies(games)
    body = reply_text(row)
    assert body.count("ACCEPTED") == 2 and "game duel2, seat red" in body


def test_last_accepted_wins_and_older_date_warns(games, ingest):
    assert ingest("plain.eml").outcome == "accepted"
    assert ingest("quoted_reply.eml").outcome == "accepted"
    assert _submitted(games) == {"blue": "BID 3"}
    out = ingest("older_date.eml")
    assert out.outcome == "accepted" and _submitted(games) == {"blue": "BID 0"}
    assert "Warning: this mail is dated 2026-11-29T20:00:00+01:00, earlier than" in reply_text(replies(games)[-1])
    assert "If you meant the newer orders, send them again" in " ".join(reply_text(replies(games)[-1]).split())
    assert "Warning" not in reply_text(replies(games)[1])


def test_auth_failures_are_one_identical_rejection_and_record_nothing(games, ingest):
    before = len(_events(games))
    bodies = []
    for name in ("wrong_password.eml", "unknown_game.eml"):
        out = ingest(name)
        assert out.outcome == "rejected" and out.blocks[0].auth_failed
        assert out.as_dict()["blocks"][0]["game"] is None  # the GM's output does not echo it either
        bodies.append(reply_text(replies(games)[-1]))
    assert len(_events(games)) == before and len(replies(games)) == 2
    assert bodies[0] == bodies[1]
    assert "duel" not in bodies[0] and "round-1" not in bodies[0] and "blue" not in bodies[0]
    assert replies(games)[1]["game_id"] is None
    out = ingest("wrong_sender.eml")  # from an address no game knows: kept, never answered (no backscatter)
    assert out.outcome == "ignored" and out.note.startswith("unknown sender")
    assert len(_events(games)) == before and len(replies(games)) == 2


def test_ignored_mail_is_kept_and_not_answered(games, ingest):
    for name in ("auto_reply.eml", "precedence_bulk.eml", "loop.eml", "bounce.eml"):
        out = ingest(name)
        assert out.outcome == "ignored" and out.note, name
    assert replies(games) == [] and _submitted(games) == {}
    rows = games.store.db.execute("select status, note, raw from mails").fetchall()
    assert len(rows) == 4 and all(r[0] == "ignored" and r[1] for r in rows)
    assert rows[0][2] == fixture("auto_reply.eml")


def test_problems_are_listed_by_mail_line_and_nothing_recorded(games, ingest):
    out = ingest("bad_orders.eml")
    assert out.outcome == "rejected" and out.problems == 3
    assert [p.line for p in out.blocks[0].problems] == [4, 6, 7]
    body = reply_text(replies(games)[0])
    assert "line 4: BDI 2" in body and "line 6: BID" in body and "line 7: BID 9 9" in body
    assert "REJECTED" in body and "How to send orders" in body
    assert _submitted(games) == {}


def test_rule_problem_from_the_engine_names_the_line(games, ingest):
    raw = fixture("plain.eml").replace(b"BID 2", b"BID 7")
    out = ingest(raw)
    assert out.outcome == "rejected" and out.blocks[0].problems[0].line == 6
    assert "bid must be 0-3" in reply_text(replies(games)[0])


def test_no_end_rejects_the_block(games, ingest):
    out = ingest("no_end.eml")
    assert out.outcome == "rejected" and "no END" in reply_text(replies(games)[0])
    assert _submitted(games) == {}


def test_html_only_without_orders_explains_plain_text(games, ingest):
    out = ingest("html_only_no_orders.eml")
    assert out.outcome == "rejected"
    body = reply_text(replies(games)[0])
    assert "No order block" in body and "plain text" in body


def test_quoted_only_blocks_are_explained(games, ingest):
    raw = (b"From: ben@example.org\nSubject: Re: x\nMessage-ID: <q@example.org>\n\n"
           b"> GAME duel blue " + PASSWORDS["blue"].encode() + b"\n> BID 1\n> END\n")
    out = ingest(raw)
    assert out.outcome == "rejected" and "quoted" in reply_text(replies(games)[0])


def test_turn_line_and_adjudicated_turn(games, ingest):
    ok = fixture("old_turn.eml")
    assert ingest(ok).outcome == "accepted"  # TURN round-1 is the pending turn: fine
    games.adjudicate("duel", force=True)
    again = ok.replace(b"BID 1", b"BID 2")
    out = ingest(again)
    assert out.outcome == "rejected" and out.blocks[0].reason.startswith("turn round-1 has already been adjudicated")
    assert "orders are now awaited for turn round-2" in " ".join(reply_text(replies(games)[-1]).split())  # wrapped
    wrong = ok.replace(b"TURN round-1", b"TURN round-9").replace(b"-0020@", b"-0030@")
    assert "is not the pending turn" in ingest(wrong).blocks[0].reason


def test_seat_without_pending_decision_and_game_over(games, ingest, monkeypatch):
    for _ in range(3):
        games.adjudicate("duel", force=True)
    out = ingest("plain.eml")
    assert out.outcome == "rejected" and "is over" in out.blocks[0].reason
    assert "is over" in reply_text(replies(games)[0])


def test_same_mail_twice_is_recorded_once_and_answered_once(games, ingest):
    assert ingest("plain.eml").outcome == "accepted"
    again = b"Received: from backup-mx.example.org; Mon, 30 Nov 2026\n" + fixture("plain.eml")
    assert ingest(again).outcome == "duplicate"
    assert len(replies(games)) == 1
    assert len([e for e in _events(games) if e.type == "OrdersSubmitted"]) == 1


def test_same_maildir_twice_changes_nothing(games, tmp_path):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for path in sorted(FIXTURES.glob("*.eml")):
        box.add(path.read_bytes())
    ingestor = Ingestor(games)
    first = [ingestor.ingest(m) for m in read_path(tmp_path / "Maildir")]
    assert {o.outcome for o in first} >= {"accepted", "rejected", "ignored"}
    snapshot = (games.store.db.execute("select count(*) from events").fetchone(),
                games.store.db.execute("select count(*) from outbox").fetchone(),
                games.store.db.execute("select key, status from mails order by key").fetchall())
    second = [ingestor.ingest(m) for m in read_path(tmp_path / "Maildir")]
    assert {o.outcome for o in second} == {"duplicate"} and len(second) == len(first)
    assert snapshot == (games.store.db.execute("select count(*) from events").fetchone(),
                        games.store.db.execute("select count(*) from outbox").fetchone(),
                        games.store.db.execute("select key, status from mails order by key").fetchall())


def test_gm_text_is_trusted_and_printed_not_mailed(games, ingest):
    out = ingest("gm_orders.txt")
    assert out.outcome == "accepted" and out.reply and "ACCEPTED" in out.reply
    assert replies(games) == [] and _submitted(games) == {"green": "BID 1"}
    assert _events(games)[-1].payload["source"]["kind"] == "gm"
    bad = ingest(b"GAME duel purple\nBID 1\nEND\n")
    assert bad.outcome == "rejected" and "has no seat 'purple'" in bad.reply


def test_orders_of_one_seat_never_reach_another(games, ingest):
    ingest("plain.eml")  # blue bids 2
    ingest("iso8859_2_qp.eml")  # red bids 3
    red_reply = reply_text(replies(games)[1])
    assert "BID 3" in red_reply and "BID 2" not in red_reply and "blue" not in red_reply


def test_an_internal_failure_keeps_the_mail_and_a_rerun_retries(games, ingest, monkeypatch):
    import pbem.loop.recording

    monkeypatch.setattr(pbem.loop.recording, "check_orders", lambda *a, **k: 1 / 0)
    out = ingest("plain.eml")
    assert out.outcome == "error" and replies(games) == []
    assert games.store.db.execute("select status from mails").fetchone()[0] == "error"
    monkeypatch.undo()
    assert ingest("plain.eml").outcome == "accepted" and len(replies(games)) == 1


def test_passwords_never_in_replies_logs_or_outcomes(games, ingest, caplog):
    caplog.set_level(logging.DEBUG)
    outcomes = [ingest(p.name) for p in sorted(FIXTURES.iterdir()) if p.suffix in (".eml", ".txt")]
    raw = b"From: ben@example.org\nSubject: GAME duel blue " + PASSWORDS["blue"].encode() + \
        b"\nMessage-ID: <subj@example.org>\n\nGAME duel blue " + PASSWORDS["blue"].encode() + b"\nBID 1\nEND\n"
    outcomes.append(ingest(raw))
    assert len(replies(games)) > 10
    texts = [row["message"].decode("utf-8", "replace") + reply_text(row) for row in replies(games)]
    texts += [repr(o.as_dict()) + o.line() for o in outcomes] + [caplog.text]
    texts += [str(r[0]) for r in games.store.db.execute("select note from mails")]
    for secret in [*PASSWORDS.values(), "bq3n-8vhs-XXXX"]:
        assert not any(secret in t for t in texts), secret
    assert "Re: GAME duel blue ******" in [r["subject"] for r in replies(games)]


def test_seat_with_no_pending_decision_is_told_so(games, ingest, monkeypatch):
    from adjudicator.base import Pending
    from adjudicator.registry import get_engine

    engine = get_engine("toy-dice-duel")
    monkeypatch.setattr(engine, "pending", lambda state: Pending(("red",), "round-1", "bid", False, ("BID",)))
    out = ingest("plain.eml")  # blue
    assert out.outcome == "rejected"
    assert out.blocks[0].reason.startswith("seat blue has no decision pending in turn round-1")
    assert "no decision pending" in reply_text(replies(games)[0]) and _submitted(games) == {}


def test_headerless_file_in_a_maildir_is_never_trusted_as_gm_input(games, tmp_path):
    box = mailbox.Maildir(tmp_path / "md", create=True)
    box.add(fixture("gm_orders.txt"))
    [out] = [Ingestor(games).ingest(m) for m in read_path(tmp_path / "md")]
    assert out.outcome == "ignored" and "no mail headers" in out.note
    assert _submitted(games) == {} and replies(games) == []


def test_mail_from_our_own_address_is_never_answered(games, ingest):
    raw = fixture("plain.eml").replace(b"From: Ben Miller <ben@example.org>", b"From: pbem <GM@pbem.example>")
    out = ingest(raw)
    assert out.outcome == "ignored" and "own address" in out.note and replies(games) == []


def test_outlook_reply_reads_nothing_below_original_message(games, ingest):
    # The unquoted original below "-----Original Message-----" holds an older block with the
    # real password (BID 1) and the welcome mail's template line: neither may be read.
    out = ingest("outlook_original_message.eml")
    assert out.outcome == "accepted" and len(out.blocks) == 1, out.as_dict()
    assert _submitted(games) == {"blue": "BID 3"}
    body = reply_text(replies(games)[0])
    assert "not accepted" not in body and "******" not in body
    assert replies(games)[0]["subject"] == "Re: duel orders round 1"


def test_no_end_before_a_phone_signature_says_where_end_belongs(games, ingest):
    out = ingest("no_end_phone.eml")
    assert out.outcome == "rejected" and out.problems == 1
    [problem] = out.blocks[0].problems
    assert problem.line == 1 and "from line 4: 'Sent from my iPhone'" in problem.message
    assert "write END on line 3, right after your last order (line 2: BID 2)" in problem.message
    body = reply_text(replies(games)[0])
    assert "line 1: GAME duel yellow ******" in body and "Senior Consultant" not in body
    assert max(len(line) for line in body.splitlines()) <= 76
    assert _submitted(games) == {}


def test_no_end_also_lists_the_problems_of_the_order_lines(games, ingest):
    raw = fixture("no_end_phone.eml").replace(b"BID 2\n", b"BDI 2\nBID 9\n")
    out = ingest(raw)
    problems = out.blocks[0].problems
    assert [p.line for p in problems][:2] == [1, 2] and max(p.line for p in problems) <= 3, [str(p) for p in problems]
    assert "write END on line 4, right after your last order (line 3: BID 9)" in problems[0].message


def test_rejected_mail_can_be_retried_after_the_gm_allows_the_sender(games, ingest):
    assert ingest("wrong_sender.eml").outcome == "ignored"  # an address no game knows
    again = ingest("wrong_sender.eml")
    assert again.outcome == "duplicate" and "--retry-rejected" in again.note and "--retry-rejected" in again.line()
    from pbem.mailin.parse import RawMail

    games.change_seat("duel", "blue", None, ["mallory@example.net"])
    out = Ingestor(games, retry_rejected=True).ingest(RawMail(fixture("wrong_sender.eml"), "x"))
    assert out.outcome == "accepted" and _submitted(games) == {"blue": "BID 1"}
    assert len(replies(games)) == 1
    assert Ingestor(games, retry_rejected=True).ingest(RawMail(fixture("wrong_sender.eml"), "x")).outcome == "duplicate"


def test_engine_problem_naming_another_order_names_its_line():
    from pbem.loop.ingest import _with_line_refs
    from turns.base import LineProblem

    [p] = _with_line_refs([LineProblem(9, "the card of Böhmen is already used by order 2")], [5, 7, 9])
    assert p.message == "the card of Böhmen is already used by line 7"


def test_html_only_mail_line_numbers_are_the_lines_the_player_sees(games, ingest):
    out = ingest("gmail_html_divs.eml")
    assert out.outcome == "rejected" and [p.line for p in out.blocks[0].problems] == [4]
    body = reply_text(replies(games)[0])
    assert "line 4: BDI 2" in body and "GAME line 3" in body and "converted to text" in body


def test_game_id_and_seat_in_another_case_are_understood(games, ingest):
    # a phone that capitalises words: "Game Duel Blue <password>"; the password is exact
    out = ingest(fixture("plain.eml").replace(b"GAME duel blue", b"Game Duel Blue"))
    assert out.outcome == "accepted" and _submitted(games) == {"blue": "BID 2"}
    wrong = fixture("plain.eml").replace(b"GAME duel blue", b"Game Duel Blue").replace(
        PASSWORDS["blue"].encode(), PASSWORDS["blue"].upper().encode()).replace(b"a1b2c3d4-0001", b"a1b2c3d4-9001")
    assert ingest(wrong).outcome == "rejected"
