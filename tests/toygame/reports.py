"""The toy game's reports: its names (title, turns) and a tiny text and HTML renderer that
shows only the viewer's view."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from reports.model import ReportInput, Rendered

TITLE = "Dice Race"
TITLE_OPTIONS = {("rounds", "5"): "{game}, the long race"}


def turn_name(label: str, view: Mapping[str, Any], after: bool) -> str:
    """``round-2`` -> ``race round 2`` (``after``: ``after race round 2``)."""
    if label.startswith("round-"):
        name = f"race round {label[len('round-'):]}"
        return f"after {name}" if after else name
    return label


def played(labels: list[str]) -> str:
    return f"{len(labels)} race rounds"


def render(inp: ReportInput) -> Rendered:
    """The points of every seat and, for a seat, its own tokens."""
    view = inp.view
    lines = [f"{TITLE} {inp.game_id}: report for {inp.viewer}, {turn_name(inp.turn, view, True)}"]
    for seat, figures in view["seats"].items():
        lines.append(f"{seat}: {figures['points']} points" + (f" ({figures['tokens']})" if "tokens" in figures else ""))
    text = "\n".join(lines) + "\n"
    body = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    return Rendered(text, f"<html><body>{body}</body></html>")
