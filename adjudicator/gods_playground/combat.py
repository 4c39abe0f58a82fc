"""Dice combat (seed 004, Phase 10): infantry hits on 5+, cavalry (and Cossacks) on 4+, a
cannon adds +1 to every roll, a natural 1 destroys the unit even with the cannon. The
cannon itself does not roll. Also the clash of enemy cubes of different colours."""

from __future__ import annotations

from typing import Any

from adjudicator.chance import Stream
from adjudicator.gods_playground.board import ENEMIES

HIT_ON = {"inf": 5, "cav": 4, "cossack": 4}


def roll(rng: Stream, units: dict[str, int], cannon: bool) -> dict[str, Any]:
    """Roll one die per infantry, cavalry and Cossack in ``units``; hits and units lost."""
    rolls: list[list[Any]] = []
    hits = 0
    lost = {"inf": 0, "cav": 0, "cossack": 0}
    for kind in ("inf", "cav", "cossack"):
        for _ in range(units.get(kind, 0)):
            die = rng.die()
            rolls.append([kind, die])
            if die == 1:
                lost[kind] += 1  # Phase 10: a 1 destroys the unit, cannon or not
            elif die + (1 if cannon else 0) >= HIT_ON[kind]:
                hits += 1
    return {"rolls": rolls, "hits": hits, "lost": lost}


def remove_enemy(prov: dict[str, Any], hits: int, first: str | None = None, only: bool = False) -> int:
    """Remove up to ``hits`` enemy cubes from a province, ``first``'s colour first, then in
    enemy order (``only``: of ``first``'s colour alone); returns how many were removed."""
    removed = 0
    order = ([first] if first else []) + ([] if only else [e for e in ENEMIES if e != first])
    for e in order:
        take = min(hits - removed, prov["enemy"][e])
        prov["enemy"][e] -= take
        removed += take
    return removed


def clash(prov: dict[str, Any], newcomer: str) -> int:
    """Enemy cubes of another colour and the newcomers cancel one for one (Phase 11, "When
    all enemies have attacked"); returns the pairs removed."""
    pairs = 0
    for e in ENEMIES:
        if e == newcomer:
            continue
        n = min(prov["enemy"][e], prov["enemy"][newcomer])
        prov["enemy"][e] -= n
        prov["enemy"][newcomer] -= n
        pairs += n
    return pairs
