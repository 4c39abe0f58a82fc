"""Every mail the shell writes to a player is in the seat's language: real MIME mails through
ingest, the answers read back. A Hungarian, a German and an English seat of one Wallenstein
game get the same kinds of mail; the Hungarian and German ones carry no English sentence of the
English one (names and numbers aside), each says its language in ``Content-Language``, and a
reply names the problem line and suggests the name meant in the seat's language."""

from __future__ import annotations

import json
import re

import pytest

from pbem.mailout.deliver import message_of
from tests.club.helpers import SEATS, Setup, text

LANGS = {"red": "hu", "blue": "de", "green": "en"}


def _game(setup: Setup, game_id: str = "w1", engine: str = "wallenstein", *options: str) -> None:
    out = json.loads(setup.run("new", game_id, "--game", engine, "--weak-seed", "--seed", "i18n-shell-mails",
                               *[a for seat, lang in LANGS.items() for a in ("--seat", f"{seat}={SEATS[seat]}:{lang}")],
                               *options, "--json"))
    setup.passwords.update({s: out["seats"][s]["password"] for s in LANGS})


def _mail_block(setup: Setup, seat: str, *lines: str, game_id: str = "w1") -> None:
    body = "\n".join([f"GAME {game_id} {seat} {setup.passwords[seat]}", *lines, "END", ""])
    setup.mail(SEATS[seat], f"orders {seat}", "Hello,\n\n" + body)


def _latest(setup: Setup, kind: str) -> dict[str, dict]:
    """The latest mail of ``kind`` to each seat."""
    out: dict[str, dict] = {}
    for row in setup.outbox(kind):
        for seat, address in SEATS.items():
            if row["to_addr"] == address:
                out[seat] = row
    return out


#: Words that read the same in every language (order words, names, units) and are no sentence.
_SAME = re.compile(r"^[\W\d_]*$")


def _words(text: str, names: set[str]) -> list[str]:
    """The words of ``text`` that are prose: in lower case (no order keywords, no names of
    counties or seats, no numbers or hashes)."""
    out = []
    for token in text.split():
        word = token.strip(".,:;!?()[]{}\"'<>")
        if word.isalpha() and word.islower() and word not in names:  # capitalised: a name (or a sentence's start)
            out.append(word)
    return out


def english_sentences(english: str, names: set[str]) -> set[str]:
    """The prose of an English mail, sentence by sentence, without names and numbers: each
    sentence of at least four words that are not order keywords (upper case) or names."""
    prose = " ".join(line.strip() for line in english.splitlines() if line.strip() and not line.startswith(" "))
    out = set()
    for sentence in re.split(r"(?<=[.:;?!])\s+", prose):
        words = _words(sentence, names)
        if len(words) >= 4:
            out.add(" ".join(words).lower())
    return out


def english_left(english: str, other: str, names: set[str]) -> list[str]:
    """The English sentences of ``english`` that ``other`` still says (names and numbers aside)."""
    said = " ".join(_words(other, names)).lower()
    return sorted(s for s in english_sentences(english, names) if s in said)


def _names(setup: Setup) -> set[str]:
    return {*SEATS, "w1", "Wallenstein", "gm", "pbem", "example", "org", "sha"}


def _check_kind(setup: Setup, kind: str) -> dict[str, dict]:
    found = _latest(setup, kind)
    assert set(found) >= set(LANGS), (kind, sorted(found))
    english = text(found["green"])
    assert english_sentences(english, _names(setup)), kind  # the check has English prose to look for
    for seat in ("red", "blue"):
        msg = message_of(found[seat])
        assert msg["Content-Language"] == LANGS[seat], (kind, seat)
        left = english_left(english, text(found[seat]), _names(setup))
        assert not left, f"{kind} to {seat} ({LANGS[seat]}) still says in English: {left[:5]}"
        if kind != "reply":  # a reply's subject is the player's own, after Re:
            assert msg["Subject"] != message_of(found["green"])["Subject"].replace("green", seat), kind
    assert message_of(found["green"])["Content-Language"] == "en"
    return found


def test_the_welcome_mail_is_in_each_seats_language(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _game(setup)
    found = _check_kind(setup, "welcome")
    assert "A jelszavad: " in text(found["red"]) and "Dein Passwort: " in text(found["blue"])
    assert message_of(found["red"])["Subject"] == "[w1] Üdvözlünk, red"


def test_a_reply_names_the_problem_line_and_suggests_the_name_in_the_seats_language(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _game(setup)
    for seat in LANGS:
        _mail_block(setup, seat, "TAX Bhmen")
    setup.ingest()
    found = _check_kind(setup, "reply")
    hu, de, en = (" ".join(text(found[s]).split()) for s in ("red", "blue", "green"))
    assert "line 4: TAX Bhmen the county 'Bhmen' is not a county I know (did you mean: Böhmen" in en
    assert "4. sor: TAX Bhmen a tartomány: 'Bhmen' – nem ismerek ilyen tartományt (erre gondoltál: Böhmen" in hu
    assert "Zeile 4: TAX Bhmen das Land 'Bhmen' ist kein Land, das ich kenne (meintest du: Böhmen" in de
    assert "ELUTASÍTVA" in hu and "ABGELEHNT" in de and "REJECTED" in en
    assert "1 hiba:" in hu and "1 Problem:" in de and "1 problem:" in en  # the catalogue's plural forms
    for seat in LANGS:  # prose wrapped at 72 characters (not bytes: 'ő' is one), quoted lines kept whole
        lines = text(found[seat]).splitlines()
        assert all(len(line) <= 72 for line in lines if not line.startswith("  ")), seat
        assert any(len(line) > 60 and len(line.encode()) > len(line) for line in lines) or seat == "green"


def test_mail_command_answers_are_in_each_seats_language(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _game(setup)
    for command in ("HELP", "STATUS"):
        for seat in LANGS:
            setup.mail(SEATS[seat], command, "")
        setup.ingest()
        _check_kind(setup, "command")


def test_help_orders_sends_the_pages_of_the_seats_language(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _game(setup)
    for seat in LANGS:
        setup.mail(SEATS[seat], "HELP ORDERS", "")
    setup.ingest()
    found = _latest(setup, "command")
    assert "hu/orders-wallenstein.md" in text(found["red"]) and "de/orders-wallenstein.md" in text(found["blue"])
    assert "hu/" not in text(found["green"]).split("\n", 1)[0]


def test_a_rarer_engine_rule_is_answered_in_the_seats_language(tmp_path, clock):
    """An engine's own check (not the grammar's) reaches the reply translated: DRAFT lines sent
    as standing orders in a game whose rules do not keep them (adjudicator/wallenstein/engine.py)."""
    setup = Setup(tmp_path, clock)
    _game(setup)
    for seat in LANGS:
        _mail_block(setup, seat, "DRAFT Böhmen, Mähren")
    setup.ingest()
    found = _check_kind(setup, "reply")
    hu, de, en = (" ".join(text(found[s]).split()) for s in ("red", "blue", "green"))
    assert "wallenstein has no standing orders but the draft lines of the setup draft" in en
    assert "a Wallensteinben csak a kezdőtartományok kiválasztásának sorai lehetnek állandó parancsok" in hu
    assert "Wallenstein kennt keine Dauerbefehle außer den Zeilen der Länderwahl zu Beginn" in de


@pytest.mark.parametrize("engine", ["havoc", "gods-playground"])
def test_your_move_mails_are_in_each_seats_language(tmp_path, clock, engine):
    setup = Setup(tmp_path, clock)
    _game(setup, "w1", engine)
    service = setup.service()
    game = service.load("w1")
    from adjudicator.chance import Chance

    chance = Chance("i18n")
    for n in range(12):
        game = service.load("w1")
        if game.pending is None or len({r["to_addr"] for r in setup.outbox("your-move")}) == 3:
            break
        for seat in service.awaited(game):
            orders = game.engine.random_orders(game.state, seat, chance.stream(f"{n}/{seat}"))
            service.submit("w1", seat, orders, "", {"kind": "bot"})
        service.adjudicate("w1", limit=1)
    moves = _latest(setup, "your-move")
    assert len(moves) >= 2, sorted(moves)
    for seat, row in moves.items():
        assert message_of(row)["Content-Language"] == LANGS[seat]
    if "green" in moves:
        english = text(moves["green"])
        for seat in set(moves) - {"green"}:
            left = english_left(english, text(moves[seat]), _names(setup))
            assert not left, f"your-move to {seat} still says in English: {left[:5]}"


def test_deadline_changes_and_reminders_are_in_each_seats_language(tmp_path, clock):
    from datetime import timedelta

    from pbem.loop.tick import send_reminders

    setup = Setup(tmp_path, clock)
    _game(setup, "w1", "wallenstein", "--deadline-every", "72h", "--remind-before", "24h")
    clock.now += timedelta(hours=50)
    assert len(send_reminders(setup.service(), clock())) == 3
    found = _check_kind(setup, "reminder")
    assert message_of(found["red"])["Subject"].startswith("[w1] emlékeztető: esedékesek a parancsaid")
    setup.run("deadline", "w1", "+3d")
    _check_kind(setup, "deadline")


@pytest.mark.parametrize("options", [(), ("--option", "expansion=court")])
def test_the_missed_orders_notice_says_what_was_played_in_each_seats_language(tmp_path, clock, options):
    """Wallenstein's missed-orders default is no order a player writes: the late notice says
    what it did (money cards everywhere; with the Imperial Court, nothing at court) in words."""
    setup = Setup(tmp_path, clock)
    _game(setup, "w1", "wallenstein", "--deadline-every", "72h", *options)
    setup.run("adjudicate", "w1", "--force")
    found = _check_kind(setup, "late")
    hu, de, en = (" ".join(text(found[s]).split()) for s in ("red", "blue", "green"))
    assert "money cards on every action space" in en
    assert "pénzkártya minden akciómezőn" in hu and "Münzkarten auf jedem Aktionsfeld" in de
    court = ("Nothing went on the court spaces" in en, "Az udvari mezőkre nem került semmi" in hu,
             "Auf die Hoffelder kam nichts" in de)
    assert court == ((True,) * 3 if options else (False,) * 3)



def test_the_shells_refusals_and_notes_are_in_the_seats_language(tmp_path, clock):
    """What the shell itself says of a block (not a grammar or an engine): a DIGEST block's
    note, a press line relayed, a block that ran on into the sign-off for want of END, and the
    blocks past the most one mail may hold."""
    setup = Setup(tmp_path, clock)
    _game(setup)
    for seat in LANGS:
        blocks = [f"GAME w1 {seat} {setup.passwords[seat]}\nDIGEST ON\nEND" for _ in range(11)]
        setup.mail(SEATS[seat], "digest", "Hello,\n\n" + "\n\n".join(blocks) + "\n")
    setup.ingest()
    found = _check_kind(setup, "reply")
    hu, de, en = (" ".join(text(found[s]).split()) for s in ("red", "blue", "green"))
    assert "unchanged: your reports now come as plain text" in en and "the 1 block(s) from line" in en
    assert "nem változott: a jelentéseid már most is sima szövegként" in hu
    assert "egy levélből legfeljebb 10 blokkot olvasunk" in hu
    assert "unverändert: deine Berichte kommen schon als reiner Text" in de
    assert "höchstens 10 werden in einer Mail gelesen" in de
    for seat in LANGS:
        setup.mail(SEATS[seat], "press", f"Hi,\n\nGAME w1 {seat} {setup.passwords[seat]}\nPRESS TO ALL\nhello all\n"
                   "END\nEND\n")
        setup.mail(SEATS[seat], "orders", f"Hi,\n\nGAME w1 {seat} {setup.passwords[seat]}\nTAX Böhmen\n\n"
                   "Thanks a lot\nAnna\n")
    setup.ingest()
    replies = {seat: [" ".join(text(r).split()) for r in setup.outbox("reply") if r["to_addr"] == SEATS[seat]]
               for seat in LANGS}
    hu, de = " ".join(replies["red"]), " ".join(replies["blue"])
    assert "PRESS a(z) 4. sorban: továbbítva nekik:" in hu and "PRESS in Zeile 4: weitergeleitet an" in de
    assert "parancsként olvastuk; írd az END-et ide:" in hu and "auch als Befehle gelesen; schreib END in" in de
    en = " ".join(replies["green"])
    assert "PRESS on line 4: relayed to" in en and "was read as orders too; write END on" in en


def test_a_club_lines_refusal_is_in_the_seats_language(tmp_path, clock):
    """ABSENT written wrong and BACK without an absence: the reply's one line each, in the
    seat's language (pbem/club/absence.py)."""
    setup = Setup(tmp_path, clock)
    _game(setup)
    for seat in LANGS:
        _mail_block(setup, seat, "ABSENT SOMETIME")
    setup.ingest()
    found = _latest(setup, "reply")
    hu, de, en = (" ".join(text(found[s]).split()) for s in ("red", "blue", "green"))
    assert "write ABSENT FROM 2026-12-10 TO 2026-12-20" in en
    assert "írd így: ABSENT FROM 2026-12-10 TO 2026-12-20" in hu and "schreib ABSENT FROM 2026-12-10" in de
    for seat in LANGS:
        _mail_block(setup, seat, "BACK")
    setup.ingest()
    found = _latest(setup, "reply")
    assert "red ebben: w1 sem távol nincs, sem polgári zavargásban" in " ".join(text(found["red"]).split())
    assert "blue ist in w1 weder abwesend noch in Unordnung" in " ".join(text(found["blue"]).split())
