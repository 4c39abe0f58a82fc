"""Turning an adjudicated turn into report mails (wired to ``reports/``)."""

from __future__ import annotations

from typing import Any

from pbem.events import Game


def turn_messages(game: Game, payload: dict[str, Any], sender: str) -> list[Any]:
    """Report messages for every seat, the public and the GM after ``payload``'s turn.

    Reports are not yet rendered by this version: no report mail is queued (see issue 5).
    """
    return []
