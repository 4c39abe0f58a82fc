"""The pending decision in each game's own words, as its report's "what comes next" says
it, for mails that name the decision ("your move"): from the seat's view only."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator import games
from reports.doc import Para


def _content(game: str) -> str | None:
    """The reports module of ``game`` that describes a pending decision (its registry entry's
    ``content``; None: the game has none)."""
    return games.info(game).content or None



@dataclass(frozen=True)
class _Seen:
    """What ``decision_blocks`` reads of a report's input: the view and whose it is."""

    view: Mapping[str, Any]
    viewer: str


def decision_lines(game: str, view: Mapping[str, Any], viewer: str) -> list[str]:
    """The sentences saying who decides what now (empty: the game has no such words, or
    nothing is pending)."""
    name = _content(game)
    pending = view.get("pending") if isinstance(view, Mapping) else None
    if name is None or not pending:
        return []
    blocks = importlib.import_module(name).decision_blocks(_Seen(view, viewer), pending)
    return [b.text for b in blocks if isinstance(b, Para)]


def move_text(game: str, inp: Any) -> str | None:
    """The sections of the seat's report that a short "your move" mail carries, as text (None:
    the game's mails carry the whole report). ``inp`` is a :class:`reports.model.ReportInput`
    of the seat's own view."""
    name = _content(game)
    if name is None:
        return None
    module = importlib.import_module(name)
    sections = getattr(module, "move_sections", None)
    if sections is None:
        return None
    from reports.doc import section_text

    return "\n\n".join(section_text(s) for s in sections(inp))
