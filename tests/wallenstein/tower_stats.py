"""Fall-through statistics of the cube-tower model (paste the output into docs/wallenstein-tower.md).

Run: ``.venv/bin/python -m tests.wallenstein.tower_stats``
"""

from __future__ import annotations

from adjudicator.chance import Chance
from adjudicator.wallenstein import tower

COLOURS = ["a", "b", "c", "d", "e", "peasants"]


def setup_fill(seats: int, runs: int) -> tuple[float, float]:
    """Mean cubes left inside after the setup fill, and the share of thrown cubes that fell out."""
    inside = out_total = 0
    for r in range(runs):
        thrown = {c: 7 for c in COLOURS[:seats]}
        thrown["peasants"] = 10
        out, after = tower.throw({}, thrown, COLOURS, Chance("stats").stream(f"fill/{seats}/{r}"))
        inside += sum(after.values())
        out_total += sum(out.values())
    n = 7 * seats + 10
    return inside / runs, out_total / (runs * n)


def battles(size: int, count: int, runs: int) -> tuple[float, float]:
    """After a 4-seat setup fill, ``count`` battles each throwing ``size`` fresh cubes (the tray
    is not recycled): mean cubes out per battle, and mean cubes inside at the end."""
    out_per = inside_end = 0.0
    for r in range(runs):
        stream = Chance("stats").stream(f"battle/{size}/{r}")
        fill = {c: 7 for c in COLOURS[:4]} | {"peasants": 10}
        _, inside = tower.throw({}, fill, COLOURS, stream)
        for _ in range(count):
            out, inside = tower.throw(inside, {"a": size}, COLOURS, stream)
            out_per += sum(out.values())
        inside_end += sum(inside.values())
    return out_per / (runs * count), inside_end / runs


def main() -> None:
    through, knock = tower.params()
    print(f"model: thrown cube falls through p={through[0]}/{through[1]}, stuck cube knocked out p={knock[0]}/{knock[1]} per throw\n")
    print("| setup fill | cubes thrown | mean left inside | share out |")
    print("|---|---|---|---|")
    for seats in (3, 4, 5):
        inside, share = setup_fill(seats, 2000)
        print(f"| {seats} seats | {7 * seats + 10} | {inside:.1f} | {share:.3f} |")
    print("\n| battle (after a 4-seat fill) | cubes thrown | mean cubes out per battle | mean inside after 10 battles |")
    print("|---|---|---|---|")
    for size in (2, 4, 6, 10):
        out_per, inside = battles(size, 10, 500)
        print(f"| {size} fresh cubes, 10 battles | {size} | {out_per:.2f} | {inside:.1f} |")
    print("\n| strength thrown (attacker vs defender, empty tray, tower after a 4-seat fill) | P(attacker wins) | P(tie) | P(defender wins) |")
    print("|---|---|---|---|")
    for a, d in ((2, 1), (3, 3), (4, 3), (5, 2), (6, 6), (8, 4)):
        print(f"| {a} vs {d} | " + " | ".join(f"{p:.3f}" for p in duel(a, d, 2000)) + " |")


def duel(a: int, d: int, runs: int) -> tuple[float, float, float]:
    """Win/tie/loss shares of a player battle, counting only the two colours out (no peasants)."""
    wins = ties = 0
    for r in range(runs):
        stream = Chance("stats").stream(f"duel/{a}/{d}/{r}")
        fill = {c: 7 for c in COLOURS[:4]} | {"peasants": 10}
        _, inside = tower.throw({}, fill, COLOURS, stream)
        out, _ = tower.throw(inside, {"a": a, "b": d}, COLOURS, stream)
        wins += out["a"] > out["b"]
        ties += out["a"] == out["b"]
    return wins / runs, ties / runs, 1 - (wins + ties) / runs


if __name__ == "__main__":
    main()
