"""The entry point: render any game's report from one viewer's view."""

from __future__ import annotations

from collections.abc import Callable

from reports.i18n import speaking
from reports.model import ReportInput, Rendered


def _renderers() -> dict[str, Callable[[ReportInput], Rendered]]:
    from reports.gods_playground.render import render as gods_playground
    from reports.havoc.render import render as havoc
    from reports.wallenstein.render import render as wallenstein

    return {"wallenstein": wallenstein, "havoc": havoc, "gods-playground": gods_playground}


class UnknownGame(ValueError):
    """No report renderer for this game."""


def render_report(inp: ReportInput) -> Rendered:
    """Text, HTML and pictures of the report for ``inp.viewer``.

    Pure and deterministic: the same input gives byte-identical output. The only game
    data used is ``inp.view`` (what the viewer may see) and the public ``inp.history``.
    Written in ``inp.language``.
    """
    renderers = _renderers()
    if inp.game not in renderers:
        raise UnknownGame(f"no reports for game {inp.game!r} (known: {', '.join(sorted(renderers))})")
    with speaking(inp.language):
        return renderers[inp.game](inp)
