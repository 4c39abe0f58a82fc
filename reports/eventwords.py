"""Any game's event in plain words: the generic line a readable record or report shows for an
event its game has no words of its own for (a game's own ``describe_event`` does better)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.i18n import _

Event = Mapping[str, Any]
#: The fields of an event that are no news (its kind, its chance label, when it happened).
QUIET = {"type", "label", "year", "season"}


def plain(value: Any) -> str:
    """A JSON value as short prose: lists joined by commas, dicts as ``k v`` pairs."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items()) or _("none")
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) if value else _("none")
    if value is None:
        return "-"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def generic(ev: Event) -> str:
    """Any event: its type and every field that is news."""
    fields = "; ".join(f"{k.replace('_', ' ')}: {plain(v)}" for k, v in ev.items() if k not in QUIET)
    return f"{ev.get('type', 'Event')}: {fields}" if fields else str(ev.get("type", "Event"))
