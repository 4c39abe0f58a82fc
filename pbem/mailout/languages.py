"""The language of each seat: what its reports (and, as they are translated, its other mails)
are written in.

A game has a default language (``pbem new --language hu``; English when none is given) and a
seat may have its own (``--seat anna=anna@example.org:hu``, ``pbem seat GAME SEAT --language
de``, or the player's ``LANGUAGE de`` line in a GAME block of its own). Both are in the log:
``GameCreated.language`` and the seat rows' ``language``, ``SeatChanged.language``; a log
without them (every game made before languages) reads as English. A seat keeps its language
when a new player takes it (``--new-password``, ``pbem replace``) unless it is changed.
The public and the GM read the game's default language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import DomainError

__all__ = ["DEFAULT", "names", "check", "game_language", "seat_language", "languages", "split_seat_value",
           "set_language", "status_fields", "status_lines"]

#: The language of a log that names none (``reports.i18n.DEFAULT``; kept here so that ``pbem
#: status`` and a quiet tick read a game's languages without importing the reports package).
DEFAULT = "en"


def names() -> dict[str, str]:
    """Every language pbem writes, code -> its own name (``reports.i18n.LANGUAGES``)."""
    from reports.i18n import LANGUAGES

    return dict(LANGUAGES)


def check(code: str) -> str:
    """A supported language code, or a :class:`DomainError` listing the supported ones."""
    from reports.i18n import UnknownLanguage, _, check_language, supported_text

    try:
        return check_language(code)
    except UnknownLanguage:  # said in the current language (a LANGUAGE line's answer: the seat's)
        raise DomainError(_("unknown language {code}; pbem writes {languages}").format(
            code=repr(str(code).strip()), languages=supported_text())) from None


def game_language(created: Mapping[str, Any]) -> str:
    """The game's default language (its ``GameCreated`` payload; English when it names none)."""
    return str(created.get("language") or DEFAULT)


def seat_language(game: Any, viewer: str) -> str:
    """The language ``viewer`` reads: a seat's own, else the game's default (the public and the
    GM read the default)."""
    row = game.seats.get(viewer) if isinstance(getattr(game, "seats", None), Mapping) else None
    own = row.get("language") if isinstance(row, Mapping) else None
    return str(own or game_language(game.created))


def languages(game: Any) -> dict[str, str]:
    """Every seat's language, in seating order."""
    return {seat: seat_language(game, seat) for seat in game.seats}


def _looks_like_language(word: str) -> bool:
    """True for a word written as a language code (``hu``, ``de``, ``pt-BR``, ``hu_HU``)."""
    head = word.replace("_", "-").split("-", 1)[0]
    return 2 <= len(head) <= 3 and head.isalpha() and "@" not in word


def split_seat_value(value: str, colours: tuple[str, ...]) -> tuple[str, str | None, str | None]:
    """``anna@example.org:green:hu`` -> (``anna@example.org``, ``green``, ``hu``): the address,
    then optionally a colour and a language, each after a colon, in either order. A trailing
    word written like a language code that pbem does not write is refused with the list."""
    address, colour, language = value, None, None
    for _ in range(2):
        head, sep, word = address.rpartition(":")
        word = word.strip()
        if not sep:
            break
        if colour is None and word.lower() in colours:
            colour = word.lower()
        elif language is None and _looks_like_language(word):
            language = check(word)
        else:
            break
        address = head
    return address.strip(), colour, language


def set_language(service: Any, game_id: str, seat: str, code: str, by: str) -> str:
    """Record that ``seat`` reads ``code`` from now on (``by``: ``gm`` or ``player``); the
    language as kept. An unknown code is refused and nothing is recorded."""
    from pbem.store.db import NewEvent

    language = check(code)
    with service.store.transaction():
        game = service.load(game_id)
        if seat not in game.seats:
            raise DomainError(f"no seat {seat!r} in {game_id} (seats: {', '.join(game.seats)})")
        payload = {"seat": seat, "language": language, "by": by}
        event = service.store.append(game_id, [NewEvent("SeatChanged", payload)], game.last_seq).events[0]
        service.store.upsert_game(game_id, last_seq=event.seq, last_hash=event.hash)
    return language


def languages_of_log(events: Any) -> dict[str, Any]:
    """``pbem status`` of a game that cannot be replayed here: the languages as its log records
    them (``GameCreated``'s seats and default, then each ``SeatChanged``), without the engine."""
    created: dict[str, Any] = {}
    seats: dict[str, str] = {}
    for ev in events:
        if ev.type == "GameCreated":
            created = ev.payload
            seats = {s["name"]: s.get("language") for s in created.get("seats", []) if isinstance(s, dict)}
        elif ev.type == "SeatChanged" and ev.payload.get("seat") in seats and "language" in ev.payload:
            seats[ev.payload["seat"]] = ev.payload["language"]
    default = game_language(created)
    return {"language": default, "languages": {s: lang or default for s, lang in seats.items()}}


def status_fields(game: Any) -> dict[str, Any]:
    """``pbem status``: the game's default language and each seat's."""
    return {"language": game_language(game.created), "languages": languages(game)}


def status_lines(row: Mapping[str, Any]) -> list[str]:
    """The status line of a game's languages (none when every seat reads English)."""
    seats = row.get("languages") or {}
    if not seats or (row.get("language", DEFAULT) == DEFAULT and set(seats.values()) == {DEFAULT}):
        return []
    known = names()
    listed = ", ".join(f"{seat} {known.get(lang, lang)} ({lang})" for seat, lang in seats.items())
    return [f"  languages: {listed}; the public and the GM: {row.get('language', DEFAULT)}"]

