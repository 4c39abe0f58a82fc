"""The club's game options, given to ``pbem new`` as ``--option K=V`` beside the engine's.

They are the service's, never the engine's: :func:`split` takes them out of the options and
``GameCreated`` keeps them under ``club`` (only when one is given, so a game created without
them records exactly what it did before). Each has a default (:data:`DEFAULTS`):

- ``absence=wait|bot``: while a seat is away by a declared absence, the deadline of a turn
  that awaits it waits (up to ``absence_cap``), or the game's bot plays the seat meanwhile;
- ``absence_cap=DURATION`` (default 7d): the most a turn's deadline waits for absent seats;
- ``disorder_after=N`` (default 0: never): a seat that missed N turns in a row falls into
  civil disorder (the bot plays it, every seat is told);
- ``join=first|approve`` (open games): a JOIN takes the seat at once, or waits for the GM;
- ``open=yes|no`` (default no; ``pbem new --open`` sets it): observers may ask by mail
  (``OBSERVE``), and seats the GM offers are taken by mail (``JOIN``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import DomainError

DEFAULTS: dict[str, Any] = {"absence": "wait", "absence_cap": 7 * 86400, "disorder_after": 0, "join": "first",
                            "open": "no"}
KEYS = frozenset(DEFAULTS)
_CHOICES = {"absence": ("wait", "bot"), "join": ("first", "approve"), "open": ("yes", "no")}


def split(options: Mapping[str, str]) -> tuple[dict[str, str], dict[str, Any] | None]:
    """The engine's options and the club's (None when none is given); a bad value is refused."""
    engine = {k: v for k, v in options.items() if k not in KEYS}
    given = {k: str(v).strip() for k, v in options.items() if k in KEYS}
    if not given:
        return engine, None
    return engine, {k: parse(k, v) for k, v in given.items()}


def parse(key: str, text: str) -> Any:
    """One club option's value, checked."""
    if key in _CHOICES:
        value = text.lower()
        if value not in _CHOICES[key]:
            raise DomainError(f"option {key}={text!r}: choose one of {', '.join(_CHOICES[key])}")
        return value
    if key == "absence_cap":
        from pbem.store.clock import parse_duration

        return int(parse_duration(text).total_seconds())
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise DomainError(f"option {key}={text!r}: give a whole number (0: never)")
    return number


def of(game: Any) -> dict[str, Any]:
    """Every club option of ``game``: what it was created with, else the default."""
    return {**DEFAULTS, **(game.created.get("club") or {})}


def describe(game: Any) -> str:
    """The club options of ``game`` in one line (for ``pbem status`` and the mails)."""
    opts = of(game)
    cap = opts["absence_cap"] // 3600
    absence = (f"the deadline waits for an absent seat (at most {cap // 24}d{cap % 24}h)".replace("d0h", "d")
               if opts["absence"] == "wait" else "the bot plays an absent seat")
    disorder = (f"civil disorder after {opts['disorder_after']} missed turns in a row" if opts["disorder_after"]
                else "no civil disorder for missed turns")
    return f"{absence}; {disorder}"
