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
(``CONCEDE NO`` withdraws it), ``RESIGN``. A block that mixes them with orders is read as
orders (Havoc's ``DRAW DECK`` is an order), so they go in a block of their own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pbem.club import limits
from pbem.errors import DomainError

#: The words of a GAME block of the club's own.
BLOCK_WORDS = ("ABSENT", "BACK", "DRAW", "CONCEDE", "RESIGN")
_BLOCK_LINE = re.compile(r"^(ABSENT|BACK|DRAW|CONCEDE|RESIGN)\b\s*(.*)$", re.IGNORECASE)


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
            return None  # Havoc's DRAW DECK (RECRUIT) is an order
        out.append((word, rest))
    return out or None


def run_block(service: Any, mail: Any, game: Any, seat: str, lines: list[tuple[str, list[str]]]) -> tuple[bool, list[str]]:
    """Carry out the club lines of an authenticated block of ``seat``: ``(all done, one answer
    line per line)``. Each line is done or refused on its own; a refused one records nothing."""
    by = "player" if mail.is_mail else "gm"
    answers, ok = [], True
    for word, words in lines:
        if mail.is_mail and not limits.allow(service.store, word, mail.sender, game.game_id, seat, mail.key):
            answers.append(f"{word}: NOT done: {limits.refused(word)}.")
            ok = False
            continue
        try:
            with service.store.transaction():
                answers.append(f"{word}: {BLOCK_HANDLERS[word](service, game.game_id, seat, words, by)}")
        except DomainError as exc:
            answers.append(f"{word}: NOT done: {exc.message}; nothing was recorded.")
            ok = False
    return ok, answers


def _absent(service: Any, game_id: str, seat: str, words: list[str], by: str) -> str:
    from pbem.club import absence

    if [w.upper() for w in words] in (["NONE"], ["OFF"], ["NO"]):
        absence.end_absence(service, game_id, seat, by)
        return "your absence is ended; you play your seat again."
    start, end = absence.parse_period(words, service.store.clock())
    absence.declare(service, game_id, seat, start, end, by)
    game = service.load(game_id)
    return f"noted: you are away from {start} to {end}. " + " ".join(absence.policy_lines(game))


def _back(service: Any, game_id: str, seat: str, words: list[str], by: str) -> str:
    from pbem.club import absence

    absence.come_back(service, game_id, seat, "password" if by == "player" else "gm")
    return "welcome back: you play your seat again (the bot no longer does, and no absence stands)."


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


BLOCK_HANDLERS: dict[str, Callable[[Any, str, str, list[str], str], str]] = {
    "ABSENT": _absent, "BACK": _back, "DRAW": _draw, "CONCEDE": _concede, "RESIGN": _resign}


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
    from pbem.club import mailing

    try:
        with service.store.transaction():
            game, lines = COMMANDS[command](service, mail, words)
    except DomainError as exc:
        game, lines = None, [f"{command}: {exc.message}. Nothing was recorded."]
    mailing.answer(service, game, mail.sender, f"{command.lower()}", lines)
    return "command", f"{command} {' '.join(words[:2])}".strip()


def _standby(service: Any, mail: Any, words: list[str]) -> tuple[Any, list[str]]:
    from pbem.club import absence

    address = mail.sender.strip().lower()
    if words and words[0].upper() == "OFF":
        gone = absence.standby_remove(service.store, address)
        return None, ["You are off the standby list." if gone else "You were not on the standby list."]
    game = None
    if words:
        game = _running_game(service, words[0])
    new = absence.standby_add(service.store, address, game.game_id if game else None, "mail")
    where = f"game {game.game_id}" if game else "any game"
    return game, [f"You are {'now' if new else 'already'} on the standby list for {where}.",
                  "When a seat needs a new player, the GM may give it to you: you will get a welcome mail",
                  "with its password and the current position. STANDBY OFF takes you off the list."]


def _running_game(service: Any, word: str) -> Any:
    """The running game named ``word`` (matched ignoring case), or a one-line DomainError."""
    from pbem.auth import check_game_id

    try:
        check_game_id(word)
    except DomainError:
        raise DomainError(f"there is no game {word[:40]!r}") from None
    matches = [g for g in service.store.game_ids() if g.lower() == word.lower()]
    if not matches:
        raise DomainError(f"there is no game {word!r}")
    game = service.load(matches[0])
    if game.pending is None:
        raise DomainError(f"game {game.game_id} is over")
    return game


COMMANDS: dict[str, Callable[[Any, Any, list[str]], tuple[Any, list[str]]]] = {"STANDBY": _standby}
