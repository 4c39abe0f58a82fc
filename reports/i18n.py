"""Players' languages: gettext catalogues read through Babel, plural forms by the catalogue,
numbers and dates in the reader's locale.

The English texts in the code are the message ids; ``reports/locale/pbem.pot`` is their
template (``pybabel extract -F babel.cfg``, see docs/architecture.md "Languages") and
``reports/locale/<lang>/LC_MESSAGES/pbem.po`` the translations. A ``.po`` file is compiled
when it is first needed (in memory, once per process), so a fresh clone needs no build step.

What renders text for a reader does it inside :func:`speaking`; the code marks its texts
with :func:`_` (``_("Winter")``), :func:`ngettext` for anything counted (the catalogue's
plural rule chooses the form: ``ngettext("{n} army", "{n} armies", n).format(n=n)``) and
:func:`N_` for texts kept in tables and translated where they are used. Placeholders are
named (``{county}``), so a translation may put them in its own order.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from functools import lru_cache
from pathlib import Path

#: Every language pbem writes, by its code (ISO 639-1), with its own name for itself.
LANGUAGES = {"en": "English", "hu": "magyar", "de": "Deutsch"}
#: The language of a seat or game that names none (and of the code's message ids).
DEFAULT = "en"
DOMAIN = "pbem"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


class UnknownLanguage(ValueError):
    """A language code pbem does not write."""


def supported_text() -> str:
    """``en (English), hu (magyar), de (Deutsch)``: the list an unknown code is answered with."""
    return ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())


def check_language(code: str) -> str:
    """``code`` as pbem keeps it (lower case, ``hu_HU``/``hu-HU`` read as ``hu``), or
    :class:`UnknownLanguage` naming the supported ones."""
    norm = str(code).strip().replace("_", "-").split("-", 1)[0].lower()
    if norm not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {str(code).strip()!r}; pbem writes {supported_text()}")
    return norm


def po_path(lang: str) -> Path:
    """Where the catalogue of ``lang`` lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English: the message ids themselves)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as fh:
        cat = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)  # a fuzzy (unchecked) entry is not used: its English shows
    buf.seek(0)
    return gettext.GNUTranslations(buf)


class Translator:
    """The texts, plural forms, numbers and dates of one language."""

    def __init__(self, lang: str) -> None:
        self.language = lang
        self._cat = catalogue(lang)

    def gettext(self, message: str) -> str:
        """``message`` in this language (the English when the catalogue lacks it)."""
        return self._cat.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` that goes with ``n`` (the catalogue's plural rule)."""
        return self._cat.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in this language as meant in ``context`` (one English word, two meanings)."""
        return self._cat.pgettext(context, message)

    def number(self, value: object) -> str:
        """A whole or decimal number as the locale writes it (``1 234`` in Hungarian); anything
        else as it is."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return str(value)
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self.language)

    def datetime(self, when: datetime, pattern: str) -> str:
        """``when`` (aware) in its own zone, laid out by a CLDR ``pattern`` with this locale's
        day and month names."""
        from babel.dates import format_datetime

        return format_datetime(when, pattern, tzinfo=when.tzinfo, locale=self.language)


@lru_cache(maxsize=None)
def translator(lang: str | None) -> Translator:
    """The translator of ``lang`` (a supported code; None or empty: English)."""
    return Translator(check_language(lang) if lang else DEFAULT)


_CURRENT: ContextVar[Translator | None] = ContextVar("pbem_language", default=None)


def current() -> Translator:
    """The translator of the text being written now (English outside :func:`speaking`)."""
    return _CURRENT.get() or translator(DEFAULT)


@contextmanager
def speaking(lang: str | None) -> Iterator[Translator]:
    """Write in ``lang`` inside the block (``_`` and ``ngettext`` answer in it)."""
    token = _CURRENT.set(translator(lang))
    try:
        yield current()
    finally:
        _CURRENT.reset(token)


def _(message: str) -> str:
    """``message`` in the current language."""
    return current().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The current language's form of a counted text (choose it by ``n``, then ``.format``)."""
    return current().ngettext(singular, plural, n if isinstance(n, int) else 2)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language as meant in ``context``."""
    return current().pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it (tables translated where used)."""
    return message


def lang() -> str:
    """The code of the current language."""
    return current().language


def speaking_now() -> str | None:
    """The code of the language set by the innermost :func:`speaking` (None outside any): what
    a mail built inside it says in its ``Content-Language`` header."""
    found = _CURRENT.get()
    return found.language if found is not None else None
