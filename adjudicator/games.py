"""The registry of games: the list of the built-in games and each game's entry.

A game is one folder per layer plus one registry entry (docs/architecture.md, "Adding a
game"): its engine package ``adjudicator/<pkg>/``, its grammar ``turns/<pkg>.py`` (and any
``turns/<pkg>_*.py``), its reports ``reports/<pkg>/``, and the entry (a
:class:`~adjudicator.gameinfo.GameInfo`) its engine package gives as ``GAME`` in
``adjudicator/<pkg>/game.py``. Everything the shared code needs to know about one game (its names, seat colours, doc pages, the words of its chance labels,
its transcriber's hints, where its grammar and reports live) comes from that entry; no
shared module names a game.

:data:`BUILTIN_PACKAGES` is the one list of the built-in games. An entry is read only when its
game is asked for (its ``game`` module is small and imports no engine), so one mail of one
game never loads the others. Tests and plug-ins add games at run time with :func:`add`.
Modules of other layers are named by dotted path (``module`` or ``module:attribute``) and
imported by the layer that owns them, so this pure layer imports none of them.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the entries' class is imported with the first entry asked for
    from adjudicator.gameinfo import GameInfo

#: The built-in games: engine name -> its engine package (whose ``game`` module holds ``GAME``).
BUILTIN_PACKAGES = {
    "wallenstein": "adjudicator.wallenstein",
    "havoc": "adjudicator.havoc",
    "gods-playground": "adjudicator.gods_playground",
}
#: Kept for older callers: engine name -> the package whose ``ENGINE`` plays it.
MODULES = BUILTIN_PACKAGES

_ADDED: dict[str, GameInfo] = {}


def add(info: GameInfo) -> GameInfo:
    """Register ``info`` (a game added at run time: a test's toy game, a plug-in)."""
    _ADDED[info.name] = info
    info_of.cache_clear()
    hook.cache_clear()
    return info


def remove(name: str) -> None:
    """Take away a game added at run time (a test's toy game leaving)."""
    _ADDED.pop(name, None)
    info_of.cache_clear()
    hook.cache_clear()


def names() -> list[str]:
    """The names of the known games: the built-in ones in their order, then those added."""
    return [*BUILTIN_PACKAGES, *(n for n in _ADDED if n not in BUILTIN_PACKAGES)]


@lru_cache(maxsize=None)
def info_of(name: str) -> GameInfo | None:
    """The registry entry of game ``name`` (None: no such game has an entry)."""
    if name in _ADDED:
        return _ADDED[name]
    package = BUILTIN_PACKAGES.get(name)
    if package is None:
        return None
    return importlib.import_module(f"{package}.game").GAME  # type: ignore[no-any-return]


def info(name: str) -> GameInfo:
    """The registry entry of ``name``; a game without one (an engine registered alone) gets
    an empty entry, so every shared module does the generic thing for it."""
    found = info_of(name)
    if found is not None:
        return found
    from adjudicator.gameinfo import GameInfo

    return GameInfo(name=name, engine="")


def entries() -> list[GameInfo]:
    """Every known game's entry (imports every entry module: small, no engine)."""
    return [info(n) for n in names()]


def resolve(dotted: str) -> Any:
    """The module or attribute a dotted name points to (``pkg.mod`` or ``pkg.mod:attr``)."""
    module, _, attr = dotted.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attr) if attr else found


@lru_cache(maxsize=None)
def hook(name: str, what: str) -> Any:
    """The object game ``name``'s entry names in its field ``what`` (None when it names none;
    a field naming several, like ``grammar``, gives the tuple of them); imported once.

    Every run-time lookup of a game's module goes through here with the field's name written
    out (``hook(game, "renderer")``): tests/test_layers.py counts each such call as an import
    of every game's module of that field, so a circle through a lookup fails it."""
    dotted = getattr(info(name), what)
    if isinstance(dotted, tuple):
        return tuple(resolve(one) for one in dotted)
    return resolve(dotted) if dotted else None
