"""Sentences the engines wrote into their events, in the reader's language.

The engines are pure and their recorded events never change (a released rules version keeps
its behaviour), so some events carry an English sentence made by the engine: why an action was
not carried out, what the game chose for a seat, a provisional figure's reason. A report in
another language reads each such sentence against the engine's templates (the catalogue's
message ids, with named placeholders) and writes the catalogue's translation with the same
values, each value translated in turn where it is a word the catalogue knows (a building, a
season, a nested sentence). A sentence no template matches is shown as the engine wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from reports.i18n import DEFAULT, _, lang

#: How a placeholder's value is written in the reader's language (default: as it is).
Value = Callable[[str], str]


@dataclass(frozen=True)
class Template:
    """An engine sentence: its English text with ``{name}`` placeholders (a catalogue message
    id) and how each placeholder's value is translated."""

    text: str
    values: dict[str, Value] = field(default_factory=dict)

    @property
    def pattern(self) -> re.Pattern[str]:
        return _compile(self.text)


@lru_cache(maxsize=None)
def _compile(text: str) -> re.Pattern[str]:
    """The regular expression of a template: its literal text, each placeholder any text (a
    placeholder named twice must match the same text twice)."""
    out, seen, pos = ["^"], set(), 0
    for m in re.finditer(r"\{(\w+)\}", text):
        out.append(re.escape(text[pos:m.start()]))
        name = m.group(1)
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        pos = m.end()
    out.append(re.escape(text[pos:]) + "$")
    return re.compile("".join(out), re.DOTALL)


class Sentences:
    """A game's engine sentences; :meth:`__call__` writes one in the reader's language."""

    def __init__(self, templates: Sequence[Template]) -> None:
        self.templates = tuple(templates)

    def __call__(self, text: object) -> str:
        """``text`` translated (as it is in English, or when no template matches)."""
        sentence = str(text)
        if lang() == DEFAULT:
            return sentence
        whole = _(sentence)
        if whole != sentence:  # a fixed sentence the catalogue has as it is
            return whole
        for template in self.templates:
            m = template.pattern.match(sentence)
            if m is not None:
                values = {k: template.values.get(k, _keep)(v) for k, v in m.groupdict().items()}
                # a sentence without placeholders may hold braces of its own ("{to, armies}")
                return _(template.text).format(**values) if values else _(template.text)
        return sentence


def _keep(value: str) -> str:
    return value


def words(table: dict[str, str]) -> Value:
    """A placeholder whose value is one of ``table``'s keys, written as its (marked) text."""
    return lambda value: _(table[value]) if value in table else value


def joined(separator: str, each: Value = _keep) -> Value:
    """A placeholder holding a list joined by ``separator`` (``A and B``), joined again by the
    translated separator, each item written by ``each``."""
    return lambda value: _(separator).join(each(v) for v in value.split(separator))


def label(value: str) -> str:
    """A decision's label (``setup/pick-3``) as pbem shows it everywhere: as the engine wrote it."""
    return value
