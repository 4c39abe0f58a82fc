"""Battle resolution as a pure function of the cubes that fell out (rule 5.5).

The tower's sampling lives in :mod:`tower`; this module only decides who won, who loses
how many, and who survives, from the counts that fell out. Applying the result to a
state is :mod:`combat`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Outcome:
    """The result of one battle.

    ``result`` is ``attacker``, ``defender`` or ``tie``. ``attacker_out``/``defender_out``
    are the side strengths (peasants included on the side they fight for). Losses count
    each side's own armies (peasant losses separately); ``survivors`` are the winner's own
    armies placed on the county (0 for a tie or when the peasants win).
    """

    result: str
    attacker_out: int
    defender_out: int
    peasant_only_tie: bool
    attacker_losses: int
    defender_losses: int
    peasant_losses: int
    survivors: int

    def as_dict(self) -> dict[str, object]:
        """JSON-ready fields."""
        return asdict(self)


def resolve(attacker_own: int, defender_own: int, peasants: int, peasants_side: str) -> Outcome:
    """Resolve a battle from the cubes out of the tower.

    ``peasants_side`` is ``attacker`` (a revolt: the peasants attack), ``defender``
    (rule 5.5.1: no revolt marker on the attacked county, peasants help the defender) or
    ``none`` (the peasants belong to neither side and do not count, rule 5.5).
    """
    p_att = peasants if peasants_side == "attacker" else 0
    p_def = peasants if peasants_side == "defender" else 0
    a, d = attacker_own + p_att, defender_own + p_def
    if a > d:
        # rule 5.5.1: the winner loses as many as the loser; peasants on its side go first
        lost_p = min(p_att, d)
        return Outcome("attacker", a, d, False, d - lost_p, defender_own, lost_p + p_def, attacker_own - (d - lost_p))
    if d > a and defender_own > 0:
        lost_p = min(p_def, a)
        return Outcome("defender", a, d, False, attacker_own, a - lost_p, lost_p + p_att, defender_own - (a - lost_p))
    # equal, or (rule 5.5.1 note) the defender "won" with only peasant armies out: a tie
    return Outcome("tie", a, d, d > a, attacker_own, defender_own, p_att + p_def, 0)
