"""Reading mail: every real-world shape in fixtures/ gives the text the player wrote."""

from __future__ import annotations

import io
import mailbox

import pytest

from pbem.mailin.parse import (body_bytes, html_to_text, looks_like_mail, parse_mail, read_path,
                         read_sources, unflow)
from tests.mail.conftest import FIXTURES, PASSWORDS, fixture
from turns.envelope import parse_blocks

# fixture -> (sender, [(game, seat, body lines without blanks)])
SHAPES = {
    "plain.eml": ("ben@example.org", [("duel", "blue", ["BID 2"])]),
    "iso8859_2_qp.eml": ("anna.kovacs@example.hu", [("duel", "red", ["BID 3   # a legtöbbet ajánlom, őszintén"])]),
    "windows1250.eml": ("cis@example.cz", [("duel", "green", ["BID 1"])]),
    "base64.eml": ("dan@example.org", [("duel", "yellow", ["BID 0"])]),
    "flowed.eml": ("ben@example.org", [("duel", "blue", [
        "BID 1 # I am bidding low this round because I want to keep my tokens for the final round, "
        "where it matters most"])]),
    "outlook_alternative.eml": ("dan@example.org", [("duel", "yellow", ["BID 3"])]),
    "html_only.eml": ("cis@example.cz", [("duel", "green", ["BID 2"])]),
    "quoted_reply.eml": ("ben@example.org", [("duel", "blue", ["BID 3"])]),
    "two_games.eml": ("anna.kovacs@example.hu", [("duel", "red", ["BID 1"]),
                                                 ("duel2", "red", ["# second game", "BID 2"])]),
    "forwarded_inline.eml": ("anna.kovacs@example.hu", [("duel", "red", ["BID 2"])]),
    "forwarded_attachment.eml": ("anna.kovacs@example.hu", [("duel", "red", ["BID 1"])]),
    "signature.eml": ("dan@example.org", [("duel", "yellow", ["BID 2"])]),
    "wrong_sender.eml": ("mallory@example.net", [("duel", "blue", ["BID 1"])]),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_shape_yields_the_players_blocks(name):
    mail = parse_mail(fixture(name))
    sender, expected = SHAPES[name]
    assert mail.is_mail and mail.sender == sender and not mail.ignore
    blocks = parse_blocks(mail.text).blocks
    got = [(b.game, b.seat, [line for line in b.body.split("\n") if line.strip()]) for b in blocks]
    assert got == expected, mail.text
    assert all(b.ok for b in blocks)
    assert all(b.password in PASSWORDS.values() for b in blocks)


def test_charsets_are_decoded_not_mangled():
    assert "Kedves Játékvezető!" in parse_mail(fixture("iso8859_2_qp.eml")).text
    assert parse_mail(fixture("iso8859_2_qp.eml")).subject == "Parancsok - első forduló"
    assert "Cyril Šťastný" in parse_mail(fixture("windows1250.eml")).text
    assert "Dan O’Brien" in parse_mail(fixture("outlook_alternative.eml")).text
    assert "✓" in parse_mail(fixture("base64.eml")).text


def test_plain_part_is_preferred_and_html_only_is_flagged():
    outlook = parse_mail(fixture("outlook_alternative.eml"))
    assert not outlook.html_only and "<p" not in outlook.text and "\r" not in outlook.text
    html = parse_mail(fixture("html_only.eml"))
    assert html.html_only
    assert "xxxx" not in html.text  # the blockquoted old orders are dropped


def test_flowed_space_stuffing_is_removed():
    text = parse_mail(fixture("flowed.eml")).text
    assert "\nFrom now on I will send orders early." in text


def test_ignored_mail_is_recognised():
    assert parse_mail(fixture("auto_reply.eml")).ignore.startswith("Auto-Submitted")
    assert parse_mail(fixture("precedence_bulk.eml")).ignore == "Precedence: bulk"
    assert "X-PBEM-Loop" in parse_mail(fixture("loop.eml")).ignore
    assert "bounce" in parse_mail(fixture("bounce.eml")).ignore
    for name in SHAPES:
        assert parse_mail(fixture(name)).ignore == ""


def test_auto_submitted_no_is_an_ordinary_mail():
    raw = b"From: a@example.org\nAuto-Submitted: no\nSubject: x\n\nhello\n"
    assert parse_mail(raw).ignore == ""


def test_gm_text_is_not_mail():
    assert not looks_like_mail(fixture("gm_orders.txt"))
    mail = parse_mail(fixture("gm_orders.txt"))
    assert not mail.is_mail and mail.sender is None
    assert parse_blocks(mail.text).blocks[0].seat == "green"
    assert not looks_like_mail(b"# typed by the GM\nGAME w1 red\nBID 2\nEND\n")
    assert looks_like_mail(fixture("plain.eml"))
    # a header line, however broken the rest, makes it mail (which needs a password)
    assert looks_like_mail(b"Received: from x\nBad header line\nFrom: a@b\n\nGAME w1 red\n")
    from_box = parse_mail(fixture("gm_orders.txt"), trusted=False)
    assert from_box.is_mail and from_box.ignore.startswith("no mail headers")


def test_mail_without_message_id_keeps_its_key_across_redelivery():
    raw = b"From: ben@example.org\nDate: Mon, 30 Nov 2026 10:00:00 +0100\nSubject: x\n\nGAME duel blue p\n"
    again = b"Received: from relay by mx; Mon, 30 Nov 2026\n" + raw
    assert parse_mail(raw).key == parse_mail(again).key and parse_mail(raw).key.startswith("mail:")
    assert parse_mail(raw).key != parse_mail(raw.replace(b"Subject: x", b"Subject: y")).key


def test_key_is_message_id_plus_body_hash_stable_across_header_changes():
    raw = fixture("plain.eml")
    again = b"Received: from relay.example.org by mx; Mon, 30 Nov 2026\n" + raw
    assert parse_mail(raw).key == parse_mail(again).key
    assert parse_mail(raw).key.startswith("<a1b2c3d4-0001@example.org>#")
    changed = raw.replace(b"BID 2", b"BID 1")
    assert parse_mail(changed).key != parse_mail(raw).key
    assert body_bytes(b"A: b\n\nbody") == b"body"


def test_unflow_rules():
    assert unflow("one \ntwo\nthree") == "one two\nthree"
    assert unflow("a \n> b") == "a \n> b"  # a change of quote depth never joins
    assert unflow("-- \nsig") == "-- \nsig"
    assert unflow("soft \nbreak", delsp=True) == "softbreak"


def test_html_to_text_keeps_lines():
    assert html_to_text("<p>GAME w1 red x</p><p>BID&nbsp;2<br>END</p>").split("\n") == \
        ["GAME w1 red x", "", "BID\xa02", "END"]


def test_sources_maildir_mbox_dir_and_stdin(tmp_path):
    box = mailbox.Maildir(tmp_path / "md", create=True)
    for name in ("plain.eml", "base64.eml"):
        box.add(fixture(name))
    assert len(read_path(tmp_path / "md")) == 2
    mbox = read_path(FIXTURES / "inbox.mbox")
    assert [parse_mail(m.raw).message_id for m in mbox] == [
        "<a1b2c3d4-0001@example.org>", "<CAF=p7Yx0Q@mail.example.org>", "<vacation.0015@example.org>"]
    assert parse_mail(mbox[0].raw).text == parse_mail(fixture("plain.eml")).text
    stdin = read_sources(["-"], io.BytesIO((FIXTURES / "inbox.mbox").read_bytes()))
    assert [m.raw for m in stdin] == [m.raw for m in mbox]
    single = read_sources(["-"], io.BytesIO(fixture("plain.eml")))
    assert len(single) == 1 and list(single)[0].raw == fixture("plain.eml")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "a.eml").write_bytes(fixture("plain.eml"))
    (tmp_path / "dir" / "b.txt").write_bytes(fixture("gm_orders.txt"))
    assert [m.origin.rsplit("/", 1)[-1] for m in read_path(tmp_path / "dir")] == ["a.eml", "b.txt"]


def test_checked_in_fixtures_are_what_the_generator_writes(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "HERE", tmp_path)
    module.main()
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) >= 20
    for name in written:
        assert (tmp_path / name).read_bytes() == fixture(name), name
