"""Every problem message an engine can write reaches a Hungarian or German reply translated:
the source of adjudicator/ is scanned for them (tests/i18n/problem_sources.py) and each must
match a template (:mod:`pbem.mailout.problemtext`: the shared ones and each game's, from the
module its registry entry names as ``problems``) that carries no English of its own into the
reply. A new engine message without a template fails here."""

from __future__ import annotations

import re

import pytest

from pbem.mailout import problemtext
from reports.enginetext import label
from reports.i18n import DEFAULT, LANGUAGES, speaking
from tests.i18n.problem_sources import scan

OTHERS = sorted(set(LANGUAGES) - {DEFAULT})
_ENGLISH = re.compile(r"[a-z]{2,}")


def untranslated(sample: str) -> str | None:
    """Why ``sample`` (an engine message with values ``Q1``...) would reach a reply in English
    in the current language, or None when it is translated."""
    template = problemtext.template_of(sample)
    if template is None:
        if "; " in sample:  # reasons joined: each must be translated
            return next(filter(None, map(untranslated, sample.split("; "))), None)
        return "no template"
    m = template.pattern.match(sample)
    assert m is not None
    for name, value in m.groupdict().items():
        # a placeholder that takes English words of the engine (not a value) must translate them;
        # a decision's label (setup/pick-3) is shown as pbem shows it everywhere
        if _ENGLISH.search(re.sub(r"Q\d+", "", value)) and template.values.get(name) is not label:
            written = template.values.get(name, lambda v: v)(value)
            if written == value:
                return f"template {template.text!r} keeps the English {value!r} of {{{name}}}"
    if problemtext.translate("", sample) == sample:
        return f"template {template.text!r} is not translated"
    return None


def unique_sources():
    seen = {}
    for source in scan().sources:
        seen.setdefault(source.sample, source)
    return list(seen.values())


def test_the_scan_finds_the_engines_messages_through_names_calls_and_tables():
    samples = {s.sample for s in scan().sources}
    assert not scan().unresolved, "the scan cannot follow:\n" + "\n".join(scan().unresolved)
    assert len(samples) > 190
    assert "the veto costs a noble cube on Q1" in samples  # God's Playground, through its table of checks
    assert "Q1 is named twice" in samples  # Havoc: a name holding resolve_refs's reason
    assert "no Dog of War left in your hand" in samples  # a wording chosen inside the f-string
    assert ("DRAFT ... DECK came with Q1 rules version Q2; this game plays version Q3 (the GM can move it to "
            "newer rules with pbem upgrade)") in samples  # RELEASES.not_yet
    assert "COURT lines are only with the Imperial Court expansion (option expansion=court)" in samples


@pytest.mark.parametrize("lang", OTHERS)
def test_every_engine_problem_message_has_a_template_and_a_translation(lang):
    problems = []
    with speaking(lang):
        for source in unique_sources():
            why = untranslated(source.sample)
            if why:
                problems.append(f"{source.where}: {source.sample!r}: {why}")
    assert not problems, f"{len(problems)} engine message(s) would reach a {lang} reply in English " \
        "(add a template to the game's problems module, its registry entry's problems, or to " \
        "pbem/mailout/problemtext.py; make messages, translate):\n" + "\n".join(problems)


def test_the_check_fails_for_a_message_without_a_template(monkeypatch):
    sample = "the veto costs a noble cube on Q1"
    with speaking("hu"):
        assert untranslated(sample) is None
        found = problemtext.template_of(sample)
        kept = tuple(t for t in problemtext._sentences().templates if t is not found)
        monkeypatch.setattr(problemtext, "_sentences", lambda: problemtext.Sentences(kept))
        assert untranslated(sample) == "no template"
