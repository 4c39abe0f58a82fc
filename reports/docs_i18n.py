"""The players' references in every language, made from one source: ``docs/<page>.md``.

``python -m reports.docs_i18n build`` (``make docs``) writes ``docs/<lang>/<page>.md`` for each
page of :data:`PAGES` and each language but English: the English page cut into units (a
heading, a paragraph, a list item, a table cell, a code block), each unit replaced by its
translation from ``docs/locale/<lang>/LC_MESSAGES/docs.po``. A unit the catalogue lacks (a
paragraph changed or added in English since it was translated) is kept in English under a
visible mark, so a translated page never says something the English one no longer says.
``python -m reports.docs_i18n messages`` collects the units into ``docs/locale/docs.pot`` and
merges them into every catalogue (the translator then fills in the new entries).

A code block is a unit too: its translation may write an order example with names in the
reader's language (the grammars read them); untranslated, the English example stands. The
tests parse every order example of every language (``tests/i18n/test_docs.py``).
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LOCALE = DOCS / "locale"
DOMAIN = "docs"


def _pages() -> tuple[str, ...]:
    """Each game's order syntax, then each game's rules reference (their registry entries), then
    each game's changelog (docs/changelog-<game>.md: the upgrade mail's entries)."""
    from adjudicator import games

    entries = games.entries()
    changelogs = tuple(f"changelog-{e.name}.md" for e in entries if (DOCS / f"changelog-{e.name}.md").exists())
    return tuple(p for e in entries for p in e.order_pages) + tuple(p for e in entries for p in e.rules_pages) + \
        changelogs


#: The pages made in every language: each game's order syntax, rules reference and changelog.
PAGES = _pages()
LANGUAGES = ("hu", "de")
#: The mark of a unit the catalogue has no translation for (kept in English).
UNTRANSLATED = {"hu": "(fordítás nélkül:)", "de": "(noch nicht übersetzt:)"}
WIDTH = 100


@dataclass(frozen=True)
class Unit:
    """A piece of a page: ``text`` is what is translated (a message id); ``kind`` says how it
    is laid out (``heading``, ``para``, ``item``, ``cell``, ``code``); the rest is layout."""

    kind: str
    text: str
    lead: str = ""     # a heading's #s, a list item's marker and indent
    cells: tuple[str, ...] = ()  # a table row's cells (each a unit of its own)


def units(markdown: str) -> list[Unit | str]:
    """The page as units and verbatim lines (blank lines, table rules, code fences kept as they are)."""
    out: list[Unit | str] = []
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out += [line, Unit("code", "\n".join(lines[i + 1:j])), lines[j] if j < len(lines) else "```"]
            i = j + 1
            continue
        if not line.strip():
            out.append(line)
        elif line.lstrip().startswith("<!--"):  # a comment marks generated content: it and the table below stay
            out.append(line)
            while "-->" not in lines[i] and i + 1 < len(lines):
                i += 1
                out.append(lines[i])
            while i + 1 < len(lines) and lines[i + 1].lstrip().startswith("|"):
                i += 1
                out.append(lines[i])
        elif m := re.match(r"^(#+\s+)(.*)$", line):
            out.append(Unit("heading", m.group(2).strip(), m.group(1)))
        elif line.lstrip().startswith("|"):
            out.append(_row(line))
        elif m := re.match(r"^(\s*(?:[-*]|\d+\.)\s+)(.*)$", line):
            body = [m.group(2)]
            while i + 1 < len(lines) and _continues(lines[i + 1]):
                i += 1
                body.append(lines[i].strip())
            out.append(Unit("item", " ".join(body), m.group(1)))
        else:
            body = [line.strip()]
            while i + 1 < len(lines) and _continues(lines[i + 1]):
                i += 1
                body.append(lines[i].strip())
            out.append(Unit("para", " ".join(body), re.match(r"^\s*(>\s*)?", line).group(0)))
        i += 1
    return out


def _continues(line: str) -> bool:
    """True when ``line`` goes on with the paragraph or list item before it."""
    if not line.strip() or line.startswith("```") or line.lstrip().startswith("|") or re.match(r"^#+\s", line):
        return False
    # any other line goes on (Markdown's lazy continuation: "10. " items go on indented by 3)
    return not re.match(r"^\s*(?:[-*]|\d+\.)\s+", line)


def _row(line: str) -> Unit | str:
    cells = tuple(c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|")))  # "\|" is a pipe in a cell
    if all(re.fullmatch(r":?-+:?", c) for c in cells):
        return line
    return Unit("row", line, cells=cells)


def translatable(unit: Unit) -> Iterator[str]:
    """The message ids of a unit (a table row's cells one by one; code-only cells and blocks
    of nothing but code are the same in every language and are not asked for)."""
    if unit.kind == "row":
        yield from (c for c in unit.cells if _words(c))
    elif unit.text.strip():
        yield unit.text


def _words(text: str) -> bool:
    """True when ``text`` holds words to translate (not only code, numbers and punctuation)."""
    plain = re.sub(r"`[^`]*`", "", text)
    return bool(re.search(r"[A-Za-zÀ-ÿ]{3,}", plain))


class Catalogue:
    """One language's translations of the units, from its ``.po`` file (fuzzy entries left out)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.missing: list[str] = []
        self._t = _load(lang)

    def get(self, text: str, code: bool = False) -> str | None:
        """The translation of ``text`` (which may be ``text`` itself, e.g. a rule point's code
        name), or None (noted in :attr:`missing` unless it is code or has no words)."""
        if not text.strip():
            return text
        found = self._t.get(text)
        if found is not None or code:
            return found if found is not None else text
        if _words(text):
            self.missing.append(text)
            return None
        return text


def _load(lang: str) -> dict[str, str]:
    path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return {}
    from babel.messages.pofile import read_po

    with path.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    return {m.id: m.string for m in cat if m.id and isinstance(m.string, str) and m.string and not m.fuzzy}


def translate(markdown: str, cat: Catalogue, page: str) -> str:
    """The page in ``cat``'s language."""
    out: list[str] = []
    mark = UNTRANSLATED[cat.lang]
    for u in units(markdown):
        if isinstance(u, str):
            out.append(u)
        elif u.kind == "code":
            out.append(cat.get(u.text, code=True) or u.text)
        elif u.kind == "row":
            cells = [(cat.get(c) or f"{mark} {c}") if _words(c) else c for c in u.cells]
            out.append("| " + " | ".join(_links(c) for c in cells) + " |")
        else:
            text = cat.get(u.text)
            text = _links(text) if text is not None else f"{mark} {_links(u.text)}"
            if u.kind == "heading":
                out.append(u.lead + text)
            elif u.kind == "item":
                out.append(_fill(text, u.lead, " " * len(u.lead)))
            else:
                out.append(_fill(text, u.lead, u.lead))
    head = _HEADER[cat.lang].format(page=page)
    return head + "\n\n" + "\n".join(out).rstrip("\n") + "\n"


_HEADER = {
    "hu": "<!-- Ezt a lapot a docs/{page} angol lapból és a docs/locale/hu/LC_MESSAGES/docs.po fordításaiból "
          "készíti a `make docs`; ne szerkeszd kézzel. -->",
    "de": "<!-- Diese Seite macht `make docs` aus der englischen Seite docs/{page} und den Übersetzungen in "
          "docs/locale/de/LC_MESSAGES/docs.po; nicht von Hand bearbeiten. -->",
}


def _fill(text: str, first: str, rest: str) -> str:
    return textwrap.fill(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_long_words=False,
                         break_on_hyphens=False)


def _links(text: str) -> str:
    """Relative links of a translated page: to another translated page in its own language,
    else to the English page one folder up."""
    def fix(m: re.Match[str]) -> str:
        target = m.group(2)
        if re.match(r"^[a-z]+:|^#|^/", target):
            return m.group(0)
        page, _sep, anchor = target.partition("#")
        if page in PAGES:
            return f"[{m.group(1)}]({page})"
        return f"[{m.group(1)}](../{target})"
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", fix, text)


def build(check: bool = False) -> dict[str, list[str]]:
    """Write (or with ``check`` only compare) every translated page; the untranslated units per
    page and language. With ``check``, a page that differs from what would be written is
    reported under the key ``stale``."""
    report: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        for page in PAGES:
            cat = Catalogue(lang)
            text = translate((DOCS / page).read_text(encoding="utf-8"), cat, page)
            target = DOCS / lang / page
            if check:
                if not target.exists() or target.read_text(encoding="utf-8") != text:
                    report.setdefault("stale", []).append(f"{lang}/{page}")
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            if cat.missing:
                report[f"{lang}/{page}"] = cat.missing
    return report


def messages() -> None:
    """Collect every unit into ``docs/locale/docs.pot`` and merge it into each catalogue."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    template = Catalog(project="pbem docs", domain=DOMAIN)
    for page in PAGES:
        for u in units((DOCS / page).read_text(encoding="utf-8")):
            if isinstance(u, Unit):
                for text in translatable(u):
                    flags = ("code",) if u.kind == "code" else ()
                    template.add(text, locations=[(f"docs/{page}", None)], flags=flags,
                                 auto_comments=["an order example: keep the order words; names may be written in "
                                                "your language"] if u.kind == "code" else [])
    LOCALE.mkdir(parents=True, exist_ok=True)
    with (LOCALE / f"{DOMAIN}.pot").open("wb") as fh:
        write_po(fh, template, width=100, sort_output=False, include_lineno=False)
    for lang in LANGUAGES:
        path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            with path.open("rb") as fh:
                cat = read_po(fh, locale=lang)
        else:
            cat = Catalog(locale=lang, domain=DOMAIN, project="pbem docs")
        cat.update(template, no_fuzzy_matching=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            write_po(fh, cat, width=100, include_lineno=False, ignore_obsolete=True)


def main(argv: list[str]) -> int:
    """``build`` (write the pages, list what is untranslated), ``check`` or ``messages``."""
    command = argv[0] if argv else "build"
    if command == "messages":
        messages()
        return 0
    report = build(check=command == "check")
    for key, items in sorted(report.items()):
        print(f"{key}: {len(items)} {'stale' if key == 'stale' else 'untranslated'}")
    return 1 if command == "check" and "stale" in report else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
