"""``pbem.mailout.notify.message_bytes``: the outbox's serialisation of a mail is ``bytes(msg)``
exactly (it writes each body in one piece instead of line by line)."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage

import pytest

from pbem.mailout.notify import message_bytes
from reports.message import to_message
from reports.render import render_report
from tests.reports.sample import sample_input


@pytest.mark.parametrize("viewer", ["red", "@gm"])
def test_a_report_mail_serialises_to_the_same_bytes(viewer):
    rendered = render_report(sample_input(viewer))
    msg = to_message(rendered, to="red@example.org", sender="GM <gm@example.org>", subject="report",
                     message_id="report-1@example.org", in_reply_to="<o-9@example.org>", references=["o-1@example.org"])
    raw = message_bytes(msg)
    assert raw == bytes(msg)
    assert raw.count(b"\n") > 1000  # thousands of body lines (the base64 pictures)


def test_a_report_mail_built_with_the_remembering_policy_is_the_same_bytes():
    """The service builds report mails with its remembering header policy (a season's mails
    share their parsed headers): every mail, the first and those that reuse the headers of
    earlier ones, is byte for byte the mail ``policy.default`` builds, also when stored."""
    from pbem.mailout.mailbase import MAIL_POLICY

    for round_ in range(2):
        for viewer, language in (("red", None), ("blue", "hu"), ("@gm", None), ("@public", "de")):
            rendered = render_report(sample_input(viewer))
            args = dict(to=f"{viewer.strip('@')}@example.org", sender="GM <gm@example.org>",
                        subject=f"report ⚔ {viewer} " + "long words " * 12, message_id=f"report-{viewer}@example.org",
                        in_reply_to="<o-9@example.org>", references=["o-1@example.org"], language=language)
            plain = to_message(rendered, **args)
            remembering = to_message(rendered, mail_policy=MAIL_POLICY, **args)
            assert remembering.policy is MAIL_POLICY
            assert bytes(remembering) == bytes(plain)
            assert message_bytes(remembering) == message_bytes(plain)


@pytest.mark.parametrize("body", ["one line", "two\nlines\n", "crlf\r\nand cr\rmixed\n\nend", "\n", "x\r\n\r\n",
                                  "From the start\nFrom here\n", "caf\u00e9 \u2694\n" * 3])
@pytest.mark.parametrize("cte", [None, "8bit", "quoted-printable"])
def test_plain_mails_serialise_to_the_same_bytes(body, cte):
    msg = EmailMessage(policy=policy.default)
    msg["From"], msg["To"], msg["Subject"] = "gm@example.org", "red@example.org", "Welcome, red \u2694"
    msg.set_content(body, cte=cte) if cte else msg.set_content(body)
    msg.add_attachment(b"\x00\x01binary\r\n\n" * 300, maintype="application", subtype="octet-stream",
                       filename="a.bin")
    assert message_bytes(msg) == bytes(msg)


def test_a_compat32_message_serialises_to_the_same_bytes():
    import email

    raw = b"From: a@example.org\r\nSubject: old\r\n\r\nline one\r\nline two\r\n"
    msg = email.message_from_bytes(raw)
    assert message_bytes(msg) == bytes(msg)


@pytest.mark.parametrize("body", ["two\nlines\n", "crlf\r\nand cr\rmixed\n\nend"])
def test_mails_of_a_crlf_policy_serialise_to_the_same_bytes(body):
    """Bodies written as they are only where the separator is ``\\n`` and they hold no ``\\r``."""
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"], msg["To"], msg["Subject"] = "gm@example.org", "red@example.org", "crlf"
    msg.set_content(body)
    assert message_bytes(msg) == bytes(msg) and b"\r\n" in message_bytes(msg)
