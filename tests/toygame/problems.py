"""The toy game's problems in the reader's language (its registry entry's ``problems``): the
engine's checks as templates (:mod:`reports.enginetext`). Its grammar writes none of its own."""

from __future__ import annotations

from reports.enginetext import Template

#: The messages of the toy engine's checks (tests/toy.py ``validate``).
ENGINE = (
    Template("bid must be 0-{most}"),
    Template("only one BID"),
)
