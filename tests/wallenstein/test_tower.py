"""The tower model: conservation of cubes, determinism, and its fall-through rates."""

from __future__ import annotations

from adjudicator.chance import Chance
from adjudicator.wallenstein import tower

COLOURS = ["red", "blue", "peasants"]


def test_every_cube_is_out_or_inside() -> None:
    for r in range(200):
        inside = {"red": r % 5, "blue": 3, "peasants": r % 3}
        thrown = {"red": 4, "peasants": 1}
        out, after = tower.throw(inside, thrown, COLOURS, Chance("t").stream(str(r)))
        for c in COLOURS:
            assert out[c] + after[c] == inside.get(c, 0) + thrown.get(c, 0)
            assert out[c] >= 0 and after[c] >= 0


def test_same_stream_same_throw() -> None:
    a = tower.throw({"red": 3}, {"blue": 5}, COLOURS, Chance("t").stream("x"))
    b = tower.throw({"red": 3}, {"blue": 5}, COLOURS, Chance("t").stream("x"))
    assert a == b


def test_rates_match_the_parameters() -> None:
    """Thrown cubes fall through ~2/3 of the time; stuck cubes are knocked out ~1/3 (data/tower.json)."""
    (tn, td), (kn, kd) = tower.params()
    stream = Chance("rates").stream("t")
    out, after = tower.throw({}, {"red": 6000}, COLOURS, stream)
    assert abs(out["red"] / 6000 - tn / td) < 0.03
    out, after = tower.throw({"blue": 6000}, {}, COLOURS, stream)
    assert abs(out["blue"] / 6000 - kn / kd) < 0.03
