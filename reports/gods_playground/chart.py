"""The chart of a God's Playground report: VP and thalers by family, one point per round
(the figures after the last decision of each round), from the public history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reports import charts
from reports.gods_playground.names import family_colors
from reports.i18n import _

#: The white family's line would vanish on a white chart: it is drawn in grey.
WHITE_LINE = "#8c8c8c"


def round_key(turn: str) -> str:
    """``r2/buy/44/white`` -> ``round 2``; setup turns belong to round 1."""
    head = str(turn).split("/", 1)[0]
    return _("round {n}").format(n=head[1:]) if head.startswith("r") and head[1:].isdigit() else str(head)


def by_round(history: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One entry per round seen: the scores and money after its last turn, starting at 0 VP."""
    out: dict[str, dict[str, Any]] = {}
    for h in history:
        out[round_key(str(h.get("turn", "")))] = {"turn": round_key(str(h.get("turn", ""))),
                                                  "scores": dict(h.get("scores") or {}),
                                                  "money": dict(h.get("money") or {})}
    if not out:
        return []
    seats = list(next(iter(out.values()))["scores"])
    return [{"turn": _("start"), "scores": {s: 0 for s in seats}, "money": {s: 10 for s in seats}}, *out.values()]


def vp_money_chart(history: Sequence[Mapping[str, Any]], seats: Sequence[str] | Mapping[str, Any],
                   names: Mapping[str, str] | None = None) -> bytes:
    """PNG bytes (deterministic): VP and thalers per family after each round."""
    palette = {s: (WHITE_LINE if c.lower() == "#ffffff" else c) for s, c in family_colors(seats, names).items()}
    return charts.line_charts(by_round(history), (("scores", _("VP after each round")),
                                                  ("money", _("Thalers after each round"))), palette, xlabel=_("round"))
