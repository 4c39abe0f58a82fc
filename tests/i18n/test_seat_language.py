"""A language per seat, as a GM and players set it: ``--seat NAME=EMAIL[:COLOUR][:LANG]``, the
game's ``--language``, ``pbem seat --language``, the ``LANGUAGE`` line by mail; recorded in the
log, shown by ``pbem status``, kept when a new player takes the seat, read as English from logs
made before languages; report mails in the seat's language with ``Content-Language``."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.mailout.deliver import message_of
from pbem.store.db import Store
from tests.club.helpers import SEATS, Setup, block, events, last_answer, status, text

ROOT = Path(__file__).resolve().parents[2]
SUPPORTED = "en (English), hu (magyar), de (Deutsch)"


def _new(setup: Setup, *args: str, code: int = 0) -> str:
    return setup.run("new", "w1", "--game", "wallenstein", "--weak-seed", "--seed", "i18n-seat-test",
                     "--seat", f"red={SEATS['red']}:hu", "--seat", f"blue={SEATS['blue']}:yellow:de",
                     "--seat", f"green={SEATS['green']}", *args, code=code)


def test_a_seat_reads_its_own_language_or_the_games_and_status_shows_them(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    out = json.loads(_new(setup, "--language", "de", "--json"))
    assert {s: out["seats"][s]["language"] for s in out["seats"]} == {"red": "hu", "blue": "de", "green": "de"}
    created = events(setup, "w1", "GameCreated")[0].payload
    assert created["language"] == "de"
    assert [s.get("language") for s in created["seats"]] == ["hu", "de", None]  # a seat's own, where given
    st = status(setup, "w1")
    assert st["languages"] == {"red": "hu", "blue": "de", "green": "de"} and st["language"] == "de"
    assert "languages: red magyar (hu), blue Deutsch (de), green Deutsch (de); the public and the GM: de" in \
        setup.run("status", "w1")


def test_an_unknown_language_is_refused_with_the_supported_ones_and_nothing_is_made(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    for args in (("--language", "fr"), ("--seat", f"yellow={SEATS['yellow']}:xx")):
        out = _new(setup, *args, code=1)
        assert f"unknown language" in out and SUPPORTED in out
    assert Store(setup.db).game_ids() == []
    _new(setup)
    out = setup.run("seat", "w1", "red", "--language", "klingon", code=1)
    assert SUPPORTED in out and status(setup, "w1")["languages"]["red"] == "hu"


def test_the_gm_changes_a_seats_language_and_a_new_player_keeps_it(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _new(setup)
    assert "it reads Deutsch (de) from now on" in setup.run("seat", "w1", "green", "--language", "de")
    changed = events(setup, "w1", "SeatChanged")[-1].payload
    assert changed == {"seat": "green", "language": "de", "by": "gm"}
    setup.run("seat", "w1", "green", "--email", "zoe@example.org", "--new-password")  # zoe takes the seat
    setup.run("seat", "w1", "red", "--email", "ann@example.org")
    assert status(setup, "w1")["languages"] == {"red": "hu", "blue": "de", "green": "de"}
    assert "verified" in setup.run("replay", "w1", "--verify")


def test_a_player_sets_the_language_by_mail_and_an_unknown_code_changes_nothing(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    setup.new_game("d1", "toy-dice-duel", ("red", "blue"))
    block(setup, "red", "d1", "LANGUAGE hu")
    setup.ingest()
    assert "LANGUAGE: from now on your reports are written in magyar (hu)." in last_answer(setup, SEATS["red"], "reply")
    assert events(setup, "d1", "SeatChanged")[-1].payload == {"seat": "red", "language": "hu", "by": "player"}
    before = len(Store(setup.db).events("d1"))
    block(setup, "red", "d1", "LANGUAGE xx")
    setup.ingest()
    answer = last_answer(setup, SEATS["red"], "reply")  # in the seat's language, Hungarian now
    assert "LANGUAGE: NINCS kész: ismeretlen nyelv: 'xx'" in answer and SUPPORTED in answer
    assert len(Store(setup.db).events("d1")) == before and status(setup, "d1")["languages"]["red"] == "hu"


def test_report_mails_are_in_each_seats_language_with_content_language_and_a_translated_subject(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _new(setup)
    setup.run("adjudicate", "w1", "--force")
    mails = {row["to_addr"]: row for row in setup.outbox("report")}
    red, green = message_of(mails[SEATS["red"]]), message_of(mails[SEATS["green"]])
    assert red["Content-Language"] == "hu" and green["Content-Language"] == "en"
    assert red["Subject"] == "[w1] 1618 tavasza: jelentés red számára"
    assert green["Subject"] == "[w1] spring 1618: report for green"
    assert message_of(mails[SEATS["blue"]])["Subject"] == "[w1] Frühling 1618: Bericht für blue"
    assert "Évszakjelentés red játékos számára" in text(mails[SEATS["red"]])
    assert "Season report for seat green" in text(mails[SEATS["green"]])
    blue = text(mails[SEATS["blue"]])
    assert "Bericht der Jahreszeit für Spieler blue" in blue
    assert 'lang="de"' in message_of(mails[SEATS["blue"]]).get_body(("html",)).get_content()


def test_a_log_made_before_languages_reads_as_english_and_an_archive_keeps_them(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    for old in (ROOT / "tests/compat/corpus/r4/running/havoc.pbem.json",  # its seed unknown here: not replayed
                ROOT / "tests/compat/corpus/r4/finished/gods-playground.pbem.json"):
        setup.run("import", str(old))
        game = json.loads(old.read_text())["game"]
        assert set(status(setup, game)["languages"].values()) == {"en"}
    _new(setup)
    archive = tmp_path / "w1.pbem.json"
    setup.run("export", "w1", "-o", str(archive))
    (tmp_path / "other").mkdir()
    other = Setup(tmp_path / "other", clock)
    other.run("import", str(archive))
    assert status(other, "w1")["languages"] == {"red": "hu", "blue": "de", "green": "en"}


def test_the_shells_default_language_is_the_reports_one():
    from pbem.mailout import languages
    from reports import i18n

    assert languages.DEFAULT == i18n.DEFAULT and languages.names() == i18n.LANGUAGES
