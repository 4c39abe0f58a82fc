"""Wallenstein's names as people read them: the game's title (with the Imperial Court), each
turn label (``1618-spring`` -> ``spring 1618``) and how much of a game was played; found
through the game's registry entry (:mod:`reports.gamenames`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.i18n import N_, _, ngettext

#: The name on the box (in the reader's language: the catalogue's).
TITLE = N_("Wallenstein")
#: The name with an option that adds to it: (option, value) -> words.
TITLE_OPTIONS = {("expansion", "court"): N_("{game} with the Imperial Court")}
#: The seasons in a turn's name (``1618-spring`` -> ``spring 1618``).
SEASONS = {"spring": N_("spring {year}"), "summer": N_("summer {year}"), "autumn": N_("autumn {year}"),
           "winter": N_("winter {year}")}
#: Order lines an expansion adds to the grammar's short syntax: option value -> lines. The
#: Imperial Court (``expansion=court``): docs/orders-wallenstein.md, rule 9. (Each line is a
#: message of the catalogue: the reports write it in the reader's language.)
EXPANSION_HELP = {
    "court": "".join(line + "\n" for line in (
        N_("COURT3 <county> | COURT2 TOWER | COURT1 MONEY (a card on each courtier space 3, 2, 1)"),
        N_("FAVOUR <card numbers, best first> [AT <county>] | FAVOUR NONE"),
        N_("BID TOWER | TAX TOWER (a cube-tower card on the bid or an action space)"),
    )),
}


def turn_name(label: str, view: Mapping[str, Any], after: bool) -> str:
    """``spring 1618``; the setup draft and its picks (rules 1.2: one pick a turn)."""
    if label == "setup":
        return _("the setup draft")
    if label.startswith("setup/pick-"):  # rules 1.2: one pick a turn (setup/pick-4, setup/pick-4/refreshed)
        return _("the setup draft, pick {number}").format(number=label.split("/")[1][len("pick-"):])
    year, _sep, season = label.partition("-")
    return _(SEASONS[season]).format(year=year) if season in SEASONS else " ".join(reversed(label.split("-", 1)))


def played(labels: list[str]) -> str:
    """``6 seasons``: the seasons among the adjudicated labels."""
    n = len([label for label in labels if "-" in label])
    return ngettext("{n} season", "{n} seasons", n).format(n=n)
