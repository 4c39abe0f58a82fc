"""Where each game's grammar is found: importing a game's grammar modules (its registry entry's
``grammar``, :class:`adjudicator.gameinfo.GameInfo`) registers its grammar (see
:func:`turns.base.register_grammar`); :func:`grammar_for`, :func:`format_orders` and
:func:`plan_checker_for` look it up here. Only the game asked for is imported, so checking one
game's order mail does not load the others' grammars and data; each game is imported once.

Imports run one way: this module -> a game's grammar -> turns.base, which imports neither."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator import games
from adjudicator.base import Order
from turns.base import Grammar, PlanChecker, registered


def load(game: str | None = None) -> None:
    """Import the grammar modules of ``game`` (of every game when it is None or has none): its
    registry entry's ``grammar``, each imported once."""
    if game and games.info(game).grammar:
        games.hook(game, "grammar")
        return
    for name in games.names():
        games.hook(name, "grammar")


def grammar_for(game: str) -> Grammar:
    """The parser of ``game`` (its grammar modules imported first)."""
    load(game)
    parse = registered(game)[0]
    if parse is None:
        raise KeyError(game)
    return parse


def format_orders(game: str, orders: Sequence[Order]) -> str:
    """The canonical text of ``orders`` in ``game``'s order language."""
    load(game)
    write = registered(game)[1]
    if write is None:
        raise KeyError(game)
    return write(orders)


def plan_checker_for(game: str) -> PlanChecker | None:
    """The plan checker of ``game`` (None: its blocks are orders for the pending turn)."""
    load(game)
    return registered(game)[2]
