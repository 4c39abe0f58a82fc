"""What people read for a game and its turns: the game's name (not the engine id) and each
turn label in the game's own words (round and phase, battle and round, season and year).

The words are the game's own: the ``names`` module its registry entry names
(:class:`adjudicator.gameinfo.GameInfo`); a game without one is called by its engine id and its
turns by their labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from adjudicator import games
from reports.i18n import _, ngettext


def _names(engine: str) -> ModuleType | None:
    """The game's ``names`` module (None: the game has none)."""
    found = games.hook(engine, "names")
    return found if isinstance(found, ModuleType) else None


def game_title(engine: str, options: Mapping[str, Any] | None = None) -> str:
    """The name on the game's box, with what its options add (``... with the Imperial
    Court``); an unknown engine's id."""
    module = _names(engine)
    if module is None or not getattr(module, "TITLE", ""):
        return engine
    title = _(module.TITLE)
    for (key, value), extra in getattr(module, "TITLE_OPTIONS", {}).items():
        if str((options or {}).get(key, "")) == value:
            title = _(extra).format(game=title)
    return title


def turn_name(engine: str, label: str, view: Mapping[str, Any] | None = None, after: bool = False) -> str:
    """``label`` in the game's words (``spring 1618``, ``round 1, starting estates``,
    ``battle 2 (Poitiers), round 3``). ``view`` (any viewer's, at that turn or right after
    it) gives a decision the names only the view knows; ``after``: the name of a report after
    that turn (``the end of round 1``). An unknown label is given as it is."""
    if label == "start":
        return _("the start")
    if label == "*":
        return _("every turn")
    module = _names(engine)
    if module is not None:
        return str(module.turn_name(label, view or {}, after))
    return _("the start") if label == "setup" else label


def turn_short(engine: str, label: str, view: Mapping[str, Any] | None = None) -> str:
    """A few words for a chart's axis: ``spring 1618``, ``round 2``, a battle's name."""
    module = _names(engine)
    short = getattr(module, "turn_short", None)
    found = short(label, view or {}) if short is not None else None
    return str(found) if found is not None else turn_name(engine, label, view)


def played(engine: str, labels: list[str]) -> str:
    """How much of a game the adjudicated ``labels`` are, in the game's words (``4 rounds``,
    ``6 seasons``); ``5 turns`` for a game without such words."""
    counted = getattr(_names(engine), "played", None)
    if counted is not None:
        return str(counted(labels))
    return ngettext("{n} turn", "{n} turns", len(labels)).format(n=len(labels))


def hand_words(engine: str) -> str:
    """What a seat's hand holds, in its report mail, as a message of the catalogue (empty:
    the game has no word for it)."""
    return str(getattr(_names(engine), "HAND", ""))
