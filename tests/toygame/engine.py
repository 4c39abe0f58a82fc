"""The toy game's engine: the dice duel under the toy game's name and chance labels."""

from __future__ import annotations

from tests.toy import DiceDuel
from tests.toygame.game import NAME


class DiceRace(DiceDuel):
    name = NAME

    def label(self, round_number: int) -> str:
        return f"dicerace/{round_number}/dice"


ENGINE = DiceRace()
