"""The built-in game engines, one line per game (read by :mod:`adjudicator.registry`).

This module imports the engine packages and nothing imports it back from them, so the
dependency runs one way: ``registry -> games -> engines -> base``.
"""

from adjudicator.gods_playground import ENGINE as GODS_PLAYGROUND
from adjudicator.havoc import ENGINE as HAVOC
from adjudicator.wallenstein import ENGINE as WALLENSTEIN

BUILTIN = (WALLENSTEIN, HAVOC, GODS_PLAYGROUND)
