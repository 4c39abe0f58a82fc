"""validate never crashes on arbitrary order dicts; it answers with problems."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.wallenstein import ENGINE

STATE, _ = ENGINE.create(["a", "b", "c", "d"], {}, "fuzz")
DRAFT, _ = ENGINE.create(["a", "b", "c"], {"setup": "draft"}, "fuzz")

values = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
    ["ALL", "Böhmen", "Anhalt", "tax", "attacka", "taler", "county", "none", "Tirol", "x"]),
    lambda inner: st.lists(inner, max_size=4), max_leaves=6)
orders = st.lists(st.dictionaries(st.sampled_from(["kind", "action", "county", "to", "armies", "card", "value",
                                                     "order", "counties", "sizes"]), values, max_size=6)
                  .map(lambda d: {"kind": d.get("kind", "action"), **d}), max_size=8)


@settings(max_examples=300, deadline=None)
@given(orders)
def test_validate_never_crashes(o: list) -> None:
    for state in (STATE, DRAFT):
        problems = ENGINE.validate(state, "a", o)
        assert all(p.index is None or 0 <= p.index < len(o) for p in problems)
