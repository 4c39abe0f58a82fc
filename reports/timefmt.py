"""Deadlines as absolute times with their zone (never 'in 3 days': reports are pure), written
with the reader's day and month names (:mod:`reports.i18n`)."""

from __future__ import annotations

from datetime import datetime, timezone

from reports.i18n import _, current


def deadline_text(iso: str | None) -> str:
    """``2026-12-06T18:00:00+01:00`` -> ``Sun 6 Dec 2026, 18:00 UTC+01:00 (17:00 UTC)``
    (Hungarian: ``2026. dec. 6., vasárnap 18:00 UTC+01:00 (17:00 UTC)``)."""
    if not iso:
        return _("no deadline set")
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if when.tzinfo is None:
        return _("{when} (zone not given)").format(when=_fmt(when.replace(tzinfo=timezone.utc)))
    offset = when.strftime("%z")
    zone = "UTC" if offset == "+0000" else f"UTC{offset[:3]}:{offset[3:]}"
    text = f"{_fmt(when)} {zone}"
    if zone != "UTC":
        text += f" ({when.astimezone(timezone.utc):%H:%M} UTC)"
    return text


def _fmt(when: datetime) -> str:
    # TRANSLATORS: a CLDR date pattern (EEE day name, d day, MMM month name, y year, HH:mm time);
    # Babel writes the names in your language: keep the letters, order them as your dates are written
    return current().datetime(when, _("EEE d MMM y, HH:mm"))
