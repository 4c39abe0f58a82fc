"""Havoc: The Hundred Years War (+ John of Gaunt): the pure rules engine.

Modules: ``cards`` (names, deck), ``hands`` (the 17 ranks), ``tables`` (data files),
``setup`` (create), ``turn`` (recruiting, the Peace card), ``battle`` (battles, Dogs, John of
Gaunt), ``final`` (Formigny/Castillon, the winner), ``flow`` (pending and settling),
``bots`` (default and random orders), ``standing`` (standing orders), ``view``, ``engine``.
"""

from adjudicator.havoc.engine import ENGINE, HavocEngine

__all__ = ["ENGINE", "HavocEngine"]
