"""What the engine chose for a seat, and why (rules version 1.2 on).

A season plan (or the draft) is written before the table would decide; where it does not say
what the player would decide, the engine takes the rulebook's default (or the least
consequential choice) and records a ``ChosenForSeat`` event: the seat, the decision, what was
chosen and a sentence saying why. The event is that seat's (and the GM's) only: views and
``event_view`` give it to nobody else (the plan it rests on is secret until the season is
carried out, and the note is addressed to the seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.base import GM
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.state import Ctx

CHOSEN = "ChosenForSeat"


def chosen(ctx: Ctx, seat: str, decision: str, note: str, **fields: Any) -> None:
    """Record that the engine decided ``decision`` for ``seat`` (``note``: what and why)."""
    if rule("chosen_notes"):
        ctx.emit(CHOSEN, seat=seat, decision=decision, note=note, **fields)


def visible(event: Mapping[str, Any], viewer: str) -> bool:
    """False for another seat's ``ChosenForSeat`` note (the GM sees every note)."""
    return event.get("type") != CHOSEN or viewer in (GM, event.get("seat"))
