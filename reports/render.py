"""The entry point: render any game's report from one viewer's view."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator import games
from reports.i18n import speaking
from reports.model import ReportInput, Rendered


def _renderer(game: str) -> Callable[[ReportInput], Rendered] | None:
    """The game's report renderer, as its registry entry names it (None: the game has none)."""
    return games.hook(game, "renderer")  # type: ignore[no-any-return]


class UnknownGame(ValueError):
    """No report renderer for this game."""


def render_report(inp: ReportInput) -> Rendered:
    """Text, HTML and pictures of the report for ``inp.viewer``.

    Pure and deterministic: the same input gives byte-identical output. The only game
    data used is ``inp.view`` (what the viewer may see) and the public ``inp.history``.
    Written in ``inp.language``.
    """
    renderer = _renderer(inp.game)
    if renderer is None:
        known = sorted(name for name in games.names() if games.info(name).renderer)
        raise UnknownGame(f"no reports for game {inp.game!r} (known: {', '.join(known)})")
    with speaking(inp.language):
        return renderer(inp)
