"""The check of the engine contract's ownership rule (:mod:`adjudicator.base`): a state an
engine returns shares no dict, list or set with the orders it was given, with what the engines
keep across calls (parsed data files, cached values, module constants) or with anything else
the caller holds, so that a replay may hand it to ``advance_owned`` to be changed in place.

It compares the ``id()`` of every mutable part of the state with those of the other objects
(all alive while compared, so no id is reused), and so finds a shared part before anything
changes it, in every game the tests play, not only where a later change would show.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

MUTABLE = (dict, list, set, bytearray)


def mutable_parts(root: Any, path: str = "$") -> dict[int, Any]:
    """id -> where, for every dict, list, set or bytearray in ``root`` (through tuples too);
    where is (id of the container holding it, key), or ``path`` for ``root`` (:func:`where`)."""
    found: dict[int, Any] = {}
    stack: list[tuple[Any, Any]] = [(root, path)]
    pop, push = stack.pop, stack.append
    while stack:
        value, at = pop()
        kind = type(value)
        if kind is dict or kind is list or kind is tuple or isinstance(value, MUTABLE):
            if kind is not tuple:
                if id(value) in found:
                    continue
                found[id(value)] = at
            here = id(value) if kind is not tuple else at  # a tuple's parts are named by its holder
            if kind is dict:
                for k, v in value.items():
                    if type(v) in _WALKED:
                        push((v, (here, k)))
            elif isinstance(value, (list, tuple, set)):
                for i, v in enumerate(value):
                    if type(v) in _WALKED:
                        push((v, (here, i)))
    return found


#: the types :func:`mutable_parts` looks into below the root (a state and the data files are
#: plain JSON: exactly these types)
_WALKED = {dict, list, tuple, set, bytearray}


def where(parts: dict[int, Any], i: int) -> str:
    """The path of part ``i`` in the ``parts`` of :func:`mutable_parts`."""
    steps = []
    at = parts[i]
    while isinstance(at, tuple):
        steps.append(f"[{at[1]!r}]")
        at = parts.get(at[0], "?") if isinstance(at[0], int) else at[0]
    return at + "".join(reversed(steps))


def kept_parts() -> dict[int, str]:
    """id -> name of the mutable parts of what the engines keep from call to call: the data
    files parsed and the cached values so far (:func:`adjudicator.versions.kept_values`) and
    the containers the modules of ``adjudicator`` hold as globals (tables, order templates...).
    Walked again when a module was imported or a value kept since the last walk."""
    from adjudicator import versions

    mark = (len(sys.modules), len(versions._PARSED), sum(map(len, versions._MEMOS)))
    if _KEPT and _KEPT[0] == mark:
        return _KEPT[1]
    values = versions.kept_values()  # held in _KEPT with the ids: no id of a part is reused meanwhile
    found: dict[int, str] = {}
    for i, value in enumerate(values):
        found.update(dict.fromkeys(mutable_parts(value), f"a value the engines keep ({type(value).__name__} {i})"))
    for name, module in list(sys.modules.items()):
        if not name.startswith("adjudicator") or module is None:
            continue
        for key, value in list(vars(module).items()):
            if type(value) in _WALKED and not key.startswith("__"):
                found.update(dict.fromkeys(mutable_parts(value), f"part of {name}.{key}"))
    _KEPT[:] = [mark, found, values]
    return found


_KEPT: list[Any] = []


class Owned:
    """The check that states share nothing with ``held`` (e.g. the orders they were made from,
    a log's payloads, walked once) or with what the engines keep (:func:`kept_parts`)."""

    def __init__(self, *held: Any) -> None:
        self.values = held  # alive as long as the check: no id of a part is reused meanwhile
        self.held = mutable_parts(held, "held")

    def check(self, state: Any, what: str = "") -> None:
        """Fail when ``state`` shares a mutable part with what this check guards."""
        kept = kept_parts()
        parts = mutable_parts(state, "state")
        shared = [f"{where(parts, i)} is {kept[i] if i in kept else where(self.held, i)}"
                  for i in parts if i in kept or i in self.held]
        assert not shared, f"{what or 'a state'} shares objects it does not own: " + "; ".join(shared[:5])
