"""validate never crashes on arbitrary court order dicts (expansion=court); it answers with problems."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.wallenstein import ENGINE

COURT, _ = ENGINE.create(["a", "b", "c", "d"], {"expansion": "court"}, "fuzz")
SHOWN = [d["number"] for d in COURT["court"]["display"]]

values = st.recursive(st.none() | st.booleans() | st.integers(-3, 22) | st.sampled_from(
    ["ALL", "Böhmen", "Anhalt", "tax", "tower", "money", "county", "taler", "none", "x", *SHOWN]),
    lambda inner: st.lists(inner, max_size=4), max_leaves=6)
order = st.builds(lambda kind, rest: {**rest, "kind": kind}, st.sampled_from(["court", "favour", "bid", "action"]),
                  st.dictionaries(st.sampled_from(["slot", "card", "county", "prefs", "action", "value"]), values, max_size=5))
orders = st.lists(order, max_size=8)


@settings(max_examples=400, deadline=None)
@given(orders)
def test_court_validate_never_crashes(o: list) -> None:
    problems = ENGINE.validate(COURT, "a", o)
    assert all(p.index is None or 0 <= p.index < len(o) for p in problems)
