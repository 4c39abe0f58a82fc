"""What a Wallenstein seat needs to plan its orders: its counties' neighbours, and grain
for the coming winter.

Built from the seat's own view plus the public board data (adjacency, grain values and the
famine table printed on the board): nothing hidden from the seat is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.doc import Items, Para, Section, Sub
from reports.i18n import _
from reports.wallenstein.enginetext import SEASONS
from reports.wallenstein.events import n_of

#: Seasons still to be played before the winter that follows them (rule 4.2: winter after autumn).
SEASONS_BEFORE_WINTER = {"summer": ("summer", "autumn"), "autumn": ("autumn",)}


def own_counties(view: Mapping[str, Any], seat: str) -> list[str]:
    """The counties ``seat`` owns, sorted by name."""
    return sorted(n for n, c in (view.get("counties") or {}).items() if c.get("owner") == seat)


def neighbours_section(view: Mapping[str, Any], seat: str) -> Section | None:
    """Each own county's in-play neighbours with owner and armies, and what a manoeuvre
    from it can send (rules 3.1, 4.1.3 items 8-9: to an adjacent county, one army stays)."""
    from adjudicator.wallenstein.data import neighbours  # the board's adjacency (static data)

    known = view.get("counties") or {}
    owned = own_counties(view, seat)
    if not owned:
        return None
    lines = []
    for name in owned:
        armies = int(known[name].get("armies") or 0)
        near = [n for n in neighbours(name, len(view.get("seats") or {})) if not known.get(n, {}).get("out_of_play")]
        parts = [_neighbour(n, known.get(n) or {}, seat) for n in near]
        can = (_("a manoeuvre can send 1 to {n} to any of them").format(n=armies - 1) if armies > 2 else
               _("a manoeuvre can send 1 to any of them") if armies == 2 else
               _("too few armies to manoeuvre: one must stay"))
        lines.append(_("{county} ({armies}; {can}): {neighbours}.").format(
            county=name, armies=n_of(armies, "army"), can=can, neighbours="; ".join(parts)))
    intro = Para(_("Neighbours of each of your counties (owner, armies). ATTACKA/ATTACKB move armies "
                   "from one of these counties to a neighbour listed here, a battle where it is not yours; "
                   "RECRUIT1 ... MOVE only to a neighbour you own."))
    return Section("neighbours", _("Your counties and their neighbours"), (intro, Items(tuple(lines))))


def _neighbour(name: str, county: Mapping[str, Any], seat: str) -> str:
    owner = county.get("owner")
    who = _("yours") if owner == seat else owner or _("neutral")
    return f"{name} ({who}, {int(county.get('armies') or 0)})"


def famine_warning(view: Mapping[str, Any], seat: str) -> list[Any]:
    """From summer on: grain held against grain needed in winter (rule 4.2.2: one grain per
    county card; the shortfall row of the famine table makes counties revolt), and the
    GRAIN orders still possible before winter. Empty when the next season is not before a winter."""
    from adjudicator.wallenstein.data import counties, famine_row  # board data: yields, famine table

    season = (view.get("turn") or {}).get("season")
    me = (view.get("seats") or {}).get(seat)
    if season not in SEASONS_BEFORE_WINTER or me is None or view.get("over"):
        return []
    owned = own_counties(view, seat)
    grain, need = int(me.get("grain") or 0), len(owned)
    left = SEASONS_BEFORE_WINTER[season]
    head = _("You hold {counties}, so winter needs {need} grain; you have {grain} in store.").format(
        counties=n_of(need, "county"), need=need, grain=grain) + " "
    if grain >= need:
        return [Sub(_("Grain for winter")), Para(head + _("That is enough, as long as you hold no more counties."))]
    short = need - grain
    row = famine_row(short) or {}
    best = sorted(((int(counties()[n]["grain"]), n) for n in owned), reverse=True)[:len(left)]
    harvest = sum(g for g, _n in best)
    orders = ", ".join(f"GRAIN {n} ({g})" for g, n in best) or _("none (you hold no county)")
    still = short - harvest
    after = (_("that would close the gap") if still <= 0 else
             _("still {n} short even so: bid for the grain bonus tile, or hold fewer counties").format(n=still))
    text = head + _("Short by {short}: the famine table's row for a shortfall of {short} makes {revolting} of your "
                    "counties revolt, with {extra} extra peasants each. One GRAIN order per season is left before "
                    "winter ({seasons}); your best harvests: {orders}, {harvest} grain in all (+1 each with the grain "
                    "bonus tile): {after}.").format(
        short=short, revolting=row.get("revolting_counties", 0), extra=row.get("extra_peasants", 0),
        seasons=", ".join(_(SEASONS[s]) for s in left), orders=orders, harvest=harvest, after=after)
    return [Sub(_("Grain for winter: famine ahead")), Para(text)]
