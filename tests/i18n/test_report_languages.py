"""Reports in the seat's language: a Hungarian or German seat's report holds no sentence of
the English report (names, numbers and order keywords aside) in all three games, its lines
keep to 72 columns counted in characters, its dates and numbers are the locale's, and its
pictures are drawn once per language, not once per seat."""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache

import pytest

from reports.render import render_report
from tests.gods_playground_reports import games as gp
from tests.havoc_reports import games as havoc
from tests.reports import games as wallenstein

#: Words kept as they are in every language: names of places, battles, cards and people.
NAMES = ("John of Gaunt", "Chevauchées", "Castillon", "liberum veto", "Danzig", "SpielByWeb", "Shogun: Tenno's Court",
         "God's Playground", "Wallenstein", "Havoc", "Sejm", "BGG", "FINDINGS", "treefroggames.com")


def _words(text: str, names: set[str]) -> list[str]:
    for name in NAMES:
        text = text.replace(name, " ")
    out = []
    for raw in re.split(r"[^\wÀ-ÿ'.-]+", text):
        word = raw.strip(".'-")
        if (not word or any(c.isdigit() for c in word) or (word.isupper() and len(word) > 1) or "." in word
                or len(word) == 1 and word not in "aA"):
            continue  # numbers, card and turn labels, order keywords (RECRUIT), files (docs/x.md), <n>
        if word.lower() in names:
            continue
        out.append(word.lower())
    return out


#: Words that make a run of English words a sentence (a table row of names or figures has none).
ENGLISH = {"the", "a", "an", "of", "and", "to", "in", "is", "are", "was", "were", "be", "with", "for", "from", "by",
           "on", "your", "you", "not", "no", "it", "its", "their", "this", "that", "at", "as", "or", "has", "have",
           "each", "every", "who", "which", "there", "than", "then", "into", "out", "after", "before", "when"}


def english_left(english: str, other: str, names: set[str], n: int = 3) -> set[str]:
    """The runs of ``n`` English words of a sentence (holding a word like "the", "of", "your";
    names aside) that the other report repeats."""
    return _grams(english, names, n, sentence=True) & _grams(other, names, n, sentence=False)


def _grams(text: str, names: set[str], n: int, sentence: bool) -> set[str]:
    """The runs of ``n`` words inside one clause of ``text`` (a run does not cross . : ; or a
    table row); with ``sentence`` only runs holding one of the :data:`ENGLISH` words."""
    out = set()
    for clause in re.split(r"[.:;()\n]+|\s{2,}", text.replace("\n  ", " ")):
        words = _words(clause, names)
        out |= {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)
                if not sentence or ENGLISH & set(words[i:i + n])}
    return out


def _names(view: dict) -> set[str]:
    from turns.wallenstein_names import canonical_names

    words = {w.lower() for name in canonical_names() for w in re.split(r"\W+", name) if w}
    words |= {str(s).lower() for s in (view.get("seats") or {})} | {"peasants", "none"}
    words |= {"blue", "brown", "green", "grey", "orange", "yellow", "white", "red", "purple"}  # Havoc's suits
    words |= {w.lower() for b in ("Sluys", "Crécy", "Poitiers", "Nájera", "Agincourt", "Verneuil", "Orléans",
                                  "Formigny", "Calais", "Tours", "Bordeaux") for w in b.split()}
    return words


@lru_cache(maxsize=None)
def _inputs(game: str) -> tuple:
    if game == "wallenstein":  # with the grammar's own order reminder, as pbem/mailout/reporting.py gives it
        from pbem.mailout.reporting import order_help

        turns = wallenstein.play("i18n-1", seats=("red", "blue", "green", "yellow"), options={"expansion": "court"})
        return tuple(dataclasses.replace(wallenstein.report_input("w1", "i18n-1", t, v),
                                         order_help=order_help("wallenstein", {"expansion": "court"}))
                     for t in (turns[0], turns[2], turns[-1]) for v in ("red", "@gm"))
    if game == "havoc":
        steps = list(havoc.due_steps(havoc.play(3, "i18n-h")))
        return tuple(havoc.report_input(s, v, "i18n-h") for s in (steps[0], steps[3], steps[-1]) for v in ("red", "@gm"))
    steps = list(gp.due_steps(gp.play("i18n-g")))
    return tuple(gp.report_input(s, v, "i18n-g") for s in (steps[0], steps[2], steps[-1]) for v in ("white", "@gm"))


@pytest.mark.parametrize("lang", ["hu", "de"])
@pytest.mark.parametrize("game", ["wallenstein", "havoc", "gods-playground"])
def test_a_seat_report_in_another_language_holds_no_english_sentence(game, lang):
    for inp in _inputs(game):
        english = render_report(inp)
        other = render_report(dataclasses.replace(inp, language=lang))
        names = _names(inp.view)
        left = english_left(english.text, other.text, names)
        assert not left, f"{game} {inp.turn} {inp.viewer} ({lang}): English left in the report: {sorted(left)[:12]}"
        assert not english_left(_visible(english.html), _visible(other.html), names)
        assert f'<html lang="{lang}">' in other.html


def _visible(html: str) -> str:
    """The text a browser shows of an HTML report (no markup, no style rules)."""
    import html as h

    return h.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", " ", html, flags=re.DOTALL)))


def test_the_check_finds_an_english_sentence_left_in_a_translated_report():
    inp = _inputs("wallenstein")[0]
    english, other = render_report(inp).text, render_report(dataclasses.replace(inp, language="hu")).text
    spoiled = other + "\nYour orders did not say what you would decide here.\n"
    assert english_left(english + "\nYour orders did not say what you would decide here.\n", spoiled,
                        _names(inp.view))


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_plain_text_lines_keep_72_columns_counted_in_characters(lang):
    inp = _inputs("wallenstein")[0]
    text = render_report(dataclasses.replace(inp, language=lang)).text
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 72
    # accented letters take two bytes: some lines are longer than 72 bytes, yet fit 72 columns
    assert any(len(line.encode("utf-8")) > 72 for line in lines)


def test_dates_are_written_in_the_readers_locale():
    inp = _inputs("havoc")[0]
    texts = {lang: render_report(dataclasses.replace(inp, language=lang)).text for lang in ("en", "hu", "de")}
    assert "Sun 6 Dec 2026, 18:00 UTC+01:00 (17:00 UTC)" in texts["en"]
    assert "2026. dec. 6., vasárnap 18:00 UTC+01:00 (17:00 UTC)" in " ".join(texts["hu"].split())
    assert "So., 6. Dez. 2026, 18:00 UTC+01:00 (17:00 UTC)" in " ".join(texts["de"].split())


def test_maps_and_charts_are_drawn_once_per_language_not_once_per_seat(monkeypatch):
    from reports import charts
    from reports.wallenstein import mapplot

    mapplot.clear_cache()
    charts.clear_cache()
    drawn = []
    real = mapplot.kept_figure
    monkeypatch.setattr(mapplot, "kept_figure", lambda view, title: drawn.append(title) or real(view, title))
    turns = wallenstein.play("i18n-2", seats=("red", "blue", "green", "yellow"))
    turn = turns[1]
    for viewer, lang in (("red", "hu"), ("blue", "hu"), ("green", "de"), ("yellow", "en"), ("@public", "en"),
                         ("@gm", "en")):
        render_report(dataclasses.replace(wallenstein.report_input("w1", "i18n-2", turn, viewer), language=lang))
    assert len(drawn) == 3  # one map per language, whatever the number of seats reading it
    assert len(set(drawn)) == 3  # the title is in the reader's language too
