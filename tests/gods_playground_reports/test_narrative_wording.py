"""Sentences a rulebook-only reader tripped over in the demo game:
the cost of an estate is noble cubes, an invasion names its province even when no cube
enters, plurals agree, a pass names the phase as the rulebook does."""

from __future__ import annotations

from reports.gods_playground.narrative import sentence

VIEW = {"enemies": {"tatars": {"province": "ukraine", "name": "Tatars"}}}


def test_an_estate_costs_noble_cubes_not_thalers():
    text = sentence({"type": "EstateBought", "seat": "white", "province": "lithuania", "value": 4, "cost": 1}, VIEW)
    assert "for 1 noble cube from Lithuania" in text and "thaler" not in text


def test_an_invasion_without_cubes_names_the_province():
    text = sentence({"type": "Invasion", "enemy": "tatars", "strength": 9, "hit_cubes": 21, "cubes": 0}, VIEW)
    assert text == "The Tatars invade Ukraine with strength 9 against 21 hit cubes: 0 cubes enter."


def test_plurals_agree():
    one = sentence({"type": "Invasion", "enemy": "tatars", "province": "ukraine", "strength": 2, "hit_cubes": 1,
                    "cubes": 1}, VIEW)
    assert "against 1 hit cube: 1 cube enters" in one
    counter = sentence({"type": "Counterattack", "seat": "red", "target": "ukraine", "rolls": [], "hits": 1,
                        "removed": 1}, VIEW)
    assert "1 hit, 1 enemy cube removed" in counter


def test_a_pass_names_the_phase():
    text = sentence({"type": "Passed", "seat": "blue", "phase": "buy"}, VIEW)
    assert text == "blue passed: no more buying estates this round."


def test_victory_points_say_what_each_figure_is():
    text = sentence({"type": "VictoryPoints", "boxes": {"russians": {"seats": ["blue"], "king": False, "each": 3}},
                     "sejm": {"blue": 2, "red": 0}, "money": {"blue": 4, "red": 7},
                     "gained": {"blue": 9, "red": 7}}, VIEW)
    assert "Russians box: 3 VP to blue;" in text
    assert "Sejm seats (2 VP each): blue 2 VP;" in text
    assert "thalers paid in (1 VP per 5 thalers): blue 4, red 7 VP" in text


def test_danzig_says_the_seat_earned_the_thalers():
    text = sentence({"type": "SpecialAction", "seat": "blue", "action": "danzig", "thalers": 24}, VIEW)
    assert text.startswith("blue traded through Danzig and earned 24 thalers")


def test_one_cossack_and_raids_under_their_own_heading():
    from reports.gods_playground.narrative import story

    text = sentence({"type": "Recruited", "seat": "red", "province": "ukraine", "cost": 1, "cossack": 1}, VIEW)
    assert "recruited 1 Cossack in Ukraine for 1 thaler." in text
    groups = story([{"turn": "r1/counter/9/red", "events": [
        {"type": "Invasion", "round": 1, "enemy": "tatars", "province": "ukraine", "strength": 2, "cubes": 2},
        {"type": "Counterattack", "round": 1, "seat": "red", "target": "ukraine", "rolls": [], "hits": 0},
        {"type": "Raid", "round": 1, "enemy": "tatars", "source": "ukraine", "targets": {"lithuania": 1}}]}], VIEW)
    assert [head for head, _ in groups] == ["Round 1: Invasions", "Round 1: Counterattacks", "Round 1: Raids"]


def test_the_habsburgs_markers_of_the_round_s_start_and_the_one_tile_rule_are_said():
    from reports.gods_playground.content import ONE_TILE, decision_blocks
    from reports.gods_playground.narrative import story

    text = sentence({"type": "HabsburgInfluence", "markers": 4, "track": 4}, VIEW)
    assert text == ("The Habsburgs put 4 influence markers on their box at the start of the round, their "
                    "strength track for the round.")
    short = sentence({"type": "HabsburgInfluence", "markers": 3, "track": 5}, VIEW)
    assert short.endswith("(The 10 markers allowed no more of its 5.)")
    groups = story([{"turn": "r2/nobles", "events": [{"type": "HabsburgInfluence", "round": 2, "markers": 4,
                                                      "track": 4}]}], VIEW)
    assert groups[0][0] == "Round 2: Income"

    class Inp:
        viewer = "red"

    pending = {"seats": ["red"], "kind": "recruit", "turn": "r2/recruit/40/red", "info": {"one_tile": True}}
    said = [b.text for b in decision_blocks(Inp(), pending)]
    assert ONE_TILE in said and "One army tile a turn" in ONE_TILE
    assert ONE_TILE not in [b.text for b in decision_blocks(Inp(), {**pending, "info": {}})]  # versions 1-2
