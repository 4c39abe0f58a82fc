"""Problems every engine may write: a later rules version's order, the turn-based shell's
checks (adjudicator/versions.py, adjudicator/sequential.py)."""

from __future__ import annotations

from reports.enginetext import Template as _T
from reports.enginetext import words
from reports.i18n import N_

#: The orders a later rules version brought (``RELEASES.not_yet``'s ``what``) that are words.
NEW_ORDERS = {"The FAMINE order": N_("The FAMINE order"), "ELSE, LEAVE and IF": N_("ELSE, LEAVE and IF"),
              "NO TILE and WITH TILE": N_("NO TILE and WITH TILE"),
              "DRAFT <county> WITH <group>": N_("DRAFT <county> WITH <group>"),
              "FAVOUR ... AT with several counties": N_("FAVOUR ... AT with several counties"),
              "ON <value>": N_("ON <value>")}


def label(value: str) -> str:
    """A decision's label (``setup/pick-3``) as pbem shows it everywhere: as the engine wrote it."""
    return value


TEMPLATES = (
    _T(N_("{what} came with {engine} rules version {since}; this game plays version {version} (the GM can "
          "move it to newer rules with pbem upgrade)"), {"what": words(NEW_ORDERS)}),
    # adjudicator/sequential.py
    _T(N_("the game is over")),
    _T(N_("no decision of {seat} is pending (waiting for {seats})")),
    _T(N_("orders must be objects")),
    _T(N_("unknown seat {seat}")),
)
