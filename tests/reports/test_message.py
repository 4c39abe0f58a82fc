"""The report as a MIME message."""

from __future__ import annotations

import email
from email import policy

import pytest

from reports.message import to_message
from reports.render import render_report
from tests.reports.sample import sample_input


@pytest.fixture(scope="module")
def rendered():
    return render_report(sample_input("red"))


def _message(rendered, **kw):
    args = dict(to="red@example.org", sender="GM <gm@example.org>", subject="Wallenstein sample 1618-autumn",
                message_id="report-1@example.org", in_reply_to="<orders-9@example.org>",
                references=["orders-1@example.org", "<orders-9@example.org>"])
    args.update(kw)
    return to_message(rendered, **args)


def test_structure(rendered):
    msg = _message(rendered)
    kinds = [(p.get_content_type(), p.get_content_disposition()) for p in msg.walk()]
    assert kinds == [("multipart/related", None), ("multipart/alternative", None), ("text/plain", None),
                     ("text/html", None), ("image/png", "inline"), ("image/png", "attachment")]
    assert msg.get_param("type") == "multipart/alternative"


def test_each_picture_once(rendered):
    """The map is carried once (referred to by the HTML and offered as an attachment)."""
    raw = _message(rendered).as_bytes()
    parsed = email.message_from_bytes(raw, policy=policy.default)
    pictures = [p for p in parsed.walk() if p.get_content_maintype() == "image"]
    assert sorted(p.get_filename() for p in pictures) == sorted(rendered.images)
    assert [p.get_content() for p in pictures if p.get_filename() == "map.png"] == [rendered.images["map.png"]]
    assert "map.png" in parsed.get_body(preferencelist=("plain",)).get_content()


def test_headers(rendered):
    msg = _message(rendered)
    assert msg["Message-ID"] == "<report-1@example.org>"
    assert msg["In-Reply-To"] == "<orders-9@example.org>"
    assert msg["References"] == "<orders-1@example.org> <orders-9@example.org>"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["Date"] is None


def test_round_trip_through_bytes(rendered):
    parsed = email.message_from_bytes(_message(rendered).as_bytes(), policy=policy.default)
    body = parsed.get_body(preferencelist=("plain",))
    assert body.get_content() == rendered.text
    html = parsed.get_body(preferencelist=("html",)).get_content()
    cids = [p["Content-ID"].strip("<>") for p in parsed.walk() if p.get_content_maintype() == "image"]
    assert len(cids) == 2
    for cid in cids:
        assert f'src="cid:{cid}"' in html
    assert 'src="map.png"' not in html
    attached = [p for p in parsed.walk() if p.get_content_disposition() == "attachment"]
    assert attached[0].get_filename() == "map.png"
    assert attached[0].get_content() == rendered.images["map.png"]


def test_deterministic(rendered):
    assert _message(rendered).as_bytes() == _message(rendered).as_bytes()


def test_no_thread_headers_when_not_a_reply(rendered):
    msg = _message(rendered, in_reply_to=None, references=[])
    assert msg["In-Reply-To"] is None and msg["References"] is None
