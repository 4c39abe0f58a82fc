"""The state's text a verifying replay keeps from one decision to the next is always the text
of the whole state, made afresh.

A replay verifies the recorded hash of every state; to spare encoding the parts of a state that
did not change since the last decision, :mod:`pbem.store.digest` keeps each part's canonical text
and reuses it while the part is unchanged. A kept text that differed from a fresh encoding would
turn a genuine record into a false mismatch (or let a record pass with a hash of a state the
replay did not reach), so "unchanged" must be exact: ``1``, ``1.0`` and ``True``, ``0.0`` and
``-0.0``, a list and a tuple, ``{1: x}`` and ``{True: x}`` are equal to ``==`` but not all
the same text. These properties drive states (with a long "board" dict, which the digest keeps
value by value) through random in-place changes of exactly that kind, as an engine's
``advance_owned`` makes them, and compare every text and digest with a fresh encoding.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.base import canonical_json, state_hash
from pbem.store.digest import KEYED_DIGEST, _canonical, state_digest

#: Numbers that are equal to ``==`` in pairs but have other texts, and other leaves.
SWAPS = (0, False, 0.0, -0.0, 1, True, 1.0, 2, 2.0, None, "", "1", "true")

leaves = st.sampled_from(SWAPS) | st.integers(-3, 300) | st.text(max_size=3)
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.lists(inner, max_size=4).map(tuple)
                      | st.dictionaries(st.text(max_size=2), inner, max_size=4), max_leaves=12)


def board(size: int) -> dict[str, Any]:
    """A long dict of small dicts (a board of provinces): long enough to be kept value by value."""
    return {f"p{i:02}": {"units": [i % 3, True], "owner": None if i % 2 else "red", "note": "n" * 40}
            for i in range(size)}


def containers(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths of every list and dict inside ``value`` (itself first), for changes in place."""
    found = [path] if isinstance(value, (dict, list)) else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    for key, part in items:
        found += containers(part, (*path, key))
    return found


def at(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def change(state: dict[str, Any], pick: int, how: int, new: Any) -> None:
    """Change ``state`` in place: in the list or dict ``pick`` chooses, set a part to ``new`` or
    to an equal value of another type, drop a part, reverse its order, or add a part."""
    paths = containers(state)
    target = at(state, paths[pick % len(paths)])
    keys = list(target) if isinstance(target, dict) else list(range(len(target)))
    if not keys or how == 4:
        if isinstance(target, dict):
            target[f"k{pick % 7}"] = new
        else:
            target.append(new)
        return
    key = keys[pick % len(keys)]
    old = target[key]
    if how == 0:
        target[key] = new
    elif how == 1:  # an equal value of another type: 1 -> True -> 1.0, a list <-> a tuple, 0.0 <-> -0.0
        twins = {1: True, True: 1.0, 0: False, False: -0.0}
        if type(old) is float and old == 0.0:
            target[key] = 0.0 if str(old) == "-0.0" else -0.0
        elif type(old) in (int, bool, float) and old in twins:
            target[key] = twins[old] if type(old) is not float else (True if old == 1 else False)
        elif isinstance(old, list):
            target[key] = tuple(old)
        elif isinstance(old, tuple):
            target[key] = list(old)
        else:
            target[key] = new
    elif how == 2 and len(keys) > 1:
        if isinstance(target, dict):
            del target[key]
        else:
            target.pop(key)
    elif how == 3 and isinstance(target, dict):
        items = list(target.items())[::-1]
        target.clear()
        target.update(items)
    else:
        target[key] = new


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.dictionaries(st.text(min_size=1, max_size=3), values, min_size=1, max_size=6),
       size=st.sampled_from([3, 30]),
       steps=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 5), values), max_size=25))
def test_kept_texts_are_the_fresh_text_of_a_state_changed_in_place(start, size, steps):
    """Every state of a run of in-place changes (equal values of other types among them) has,
    through the kept texts, exactly its fresh canonical text and digest."""
    state = {**start, "board": board(size), "step": 0}
    texts: dict = {}
    for number, (pick, how, new) in enumerate([(0, 0, None), *steps]):
        change(state, pick, how, new)
        state["step"] = number  # a sequential game's counter: some part changes at every decision
        fresh = canonical_json(state)
        assert _canonical(state, None, texts) == fresh
        assert state_digest(state, "seed", KEYED_DIGEST, None, texts) == state_digest(state, "seed", KEYED_DIGEST)
        assert state_digest(state, "seed", None, None, texts) == state_hash(state)


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from([1, 1, 1, 4]), st.sampled_from(SWAPS)),
                      min_size=1, max_size=30))
def test_a_number_turned_into_an_equal_one_of_another_type_changes_the_text(steps):
    """The case ``==`` cannot see, made often: a board whose numbers and booleans keep turning
    into equal values of another type (and back) inside its kept parts."""
    state = {"board": board(30), "round": 1, "flags": [True, 0, 1.0]}
    texts: dict = {}
    assert _canonical(state, None, texts) == canonical_json(state)
    for pick, how, new in steps:
        change(state, pick, how, new)
        assert _canonical(state, None, texts) == canonical_json(state)
