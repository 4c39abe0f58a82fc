"""A small document model shared by every game's report, and its plain-text layout.

A game module turns a view into a :class:`Doc` (sections of paragraphs, bullet lists,
tables and pictures); the templates in ``reports/templates`` lay it out as text or HTML.
Keeping the content in one model means the text and HTML reports always say the same.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import lru_cache

#: Width of the plain-text report (readable in any mail client).
WIDTH = 72


@dataclass(frozen=True)
class Para:
    """A paragraph of running text."""

    text: str
    kind: str = "para"


@dataclass(frozen=True)
class Sub:
    """A sub-heading inside a section."""

    text: str
    kind: str = "sub"


@dataclass(frozen=True)
class Items:
    """A bullet (or numbered) list."""

    items: tuple[str, ...]
    numbered: bool = False
    kind: str = "items"


@dataclass(frozen=True)
class Table:
    """A table; ``align`` has one of ``l``/``r`` per column."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str = ""
    caption: str = ""
    kind: str = "table"


@dataclass(frozen=True)
class Image:
    """A picture shipped with the report (``name`` is its key in ``Rendered.images``)."""

    name: str
    alt: str
    width: int = 640
    kind: str = "image"


Block = Para | Sub | Items | Table | Image


@dataclass(frozen=True)
class Section:
    """A titled part of a report; ``key`` is a stable id (HTML anchor, tests)."""

    key: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Doc:
    """A whole report before layout."""

    title: str
    subtitle: str
    sections: tuple[Section, ...]
    footer: tuple[str, ...] = field(default_factory=tuple)


@lru_cache(maxsize=8192)
def wrap(text: str, width: int = WIDTH, indent: str = "", first: str | None = None) -> str:
    """``text`` wrapped to ``width`` columns; ``first`` prefixes the first line (remembered:
    a season's reports for every viewer wrap mostly the same lines)."""
    lead = indent if first is None else first
    return textwrap.fill(text, width=width, initial_indent=lead, subsequent_indent=indent,
                         break_long_words=True, break_on_hyphens=False) or lead.rstrip()


def items_text(items: Items, width: int = WIDTH) -> str:
    """A list laid out as text, hanging-indented under its bullet or number."""
    lines = []
    digits = len(str(len(items.items)))
    for i, item in enumerate(items.items, 1):
        mark = f"{i:>{digits}}. " if items.numbered else "- "
        lines.append(wrap(item, width, indent=" " * len(mark), first=mark))
    return "\n".join(lines)


def table_text(table: Table, width: int = WIDTH) -> str:
    """A table laid out in fixed-width columns two spaces apart (one where two would push the
    table past ``width``, as longer headings in another language can); an over-long last
    column wraps."""
    rows = [tuple(table.headers)] + [tuple(r) for r in table.rows]
    ncol = len(table.headers)
    widths = [max(len(r[c]) for r in rows) for c in range(ncol)]
    gap = 2 if sum(widths[:-1]) + 2 * (ncol - 1) + min(widths[-1], 8) <= width else 1
    fixed = sum(widths[:-1]) + gap * (ncol - 1)
    widths[-1] = max(1, min(widths[-1], max(8, width - fixed)))
    align = (table.align or "l" * ncol).ljust(ncol, "l")
    out = [_row(rows[0], widths, align, gap), (" " * gap).join("-" * w for w in widths)]
    out += [_row(r, widths, align, gap) for r in rows[1:]]
    if table.caption:
        out.insert(0, wrap(table.caption, width))
    return "\n".join(out)


def _row(cells: tuple[str, ...], widths: list[int], align: str, gap: int = 2) -> str:
    last = textwrap.wrap(cells[-1], widths[-1]) or [""]
    head = [_cell(c, w, a) for c, w, a in zip(cells[:-1], widths, align)]
    first = (" " * gap).join(head + [_cell(last[0], widths[-1], align[-1])]).rstrip()
    pad = " " * (sum(widths[:-1]) + gap * (len(widths) - 1))
    return "\n".join([first] + [(pad + more).rstrip() for more in last[1:]])


def _cell(text: str, width: int, align: str) -> str:
    return text.rjust(width) if align == "r" else text.ljust(width)


def rule(char: str = "=", width: int = WIDTH) -> str:
    """A horizontal line of ``char``."""
    return char * width


def section_text(section: Section, width: int = WIDTH) -> str:
    """One section laid out as text, as the reports' text template lays it out (title in
    capitals over a rule, blocks apart; a picture as its name): for mails that carry a few
    sections of a report without rendering the whole of it."""
    lines = [section.title.upper(), rule("-", len(section.title))]
    for i, block in enumerate(section.blocks):
        if i and section.blocks[i - 1].kind != "sub":
            lines.append("")
        if isinstance(block, Para):
            lines.append(wrap(block.text, width))
        elif isinstance(block, Sub):
            lines.append(wrap(block.text, width) + ":")
        elif isinstance(block, Items):
            lines.append(items_text(block, width))
        elif isinstance(block, Table):
            lines.append(table_text(block, width))
        else:
            from reports.i18n import _

            lines.append(wrap(_("[picture %(name)s: %(alt)s]") % {"name": block.name, "alt": block.alt}, width))
    return "\n".join(lines)
