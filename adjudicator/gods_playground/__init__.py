"""God's Playground (Martin Wallace, Treefrog Games 2009): the pure rules engine, 3 seats.

Modules: ``board`` (the board data file and ``board_json``), ``state`` (counting),
``setup`` (create), ``flow`` (the 16 phases as a state machine, pending, validate),
``phases`` (phases 1-11 that need no decision), ``aftermath`` (phases 13-16, the end),
``decisions`` (estates, special actions, recruitment), ``war`` (campaigns, counterattacks),
``combat`` (dice), ``plans`` (pre-sent orders), ``bots``, ``view``, ``engine``.
Rules as implemented: docs/gods-playground-rules.md.
"""

from adjudicator.gods_playground.engine import ENGINE, GodsPlaygroundEngine

__all__ = ["ENGINE", "GodsPlaygroundEngine"]
