"""Wallenstein county names: the canonical names and every alias a player may write.

The aliases are data (``turns/data/wallenstein_names.json``: canonical name -> German,
English and Hungarian aliases, with a note of where each language's names come from).
Two spellings are derived here instead of being listed: ``ae``/``oe``/``ue`` for umlauts,
and a leading title word (``Herzogtum``, ``Bm.``, ``Bishopric of``...) that a player may
add or leave out. Matching ignores case, accents and punctuation
(:func:`turns.base.normalise`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from turns.base import NameIndex, normalise

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})
LANGUAGES = ("de", "en", "hu")


@lru_cache(maxsize=1)
def name_data() -> dict[str, Any]:
    """The parsed alias file (read once; it is packaged data, not state). Read beside this
    module, as the engines read their data files: ``importlib.resources`` would cost a mail's
    process more to import than reading the file."""
    with open(os.path.join(os.path.dirname(__file__), "data", "wallenstein_names.json"), "rb") as fh:
        data: dict[str, Any] = json.loads(fh.read().decode("utf-8"))
    return data


def canonical_names() -> tuple[str, ...]:
    """The 45 canonical county names, in the order of the data file."""
    return tuple(name_data()["counties"])


def aliases(canonical: str) -> list[str]:
    """Every listed alias of a county (all languages, without derived spellings)."""
    entry = name_data()["counties"][canonical]
    return [alias for lang in LANGUAGES for alias in entry.get(lang, [])]


def spellings(name: str) -> list[str]:
    """``name`` and its umlaut-free spelling (``Kärnten`` -> ``Kaernten``)."""
    plain = name.translate(_UMLAUTS)
    return [name] if plain == name else [name, plain]


@dataclass(frozen=True)
class Resolved:
    """The outcome of resolving a written name: ``county`` or ``suggestions``."""

    county: str | None
    suggestions: tuple[str, ...] = ()
    ambiguous: bool = False


class CountyNames:
    """Resolves what a player wrote to a canonical county name."""

    def __init__(self, data: dict[str, Any]) -> None:
        """Build the index from the alias data (see :func:`name_data`)."""
        table = {canonical: [s for alias in [canonical, *self._listed(entry)] for s in spellings(alias)]
                 for canonical, entry in data["counties"].items()}
        self._index = NameIndex(table)
        self._by_key: dict[str, set[str]] = {}
        for canonical, names in table.items():
            for name in names:
                self._by_key.setdefault(normalise(name), set()).add(canonical)
        self._keys = set(self._by_key)
        self._titles = sorted((normalise(t) for t in data.get("titles", [])), key=len, reverse=True)

    @staticmethod
    def _listed(entry: dict[str, list[str]]) -> list[str]:
        return [alias for lang in LANGUAGES for alias in entry.get(lang, [])]

    def known(self, written: str) -> bool:
        """True when ``written`` is (after normalising) exactly some listed name."""
        return normalise(written) in self._keys

    def exact(self, written: str) -> str | None:
        """The county ``written`` names exactly (after normalising; a title may be
        added or left out), else ``None``. Cheap: no suggestions are computed."""
        key = normalise(written)
        for candidate in [key, *(key[len(t):] for t in self._titles if key.startswith(t))]:
            found = self._by_key.get(candidate, set())
            if len(found) == 1:
                return next(iter(found))
        return None

    def resolve(self, written: str) -> Resolved:
        """The county ``written`` names, or suggestions (candidates when ambiguous)."""
        county, suggestions = self._index.resolve(written)
        if county is not None:
            return Resolved(county)
        if suggestions and self.known(written):
            return Resolved(None, suggestions, ambiguous=True)
        untitled = self._untitled(written)
        if untitled is not None:
            return untitled
        return Resolved(None, suggestions)

    def _untitled(self, written: str) -> Resolved | None:
        """Resolve ``written`` without a leading title word, if it has one."""
        key = normalise(written)
        for title in self._titles:
            if key.startswith(title) and len(key) > len(title):
                county, candidates = self._index.resolve(key[len(title):])
                if county is not None:
                    return Resolved(county)
                if candidates and self.known(key[len(title):]):
                    return Resolved(None, candidates, ambiguous=True)
        return None


@lru_cache(maxsize=1)
def county_names() -> CountyNames:
    """The shared county-name resolver."""
    return CountyNames(name_data())


@lru_cache(maxsize=4096)  # a pure function of the text (the name data is fixed); the answers are immutable
def resolve_county(written: str) -> Resolved:
    """Resolve a county name as a player wrote it (see :class:`CountyNames`)."""
    return county_names().resolve(written)


def alias_table_markdown() -> str:
    """The alias table of ``docs/orders-wallenstein.md``, generated from the data file."""
    rows = ["| county (canonical) | German | English | Hungarian |", "|---|---|---|---|"]
    for canonical, entry in name_data()["counties"].items():
        cells = [", ".join(entry.get(lang, [])) or "—" for lang in LANGUAGES]
        rows.append(f"| {canonical} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"
