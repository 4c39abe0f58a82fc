"""The pending decision in each game's own words, as its report's "what comes next" says
it, for mails that name the decision ("your move"): from the seat's view only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from adjudicator import games
from reports.doc import Para


def _content(game: str) -> ModuleType | None:
    """The reports module of ``game`` that describes a pending decision (its registry entry's
    ``content``; None: the game has none)."""
    found = games.hook(game, "content")
    return found if isinstance(found, ModuleType) else None


@dataclass(frozen=True)
class _Seen:
    """What ``decision_blocks`` reads of a report's input: the view and whose it is."""

    view: Mapping[str, Any]
    viewer: str


def decision_lines(game: str, view: Mapping[str, Any], viewer: str) -> list[str]:
    """The sentences saying who decides what now (empty: the game has no such words, or
    nothing is pending)."""
    module = _content(game)
    pending = view.get("pending") if isinstance(view, Mapping) else None
    if module is None or not pending:
        return []
    blocks = module.decision_blocks(_Seen(view, viewer), pending)
    return [b.text for b in blocks if isinstance(b, Para)]


def move_text(game: str, inp: Any) -> str | None:
    """The sections of the seat's report that a short "your move" mail carries, as text (None:
    the game's mails carry the whole report). ``inp`` is a :class:`reports.model.ReportInput`
    of the seat's own view."""
    module = _content(game)
    if module is None:
        return None
    sections = getattr(module, "move_sections", None)
    if sections is None:
        return None
    from reports.doc import section_text

    return "\n\n".join(section_text(s) for s in sections(inp))
