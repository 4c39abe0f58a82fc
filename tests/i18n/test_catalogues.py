"""Every text the code, the report templates and the data files show a player has a checked
translation in every catalogue: a missing or fuzzy one, or a translation that drops or invents
a placeholder, fails (CI runs this with the fast suite)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from reports.i18n import DEFAULT, LANGUAGES, po_path, translator
from reports.i18n_extract import messages

ROOT = Path(__file__).resolve().parents[2]
OTHERS = sorted(set(LANGUAGES) - {DEFAULT})
_PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


@lru_cache(maxsize=1)
def used() -> dict:
    return messages(str(ROOT))


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in _PLACEHOLDER.findall(text)}


def test_the_extraction_finds_the_texts_of_code_templates_and_data():
    found = used()
    assert (None, "Winter") in found  # reports/wallenstein/content.py
    assert (None, "[picture %(name)s: %(alt)s]") in found  # reports/templates/base.txt.j2
    assert (None, "Tax collection yields at most 5 Thaler.") in found  # adjudicator/wallenstein/data/events.json
    assert ("building", "trade") in found  # pgettext
    assert found[(None, "{n} army")] == ("{n} army", "{n} armies")  # ngettext: both forms
    assert len(found) > 700


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_in_use_is_translated_in_every_catalogue(lang):
    with po_path(lang).open("rb") as fh:
        catalogue = read_po(fh, locale=lang)
    problems = []
    for (context, msgid), ids in sorted(used().items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        entry = catalogue.get(msgid, context=context)
        if entry is None:
            problems.append(f"missing: {msgid!r}")
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy or not all(forms):
            problems.append(f"untranslated or fuzzy: {msgid!r}")
            continue
        wanted = placeholders(ids[-1]) | placeholders(ids[0])
        for form in forms:
            if placeholders(form) - wanted or (len(ids) == 1 and placeholders(form) != wanted):
                problems.append(f"placeholders differ: {msgid!r} -> {form!r}")
    assert not problems, f"{len(problems)} problem(s) in {po_path(lang)} (make messages, then translate):\n" + \
        "\n".join(problems[:40])


@pytest.mark.parametrize("lang", OTHERS)
def test_a_catalogue_compiles_from_its_po_file_with_its_plural_rule(lang):
    t = translator(lang)
    assert t.gettext("Victory points") not in ("", "Victory points")
    one, many = t.ngettext("{n} army", "{n} armies", 1), t.ngettext("{n} army", "{n} armies", 5)
    assert "{n}" in one and "{n}" in many
    if lang == "de":
        assert (one, many) == ("{n} Armee", "{n} Armeen")  # the catalogue's plural rule picks the form
