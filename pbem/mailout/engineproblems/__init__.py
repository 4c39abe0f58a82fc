"""The problems the engines' checks (adjudicator/) write, as templates for the reader's
language (:mod:`pbem.mailout.problemtext` reads a message against them).

Each game's module lists its messages: the English text of the engine with named placeholders
(a catalogue message id), a placeholder's value written by a function where it is a word of
the engine (a province, a decision) rather than what the player wrote. A template naming a
more particular message comes before one it would also match. tests/i18n/test_problem_templates.py
scans adjudicator/ for every message and fails on one that has no template here.
"""

from __future__ import annotations

from pbem.mailout.engineproblems import gods_playground, havoc, shared, wallenstein

#: Every engine's templates, the most particular first.
TEMPLATES = shared.TEMPLATES + wallenstein.TEMPLATES + havoc.TEMPLATES + gods_playground.TEMPLATES
