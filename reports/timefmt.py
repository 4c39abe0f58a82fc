"""Deadlines as absolute times with their zone (never 'in 3 days': reports are pure)."""

from __future__ import annotations

from datetime import datetime, timezone


def deadline_text(iso: str | None) -> str:
    """``2026-12-06T18:00:00+01:00`` -> ``Sun 6 Dec 2026, 18:00 UTC+01:00 (17:00 UTC)``."""
    if not iso:
        return "no deadline set"
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if when.tzinfo is None:
        return f"{_fmt(when)} (zone not given)"
    offset = when.strftime("%z")
    zone = "UTC" if offset == "+0000" else f"UTC{offset[:3]}:{offset[3:]}"
    text = f"{_fmt(when)} {zone}"
    if zone != "UTC":
        text += f" ({when.astimezone(timezone.utc):%H:%M} UTC)"
    return text


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _fmt(when: datetime) -> str:
    # English names from tables, not strftime's %a/%b, which follow the process locale
    return f"{_DAYS[when.weekday()]} {when.day} {_MONTHS[when.month - 1]} {when.year}, {when:%H:%M}"
