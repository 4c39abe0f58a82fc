"""God's Playground's names as people read them: the game's title, each turn label
(``r1/counter/33/blue`` -> ``round 1, counterattacks``) and how much of a game was played;
found through the game's registry entry (:mod:`reports.gamenames`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.i18n import N_, _, ngettext

#: The name on the box (in the reader's language: the catalogue's).
TITLE = N_("God's Playground")
TITLE_OPTIONS: dict[tuple[str, str], str] = {}
#: What a seat's hand holds, in its report mail.
HAND = N_("Nobles in your hand")
#: The line of the grammar's reminder (turns/gods_playground.py) that is no order.
HELP_FRAME = N_("God's Playground orders (one line per decision; OR separates fallbacks):")


def _phase(phase: str) -> str:
    """A phase as the reports name it (:mod:`reports.gods_playground.names`)."""
    from reports.gods_playground.names import PHASE_NAMES, phase_name

    return phase_name(phase) if phase in PHASE_NAMES else phase.replace("_", " ")


def turn_name(label: str, view: Mapping[str, Any], after: bool) -> str:
    """``round 1, starting estates``; ``after``: ``the end of round 1``."""
    if label == "setup":
        return _("the start")
    parts = label.split("/")
    if parts[0][:1] != "r" or not parts[0][1:].isdigit() or len(parts) < 2:
        return label
    number, phase = parts[0][1:], parts[1]
    if after and phase in ("counter", "end", "invasions"):
        return _("the end of round {number}").format(number=number)
    return _("round {number}, {phase}").format(number=number, phase=_phase(phase))


def turn_short(label: str, view: Mapping[str, Any]) -> str | None:
    """A chart's axis: ``round 2`` (None: the turn's whole name)."""
    head = label.split("/")[0]
    if head[:1] == "r" and head[1:].isdigit():
        return _("round {number}").format(number=head[1:])
    return None


def played(labels: list[str]) -> str:
    """``4 rounds``."""
    n = len({label.split("/", 1)[0] for label in labels if label[:1] == "r"})
    return ngettext("{n} round", "{n} rounds", n).format(n=n)
