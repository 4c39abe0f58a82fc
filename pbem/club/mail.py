"""The club's mail: commands outside GAME blocks, and the lines of a GAME block of its own.

**Outside GAME blocks** (the subject or the first text line, as HELP and STATUS are), from any
address, answered to that address only, each rate-limited (:mod:`pbem.club.limits`):
``STANDBY [game|OFF]``, ``LIST``, ``JOIN <game> [seat]``, ``LEAVE <game>``,
``OBSERVE <game>``, ``STOP [game]``, ``STATS``, ``ADDRESS ADD <address>``,
``ADDRESS CONFIRM <code>``. A misuse gets one line saying what is wrong (unknown game, game
not open, seat taken, ...) and nothing is recorded.

**Inside a GAME block** (with the seat's password, like orders), in a block that holds only
these lines: ``ABSENT FROM <date> TO <date>`` (or ``ABSENT TO <date>``, ``ABSENT FOR 10d``),
``BACK``, ``DRAW`` (``DRAW NO`` withdraws the vote), ``CONCEDE <seat> [seat...]``
(``CONCEDE NO`` withdraws it), ``RESIGN``, and ``LANGUAGE <code>`` (the language the seat
reads from now on, :mod:`pbem.mailout.languages`; an unknown code is answered with the supported ones). A block that mixes them with orders is read as
orders (a game may have a ``DRAW DECK`` order), so they go in a block of their own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pbem.club import limits
from pbem.errors import DomainError

#: The words of a GAME block of the club's own.
BLOCK_WORDS = ("ABSENT", "BACK", "DRAW", "CONCEDE", "RESIGN", "LANGUAGE")
_BLOCK_LINE = re.compile(r"^(ABSENT|BACK|DRAW|CONCEDE|RESIGN|LANGUAGE)\b\s*(.*)$", re.IGNORECASE)


def _(message: str) -> str:
    """``message`` in the current language (the catalogue is loaded only when a text is
    written: ``pbem status`` imports this module without the reports package)."""
    from reports.i18n import _ as gettext

    return gettext(message)


# -- lines inside a GAME block ------------------------------------------------------------
def block_lines(body: str) -> list[tuple[str, list[str]]] | None:
    """The club lines of a block body ``[(WORD, [words])]`` when every line of it (comments
    and blank lines aside) is one, else None (the block holds orders)."""
    out = []
    for line in body.split("\n"):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        match = _BLOCK_LINE.match(text)
        if match is None:
            return None
        word, rest = match.group(1).upper(), match.group(2).split()
        if word == "DRAW" and rest and rest[0].upper() not in ("YES", "NO"):
            return None  # a game's DRAW DECK (RECRUIT) is an order
        out.append((word, rest))
    return out or None


def run_block(service: Any, mail: Any, game: Any, seat: str, lines: list[tuple[str, list[str]]]) -> tuple[bool, list[str]]:
    """Carry out the club lines of an authenticated block of ``seat``: ``(all done, one answer
    line per line)``. Each line is done or refused on its own; a refused one records nothing."""
    from reports.i18n import _

    by = "player" if mail.is_mail else "gm"
    answers, ok = [], True
    for word, words in lines:
        if mail.is_mail and not limits.allow(service.store, word, mail.sender, game.game_id, seat, mail.key):
            answers.append(_("{word}: NOT done: {why}.").format(word=word, why=limits.refused(word)))
            ok = False
            continue
        try:
            with service.store.transaction():
                answers.append(f"{word}: {BLOCK_HANDLERS[word](service, game.game_id, seat, words, by)}")
        except DomainError as exc:
            answers.append(_("{word}: NOT done: {why}; nothing was recorded.").format(word=word, why=exc.message))
            ok = False
    return ok, answers


def _absent(service: Any, game_id: str, seat: str, words: list[str], by: str) -> str:
    from pbem.club import absence
    from reports.i18n import _

    if [w.upper() for w in words] in (["NONE"], ["OFF"], ["NO"]):
        absence.end_absence(service, game_id, seat, by)
        return _("your absence is ended; you play your seat again.")
    start, end = absence.parse_period(words, service.store.clock())
    absence.declare(service, game_id, seat, start, end, by)
    game = service.load(game_id)
    return _("noted: you are away from {start} to {end}.").format(start=start, end=end) + " " + \
        " ".join(absence.policy_lines(game))


def _back(service: Any, game_id: str, seat: str, words: list[str], by: str) -> str:
    from pbem.club import absence

    from reports.i18n import _

    absence.come_back(service, game_id, seat, "password" if by == "player" else "gm")
    return _("welcome back: you play your seat again (the bot no longer does, and no absence stands).")


def _draw(service: Any, game_id: str, seat: str, words: list[str], by: str) -> str:
    from pbem.club import endings

    return endings.vote_draw(service, game_id, seat, not (words and words[0].upper() == "NO"))


def _concede(service: Any, game_id: str, seat: str, words: list[str], by: str) -> str:
    from pbem.club import endings

    if not words:
        return endings.resign(service, game_id, seat, service.store.clock())
    return endings.vote_concede(service, game_id, seat, [] if [w.upper() for w in words] == ["NO"] else words)


def _resign(service: Any, game_id: str, seat: str, words: list[str], by: str) -> str:
    from pbem.club import endings

    if words:
        raise DomainError("RESIGN stands alone on its line")
    return endings.resign(service, game_id, seat, service.store.clock())


def _language(service: Any, game_id: str, seat: str, words: list[str], by: str) -> str:
    from pbem.mailout import languages

    if len(words) != 1:
        raise DomainError(f"write LANGUAGE and one code: {', '.join(languages.names())}")
    from reports.i18n import _

    code = languages.set_language(service, game_id, seat, words[0], by)
    return _("from now on your reports are written in {name} ({code}).").format(name=languages.names()[code],
                                                                               code=code)


BLOCK_HANDLERS: dict[str, Callable[[Any, str, str, list[str], str], str]] = {
    "ABSENT": _absent, "BACK": _back, "DRAW": _draw, "CONCEDE": _concede, "RESIGN": _resign,
    "LANGUAGE": _language}


# -- commands outside GAME blocks ----------------------------------------------------------
def find_command(mail: Any) -> tuple[str, list[str]] | None:
    """``(COMMAND, [words])`` of the club from the subject or the first non-empty text line."""
    pattern = re.compile(r"^\s*(?:re:\s*)*(" + "|".join(COMMANDS) + r")\b[ \t]*([^\n]*)$", re.IGNORECASE)
    first = next((line for line in (mail.text or "").splitlines() if line.strip()), "")
    for text in (first, mail.subject or ""):
        match = pattern.match(text)
        if match:
            return match.group(1).upper(), match.group(2).split()[:4]
    return None


def handle(service: Any, mail: Any) -> tuple[str, str] | None:
    """A mail without GAME blocks whose subject or first line is a club command: carried out
    and answered to the sender (``(outcome, note)`` for ingest), else None."""
    if not mail.is_mail or not mail.sender:
        return None
    found = find_command(mail)
    if found is None:
        return None
    command, words = found
    if not limits.allow(service.store, command, mail.sender, mail_key=mail.key):
        return "command", f"{command} from {mail.sender} over its limit: not answered"
    from pbem.mailin.language import mail_language
    from pbem.mailout import clubmail as mailing
    from reports.i18n import speaking

    # no seat is proven: the mail's own language, for the commands whose answers are translated
    spoken = mail_language(mail.raw, mail.subject, mail.text) if command in SPOKEN else None
    with speaking(spoken):
        try:
            with service.store.transaction():
                game, lines = COMMANDS[command](service, mail, words)
        except DomainError as exc:
            game, lines = None, [_("{command}: {why}. Nothing was recorded.").format(command=command, why=exc.message)]
        mailing.answer(service, game, mail.sender, f"{command.lower()}", lines)
    return "command", f"{command} {' '.join(words[:2])}".strip()


def _standby(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import absence

    address = mail.sender.strip().lower()
    if words and words[0].upper() == "OFF":
        gone = absence.standby_remove(service.store, address)
        return None, [_("You are off the standby list.") if gone else _("You were not on the standby list.")]
    game = None
    if words:
        game = _running_game(service, words[0])
    new = absence.standby_add(service.store, address, game.game_id if game else None, "mail")
    said = ((_("You are now on the standby list for game {game}.") if new else
             _("You are already on the standby list for game {game}.")) if game else
            (_("You are now on the standby list for any game.") if new else
             _("You are already on the standby list for any game.")))
    return game, [said.format(game=game.game_id if game else ""),
                  _("When a seat needs a new player, the GM may give it to you: you will get a welcome mail with its "
                    "password and the current position. STANDBY OFF takes you off the list.")]


def _running_game(service: Any, word: str) -> Any:
    """The running game named ``word`` (matched ignoring case), or a one-line DomainError."""
    from pbem.store.auth import check_game_id

    try:
        check_game_id(word)
    except DomainError:
        raise DomainError(_("there is no game {game}").format(game=repr(word[:40]))) from None
    matches = [g for g in service.store.game_ids() if g.lower() == word.lower()]
    if not matches:
        raise DomainError(_("there is no game {game}").format(game=repr(word)))
    game = service.load(matches[0])
    if game.pending is None:
        raise DomainError(_("game {game} is over").format(game=game.game_id))
    return game


def _list(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import lobby

    return None, lobby.list_lines(service)


def _game_word(words: list[str], command: str, rest: str = "") -> str:
    """The game id a command names (first word), or a one-line DomainError saying how to write it."""
    if not words:
        raise DomainError(_("write {usage}").format(usage=f"{command} <game>{rest}"))
    from pbem.store.auth import check_game_id

    try:
        return check_game_id(words[0]) or words[0]
    except DomainError:
        raise DomainError(_("there is no game {game}").format(game=repr(words[0][:40]))) from None


def _join(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import lobby

    game_id = _game_word(words, "JOIN", " [seat]")
    return lobby.join(service, _spelt(service, game_id), mail.sender, words[1] if len(words) > 1 else None, "mail")


def _leave(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import lobby

    return None, lobby.leave(service, _spelt(service, _game_word(words, "LEAVE")), mail.sender)


def _observe(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import lobby, observers

    game_id = _spelt(service, _game_word(words, "OBSERVE"))
    if not lobby.is_open(service.store, game_id):
        if service.store.game_row(game_id) is None:
            raise DomainError(_("there is no game {game}").format(game=repr(game_id)))
        raise DomainError(_("game {game} is not open to observers by mail; ask its GM").format(game=game_id))
    observers.add(service, game_id, mail.sender, "mail")
    return None, [_("You observe {game} from now on: the public report after each turn, and the game's record when it "
                    "ends. You never see a seat's own report. STOP {game} ends it.").format(game=game_id)]


def _stop(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import observers

    games = [_spelt(service, words[0])] if words else observers.observed_by(service.store, mail.sender)
    if not games:
        raise DomainError(_("you observe no game"))
    for game_id in games:
        observers.stop(service, game_id, mail.sender, "mail")
    return None, [_("You no longer observe {games}.").format(games=", ".join(games))]


def _stats(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import players

    return None, players.stats_lines(service, mail.sender, bool(words) and words[0].upper() == "ALL")


def _address(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import players

    upper = [w.upper() for w in words]
    if upper[:1] == ["ADD"] and len(words) == 2:
        return None, players.ask_link(service, mail.sender, words[1])
    if upper[:1] == ["CONFIRM"] and len(words) == 2:
        return None, players.confirm_link(service, mail.sender, words[1])
    if upper[:1] == ["REMOVE"] and len(words) == 2:
        return None, players.unlink(service, mail.sender, words[1])
    if not words:
        player = players.player_of(service.store, mail.sender)
        return None, [_("Your addresses: {addresses}.").format(
            addresses=", ".join(players.addresses_of(service.store, player)))]
    raise DomainError(_("write ADDRESS, ADDRESS ADD <address>, ADDRESS CONFIRM <code> or ADDRESS REMOVE <address>"))


def _spelt(service: Any, game_id: str) -> str:
    """``game_id`` as the lobby or the games spell it (a phone capitalises: ``JOIN O1``)."""
    rows = service.store.conn.execute("select game_id from club_lobby union select game_id from games").fetchall()
    matches = [r[0] for r in rows if r[0].lower() == game_id.lower()]
    return matches[0] if len(matches) == 1 else game_id


#: The commands from any address, answered in the mail's own language (pbem.mailin.language).
SPOKEN = ("STANDBY", "LIST", "JOIN", "LEAVE", "OBSERVE", "STOP", "STATS", "ADDRESS")
COMMANDS: dict[str, Callable[[Any, Any, list[str]], tuple[Any, list[str]]]] = {
    "STANDBY": _standby, "LIST": _list, "JOIN": _join, "LEAVE": _leave, "OBSERVE": _observe, "STOP": _stop,
    "STATS": _stats, "ADDRESS": _address}
