"""Mail commands HELP, STATUS, REPORT, PASSWORD, answered only to the
seat's registered address; strangers without a GAME block get no reply at all."""

from __future__ import annotations

from email.message import EmailMessage

from pbem.mailout.deliver import message_of
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org"), ("yellow", "cis@example.org")]
_n = iter(range(10_000))


def _mail(sender: str, subject: str, body: str = "thanks\n") -> RawMail:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "gm@pbem.example", subject
    msg["Message-ID"] = f"<cmd.{next(_n)}@example.org>"
    msg.set_content(body)
    return RawMail(bytes(msg), "cmd.eml")


def _new(service) -> dict[str, str]:
    return service.new_game("w1", "wallenstein", SEATS, {}, seed="mailcmd-" + "x" * 40).passwords


def _answers(service, kind="command"):
    return [r for r in service.store.outbox() if r["kind"] == kind]


def _text(row) -> str:
    return message_of(row).get_body(preferencelist=("plain",)).get_content()


def test_a_stranger_without_a_game_block_gets_no_reply(service):
    _new(service)
    before = len(service.store.outbox())
    out = Ingestor(service).ingest(_mail("mallory@evil.example", "STATUS w1 red"))
    assert out.outcome == "ignored" and "unknown sender" in out.note
    assert len(service.store.outbox()) == before  # no backscatter, not even to the seat
    assert "ignored" in out.line() and "unknown sender" in out.line()  # the GM sees it
    forged = Ingestor(service).ingest(_mail("mallory@evil.example", "hello", "what is this?"))
    assert forged.outcome == "ignored" and len(service.store.outbox()) == before


def test_status_help_and_report_go_to_the_registered_address(service):
    _new(service)
    ingest = Ingestor(service).ingest
    assert ingest(_mail("Ben <ben@example.org>", "status")).outcome == "command"
    assert ingest(_mail("ben@example.org", "Re: orders", "HELP\n\nthanks")).outcome == "command"
    assert ingest(_mail("ben@example.org", "REPORT w1 blue")).outcome == "command"
    status, help_, report = _answers(service)
    assert {r["to_addr"] for r in (status, help_, report)} == {"ben@example.org"}
    assert "turn 1618-spring" in _text(status) and "yours are awaited" in _text(status)
    assert "Deadline:" in _text(status)
    assert "GAME w1 blue <your password>" in _text(help_) and "BID" in _text(help_)
    msg = message_of(report)
    assert "You (blue) have" in _text(report) and any(p.get_filename() == "map.png" for p in msg.walk())


def test_password_sends_a_new_one_and_the_old_stops_working(service):
    # (a reset needs proof: PASSWORD mails a code, PASSWORD <code> the new password)
    passwords = _new(service)
    out = Ingestor(service).ingest(_mail("cis@example.org", "PASSWORD"))
    assert out.outcome == "command"
    code = _text(_answers(service)[-1]).split("PASSWORD w1 yellow ", 1)[1].split()[0]
    out = Ingestor(service).ingest(_mail("cis@example.org", f"PASSWORD {code}"))
    assert out.outcome == "command"
    welcome = [r for r in service.store.outbox() if r["kind"] == "welcome" and r["to_addr"] == "cis@example.org"]
    assert len(welcome) == 2
    new = _text(welcome[-1]).split("Your password: ", 1)[1].split()[0]
    assert new != passwords["yellow"]
    assert service.authenticate("w1", "yellow", passwords["yellow"], "cis@example.org") is None
    assert service.authenticate("w1", "yellow", new, "cis@example.org") is not None


def test_a_registered_sender_without_a_command_gets_the_usual_reply(service):
    _new(service)
    out = Ingestor(service).ingest(_mail("anna@example.org", "my orders", "I forgot the block"))
    assert out.outcome == "rejected"
    assert "No order block" in _text(next(r for r in service.store.outbox() if r["kind"] == "reply"))


def test_report_sends_the_latest_report_again_without_the_password(service):
    """REPORT re-sends what the seat was last mailed of its position (no map drawn again): the
    opening report of its welcome mail, whose password is not repeated, then each turn's report."""
    passwords = _new(service)
    ingest = Ingestor(service).ingest
    assert ingest(_mail("ben@example.org", "REPORT")).outcome == "command"
    answer = _answers(service)[-1]
    raw = answer["message"].decode("utf-8", "replace")
    assert passwords["blue"] not in raw and "not repeated here" in _text(answer)
    assert "You (blue) have" in _text(answer) and "sent again on request" in _text(answer)
    assert any(p.get_filename() == "map.png" for p in message_of(answer).walk())
    assert message_of(answer)["Subject"] == "[w1] report for blue (again)"
    service.adjudicate("w1", force=True)
    assert ingest(_mail("ben@example.org", "REPORT")).outcome == "command"
    again = _text(_answers(service)[-1])
    assert "as of 1618-spring" in again and "Welcome to" not in again
