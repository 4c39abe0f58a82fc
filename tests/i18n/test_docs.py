"""The players' references in Hungarian and German are made from the English pages and the
docs catalogues (``make docs``, :mod:`reports.docs_i18n`), so they cannot drift apart; every
order example of every language parses with its game's grammar."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import turns.games  # noqa: F401  (registers every grammar)
from reports.docs_i18n import LANGUAGES, PAGES, build, translate, units, Catalogue
from reports.i18n import translator
from turns.games import grammar_for

DOCS = Path(__file__).resolve().parents[2] / "docs"
ORDER_PAGES = {"orders-wallenstein.md": "wallenstein", "orders-havoc.md": "havoc",
               "orders-gods-playground.md": "gods-playground"}


def test_the_translated_pages_are_made_from_the_english_ones_as_they_are_now():
    report = build(check=True)
    assert "stale" not in report, f"run `make docs` (python -m reports.docs_i18n build): {report['stale']}"


def reply_line(lang: str) -> re.Pattern[str]:
    """How a reply quotes a problem's line in ``lang`` (``line 12:``, ``12. sor:``, ``Zeile 12:``):
    the reply's own words (:func:`pbem.mailout.problemtext.problem_text`), from the catalogue."""
    said = translator(lang).gettext("line {n}")
    return re.compile("^" + re.escape(said).replace(re.escape("{n}"), r"\d+") + ":", re.M)


def examples(text: str, lang: str = "en") -> list[tuple[int, str]]:
    """The order lines of a page's code blocks: inside a GAME block if there is one, each line
    without its comment; placeholders (``<county>``), replies (``line 12: ...`` in the page's
    language) and ellipses left out."""
    out = []
    for m in re.finditer(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M):
        block = m.group(1)
        if reply_line(lang).search(block) or block.lstrip().startswith(("{", "$", "pbem ")):
            continue
        lines = block.splitlines()
        if any(line.startswith("GAME ") for line in lines):
            start = next(i for i, line in enumerate(lines) if line.startswith("GAME "))
            lines = lines[start + 1:]
            lines = lines[:next((i for i, line in enumerate(lines) if line.strip() == "END"), len(lines))]
        for line in lines:
            order = line.split("#", 1)[0].strip()
            if order and "<" not in order and "..." not in order and not order.startswith(("TURN ", "PRESS", "END")):
                out.append((text[:m.start()].count("\n") + 1, order))
    return out


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
@pytest.mark.parametrize("page", sorted(ORDER_PAGES))
def test_every_order_example_of_every_language_parses(page, lang):
    text = (DOCS / page if lang == "en" else DOCS / lang / page).read_text(encoding="utf-8")
    found = examples(text, lang)
    assert len(found) >= 5, page
    parse = grammar_for(ORDER_PAGES[page])
    bad = []
    for line_no, order in found:
        result = parse(order)
        if result.problems:
            bad.append(f"{lang}/{page}:{line_no}: {order!r}: {result.problems[0]}")
    assert not bad, "\n".join(bad)


def test_a_hungarian_example_uses_hungarian_names_the_grammar_reads():
    text = (DOCS / "hu" / "orders-wallenstein.md").read_text(encoding="utf-8")
    assert "ATTACKA Csehország TO Szilézia WITH ALL" in text and "BONUS támadás adó gabona" in text


def test_a_unit_the_catalogue_lacks_stays_english_under_a_mark():
    cat = Catalogue("hu")
    page = translate("# Writing Wallenstein orders\n\nA paragraph nobody has translated yet.\n", cat, "x.md")
    assert "# Wallenstein-parancsok írása" in page
    assert "(fordítás nélkül:) A paragraph nobody has translated yet." in page
    assert cat.missing == ["A paragraph nobody has translated yet."]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sample_reply_is_in_the_pages_language_as_pbem_writes_it(lang):
    """The order page's sample reply is the reply a player of that language gets (its
    explanations from the catalogue), and it is not read as orders."""
    from dataclasses import replace

    from pbem.mailout.problemtext import problem_text
    from reports.i18n import speaking

    text = (DOCS / lang / "orders-wallenstein.md").read_text(encoding="utf-8")
    parse = grammar_for("wallenstein")
    with speaking(lang):
        for n, line in ((12, "ATTACKA Bohemia TO Schlesein WITH ALL"), (14, "BID 7")):
            said = problem_text(replace(parse(line).problems[0], line=n, text=line)).splitlines()
            assert said[0] in text and said[1] in text, said
    assert "is not a county I know" not in text



@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["wallenstein", "havoc", "gods_playground"])
def test_the_upgrade_mail_lists_the_changelog_in_the_seats_language(lang, game):
    """Every changelog entry of every version reaches a seat's upgrade mail in its language
    (the changelog pages are translated pages: docs/<lang>/changelog-<game>.md)."""
    import importlib

    from pbem.loop.upgrade import changes
    from reports.i18n import speaking

    releases = importlib.import_module(f"adjudicator.{game}.releases").RELEASES
    steps = list(releases.all)
    english = changes(steps, width=10_000)
    with speaking(lang):
        said = changes(steps, width=10_000)
    entries = [line for line in english if line.startswith("  - ")]
    assert len(entries) >= 5
    kept = [line for line in entries if line in said]
    assert not kept, f"{lang}: changelog entries still in English: {kept}"
    page = (DOCS / lang / f"changelog-{game.replace('_', '-')}.md").read_text(encoding="utf-8")
    assert all(" ".join(line[4:].split()[:6]) in " ".join(page.split()) for line in said if line.startswith("  - "))
