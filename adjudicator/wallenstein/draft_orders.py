"""Checking and reading the orders of the setup draft (rule 3.3, docs/orders-wallenstein.md).

``DRAFT <county> [WITH <group>], ... [, DECK]`` (the wish list, best first; ``WITH`` and
``DECK``, the top card of the deck when no wish is face up, from rules version 1.2), ``GROUPS <sizes>`` (the order of the other groups) and ``REFRESH`` (version 1.2: put a
stale face-up pair under the deck). The picks themselves are :mod:`draft`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.base import Problem
from adjudicator.wallenstein.data import setup_value
from adjudicator.wallenstein.orders import is_missed, name_problem
from adjudicator.wallenstein.releases import RELEASES
from adjudicator.wallenstein.state import seat_count


def _whole(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _check_wishes(state: dict[str, Any], i: int, o: dict[str, Any], seen: set[str],
                  sizes: list[int]) -> list[Problem]:
    problems = []
    names = o.get("counties", [])
    for name in names if isinstance(names, list) else [names]:
        if not isinstance(name, str) or name not in state["counties"]:
            problems.append(name_problem(i, name, state))
        elif name in seen:
            problems.append(Problem(i, f"{name} is on your wish list twice"))
        seen.add(name)
    if o.get("deck") is not None:
        if not RELEASES.rule("draft_asked"):
            problems.append(Problem(i, RELEASES.not_yet("draft_asked", "DRAFT ... DECK")))
        elif o["deck"] is not True:
            problems.append(Problem(i, "DECK ends a DRAFT line: the top card of the deck when no wish is face up"))
    groups = o.get("groups")
    if groups is None:
        return problems
    if not RELEASES.rule("draft_choices"):
        return problems + [Problem(i, RELEASES.not_yet("draft_choices", "DRAFT <county> WITH <group>"))]
    if not isinstance(groups, dict) or not set(groups) <= set(names if isinstance(names, list) else []):
        return problems + [Problem(i, "WITH names the group for a county of the same DRAFT line")]
    for county, size in groups.items():
        if not _whole(size, 1) or size not in sizes:
            problems.append(Problem(i, f"{county} WITH {size}: your army groups are "
                                       f"{' '.join(map(str, sorted(sizes, reverse=True)))}"))
    return problems


def _check_refresh(i: int, o: dict[str, Any], before: int | None) -> list[Problem]:
    if not RELEASES.rule("draft_choices"):
        return [Problem(i, RELEASES.not_yet("draft_choices", "REFRESH"))]
    if before is not None:
        return [Problem(i, f"only one REFRESH line (order {before + 1} is one)")]
    if set(o) != {"kind"}:
        return [Problem(i, "REFRESH takes nothing after it", (), "syntax")]
    return []


def validate_draft(state: dict[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> list[Problem]:
    """Every problem with a draft order set (wish lists, groups, REFRESH; rule 3.3)."""
    if is_missed(orders):
        return []
    problems: list[Problem] = []
    seen: set[str] = set()
    groups_at = refresh_at = None
    printed = sorted(setup_value("army_groups", seat_count(state)))
    for i, o in enumerate(orders):
        kind = o.get("kind")
        if kind == "draft":
            problems += _check_wishes(state, i, o, seen, printed)
        elif kind == "groups":
            if groups_at is not None:
                problems.append(Problem(i, "only one GROUPS order"))
            groups_at = i
            sizes = o.get("sizes", [])
            if not isinstance(sizes, list) or not all(isinstance(x, int) for x in sizes) or sorted(sizes) != printed:
                problems.append(Problem(i, f"GROUPS must list your army groups {' '.join(map(str, sorted(printed, reverse=True)))} in some order"))
        elif kind == "refresh":
            problems += _check_refresh(i, o, refresh_at)
            refresh_at = i if refresh_at is None else refresh_at
        else:
            words = "DRAFT, GROUPS and REFRESH" if RELEASES.rule("draft_choices") else "DRAFT and GROUPS"
            problems.append(Problem(i, f"{kind!r} is not an order for the setup draft ({words})", (), "syntax"))
    return problems


def read_draft(state: dict[str, Any], orders: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A validated draft order set as ``{wishes, with: {county: group}, groups (placing order),
    groups_given, refresh (a REFRESH line was sent), deck (a DRAFT line ends with DECK), missed}``.

    The missed-orders policy: no wishes (every pick blind), the printed group order, no refresh."""
    plan: dict[str, Any] = {"wishes": [], "with": {}, "groups": list(setup_value("army_groups", seat_count(state))),
                            "groups_given": False, "refresh": False, "deck": False, "missed": is_missed(orders)}
    if plan["missed"]:
        return plan
    for o in orders:
        if o["kind"] == "draft":
            plan["wishes"] += o["counties"]
            plan["with"].update(o.get("groups") or {})
            plan["deck"] = plan["deck"] or bool(o.get("deck"))
        elif o["kind"] == "groups":
            plan["groups"], plan["groups_given"] = list(o["sizes"]), True
        elif o["kind"] == "refresh":
            plan["refresh"] = True
    return plan
