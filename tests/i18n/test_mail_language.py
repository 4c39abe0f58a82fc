"""A mail that proves no seat is answered in the mail's own language: its Accept-Language or
Content-Language header, else a guess from its words (Hungarian, German), else English; never
a seat's language (the answer says nothing of whose address it came from)."""

from __future__ import annotations

import pytest

from pbem.mailin.language import guessed_language, header_language, mail_language
from pbem.mailout.deliver import message_of
from tests.club.helpers import SEATS, Setup, text
from tests.i18n.test_shell_languages import _game


@pytest.mark.parametrize("value, expected", [
    ("hu-HU,hu;q=0.9,en;q=0.8", "hu"), ("fr-FR, de;q=0.5, en;q=0.4", "de"), ("en-GB", "en"),
    ("de;q=0.2, hu;q=0.7", "hu"), ("fr, es", None), ("", None), ("de;q=0", None), ("hu;q=x, de", "de")])
def test_a_header_names_the_first_language_pbem_writes_by_its_q(value, expected):
    assert header_language(value) == expected


@pytest.mark.parametrize("body, expected", [
    ("Szia! Kérem a jelszavam, nem tudok belépni a játékba.", "hu"),
    ("Hallo, ich möchte bitte mitspielen. Danke und viele Grüße", "de"),
    ("Hello, I would like to join the game, thanks.", "en"),
    ("GAME w1 red abc\nTAX Böhmen\nEND", "en"),  # names and order words tell nothing
    ("> Szia, kérem, és köszönöm\nHello, thanks", "en"),  # quoted text is not the sender's
])
def test_the_words_of_a_mail_tell_hungarian_or_german(body, expected):
    assert guessed_language(body) == expected


def test_a_header_comes_before_the_words():
    raw = b"From: a@example.org\r\nContent-Language: de\r\nSubject: x\r\n\r\nSzia, kerem es koszonom\r\n"
    assert mail_language(raw, "x", "Szia, kérem és köszönöm") == "de"
    assert mail_language(b"Subject: x\r\n\r\n", "x", "Szia, kérem és köszönöm") == "hu"


@pytest.mark.parametrize("headers, body, lang, says", [
    ({"Accept-Language": "de-DE,de;q=0.9"}, "GAME w1 red wrong-password\nTAX Böhmen\nEND\n", "de",
     "Kein Befehlsblock deiner Mail wurde aufgenommen"),
    ({}, "Szia, kérem a jelszót és köszönöm!\n\nGAME w1 red wrong-password\nTAX Böhmen\nEND\n", "hu",
     "Leveled egyetlen parancsblokkját sem rögzítettük"),
    ({}, "Hello,\n\nGAME w1 red wrong-password\nTAX Böhmen\nEND\n", "en",
     "No order block of your mail was recorded"),
])
def test_an_unauthenticated_mail_is_answered_in_the_mails_language_not_the_seats(tmp_path, clock, headers, body,
                                                                                  lang, says):
    setup = Setup(tmp_path, clock)
    _game(setup)  # red reads Hungarian; the answer must not tell that this address is red's
    setup.mail(SEATS["red"], "orders", body, headers=headers)
    setup.ingest()
    [row] = [r for r in setup.outbox("reply") if r["to_addr"] == SEATS["red"]]
    msg = message_of(row)
    assert msg["Content-Language"] == lang
    assert says in " ".join(text(row).split())


def test_the_clubs_answers_to_any_address_follow_the_mails_language(tmp_path, clock):
    """LIST, JOIN, LEAVE and a misuse from addresses that play no seat: each answered in its
    mail's language (a header, else its words), English when nothing tells."""
    from tests.club.helpers import last_answer

    setup = Setup(tmp_path, clock)
    setup.run("new", "o1", "--game", "toy-dice-duel", "--open", "--seats", "3", "--option", "rounds=3", "--json")
    setup.mail("ann@example.org", "LIST", "Hallo, ich möchte bitte mitspielen. Danke!")
    setup.mail("bob@example.org", "JOIN o1", "", headers={"Accept-Language": "hu-HU,hu;q=0.9"})
    setup.mail("cy@example.org", "JOIN o1 purple", "")
    setup.ingest()
    listed = last_answer(setup, "ann@example.org")
    assert "Offene Spiele (JOIN <Spiel> [Platz] nimmt einen Platz" in listed
    assert "o1: toy-dice-duel, 3 Plätze, frei: red, blue, green" in listed
    assert "Tiéd a(z) o1 (toy-dice-duel) red helye." in last_answer(setup, "bob@example.org")
    assert last_answer(setup, "cy@example.org") == ("JOIN: o1 has no seat 'purple' (seats: red, blue, green). "
                                                     "Nothing was recorded.")
    rows = {r["to_addr"]: message_of(r) for r in setup.outbox("command")}
    assert rows["ann@example.org"]["Content-Language"] == "de" and rows["bob@example.org"]["Content-Language"] == "hu"
    assert rows["cy@example.org"]["Content-Language"] == "en"


def test_a_mail_refused_unread_is_told_why_in_its_own_language(tmp_path, clock):
    """A mail over the size limit from a seat's address: the refusal names the limit in the
    language its headers give (its body is never read)."""
    from pbem.mailin import maillimits

    setup = Setup(tmp_path, clock)
    _game(setup)
    setup.mail(SEATS["red"], "orders", "x" * (maillimits.MAX_MAIL_BYTES + 10), headers={"Accept-Language": "hu"})
    setup.ingest()
    [row] = [r for r in setup.outbox("reply") if r["to_addr"] == SEATS["red"]]
    said = " ".join(text(row).split())
    assert message_of(row)["Content-Language"] == "hu"
    assert "A játékmesternek írt leveledet nem olvastuk el: a levél" in said and "több, mint az olvasott" in said
    assert "Semmit sem rögzítettünk belőle." in said


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_every_size_refusal_reason_is_translated(lang):
    from pbem.mailin import maillimits
    from reports.i18n import speaking

    reasons = [maillimits.precheck(b"x" * (maillimits.MAX_MAIL_BYTES + 1)),
               maillimits.precheck(b"X-A: " + b"y" * (maillimits.MAX_HEADER_BYTES + 1) + b"\r\n\r\nbody")]
    for data in (b"z" * (maillimits.MAX_TEXT_BYTES + 1), b"\n" * (maillimits.MAX_TEXT_LINES + 1)):
        with pytest.raises(maillimits.TooLarge) as exc:
            maillimits.check_text(data)
        reasons.append(str(exc.value))
    with speaking(lang):
        for reason in filter(None, reasons):
            assert reason not in maillimits.refusal_text(reason), reason


def test_stats_and_address_answers_follow_the_mails_language(tmp_path, clock):
    from tests.club.helpers import answers, last_answer
    from tests.club.test_players import _season

    setup = _season(tmp_path, clock)
    setup.mail("ben@example.org", "STATS", "", headers={"Accept-Language": "de"})
    setup.ingest()
    own = " ".join(answers(setup, "ben@example.org")[0].split())
    assert "Deine Zahlen (ben@example.org):" in own and "1 von 2 rechtzeitig geschickt (Zuverlässigkeit 50%)" in own
    setup.mail("ben@example.org", "ADDRESS", "Szia, kérem a címeimet, köszönöm!")
    setup.mail("stranger@example.org", "STATS", "")
    setup.ingest()
    assert last_answer(setup, "ben@example.org") == "A címeid: ben@example.org."
    assert "No game of this pbem has a seat played from this address" in last_answer(setup, "stranger@example.org")
