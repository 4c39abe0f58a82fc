"""``pbem rules``: the rules versions this pbem keeps, as a program and as the GM read them."""

from __future__ import annotations

import json

import pytest

from adjudicator.registry import engine_names, get_engine
from pbem.errors import DomainError
from pbem.loop.upgrade import rules_of
from tests.clirun import run


def test_each_game_lists_its_versions_oldest_first_with_their_changes():
    havoc = rules_of("havoc")
    assert [r.game for r in havoc] == ["havoc"] and havoc[0].newest == get_engine("havoc").version
    versions = [v["version"] for v in havoc[0].versions]
    assert versions[-1] == havoc[0].newest and len(versions) > 1
    assert any(line.startswith(f"Version {versions[-1]} (") for line in havoc[0].lines)
    assert [r.game for r in rules_of()] == list(engine_names())
    with pytest.raises(DomainError):
        rules_of("no-such-game")


def test_the_command_prints_the_same_as_text_and_json():
    data = json.loads(run("rules", "havoc", "--json"))
    assert data == {"game": "havoc", "newest": rules_of("havoc")[0].newest, "versions": rules_of("havoc")[0].versions}
    text = run("rules", "havoc")
    assert text.startswith(f"havoc: newest {data['newest']}\n  Version ")
    assert "Error" in run("rules", "no-such-game", code=1)
