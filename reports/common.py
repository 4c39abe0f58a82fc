"""Pieces every game's report shares: who a report is for, and its footer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reports.model import ReportInput

GM = "@gm"
PUBLIC = "@public"


def viewer_label(viewer: str) -> str:
    """``red`` -> ``seat red``; ``@public`` -> ``the public``; ``@gm`` -> ``the game master``."""
    return {PUBLIC: "the public", GM: "the game master"}.get(viewer, f"seat {viewer}")


def footer(inp: ReportInput, first: str, provisional_heading: str,
           describe: Callable[[Any], str] = str, short: str | None = None) -> tuple[str, ...]:
    """The footer of every report: whom and when, the seed commitment and state hash, the
    seed once the game is over, and every provisional figure in use (``view["provisional"]``).

    With ``short`` (a game's pointer to its list, e.g. a docs page) the provisional figures
    are only counted, in one line ending in ``short``; a game passes it for every report
    but the first one and the GM's, which list them in full."""
    if inp.chance_recorded:  # a historical game (issue 20): no seed to reveal
        lines = [first, "Chance: recorded at the table, not drawn from a seed.",
                 f"Commitment (SHA-256 of the recorded chance): {inp.seed_commitment or 'not given'}",
                 f"State hash after {inp.turn}: {inp.state_hash or 'not given'}"]
    else:
        lines = [first,
                 f"Seed commitment (SHA-256 of the seed): {inp.seed_commitment or 'not given'}",
                 f"State hash after {inp.turn}: {inp.state_hash or 'not given'}"]
    if inp.seed is not None and not inp.chance_recorded:
        lines.append(f"Seed (the game is over; check it against the commitment): {inp.seed}")
    provisional = inp.view.get("provisional") or []
    if provisional and short is not None:
        lines.append(f"PROVISIONAL: {len(provisional)} figures in use are provisional (the rulebook leaves "
                     f"them open; they may change); {short}")
    elif provisional:
        lines.append(provisional_heading)
        lines += [f"- provisional: {describe(p)}" for p in provisional]
    else:
        lines.append("Provisional figures in use: none.")
    return tuple(lines)
