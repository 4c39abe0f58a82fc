"""The players' pages of docs/ (order syntax, rules reference), as an installed pbem has them:
``pbem/docs`` links to docs/ and the pages are package data, so ``HELP ORDERS`` and
``HELP RULES`` mail the very text of the documentation."""

from __future__ import annotations

from pbem.mailout.mailbase import WIDTH

from importlib import resources
from typing import Any

#: The page of the envelope every game shares, after a game's own order pages (each game's
#: pages are named by its registry entry: ``order_pages``, ``rules_pages``, ``option_pages``).
ENVELOPE = "order-mail.md"


def every_page() -> list[str]:
    """Every page a ``HELP ORDERS`` or ``HELP RULES`` mail may carry, of every known game."""
    from adjudicator import games

    names = [ENVELOPE]
    for entry in games.entries():
        names += [*entry.order_pages, *entry.rules_pages, *(page for _k, _v, page in entry.option_pages)]
    return list(dict.fromkeys(names))


def page(name: str) -> str:
    """The text of ``docs/<name>``."""
    return resources.files("pbem").joinpath("docs", name).read_text(encoding="utf-8")


def pages(engine: str, what: str, options: dict[str, Any] | None = None) -> list[str]:
    """The page names ``HELP ORDERS`` (``what="orders"``) or ``HELP RULES`` mails for a game."""
    from adjudicator import games

    entry = games.info(engine)
    names = list(entry.order_pages if what == "orders" else entry.rules_pages)
    names += [extra for key, value, extra in entry.option_pages if str((options or {}).get(key, "")) == value]
    if what == "orders" and names:
        names.append(ENVELOPE)
    return names


def localised(name: str, language: str) -> str:
    """The page ``name`` in ``language``: ``hu/<page>.md`` when docs/hu has it (made from
    the English page, :mod:`reports.docs_i18n`), else the English page's name."""
    if language and language != "en":
        translated = f"{language}/{name}"
        if resources.files("pbem").joinpath("docs", translated).is_file():
            return translated
    return name


def docs_lines() -> list[str]:
    """How a player gets the whole order syntax and the rules by mail (the welcome mail, HELP),
    in the current language."""
    import textwrap

    from reports.i18n import _

    return textwrap.wrap(_("The whole order syntax comes by mail: send HELP ORDERS (as the subject or the first "
                           "line) from your address to this one; HELP RULES brings the rules reference of the game."),
                         WIDTH, break_long_words=False, break_on_hyphens=False)
