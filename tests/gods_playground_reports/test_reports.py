"""God's Playground reports over whole seeded random games: the map's labels never overlap,
no report shows a hidden choice to a viewer who may not see it, every derived event has a
sentence, text is 72 columns, output is deterministic."""

from __future__ import annotations

import copy

import pytest

from adjudicator.base import GM, PUBLIC
from adjudicator.chance import Chance
from adjudicator.gods_playground.engine import ENGINE
from reports.gods_playground.mapplot import DAGGER, clear_cache, map_figure, provisional_marks
from reports.gods_playground.narrative import SENTENCES, story
from reports.render import render_report
from tests.gods_playground_reports.games import due_steps, play, report_input, viewers
from tests.gods_playground_reports.labels import overlaps

SEEDS = ("gpr-1", "gpr-2")
_CACHE: dict[str, list] = {}


def _steps(seed):
    if seed not in _CACHE:
        _CACHE[seed] = play(seed)
    return _CACHE[seed]


def _sample(seed, every=12):
    due = list(due_steps(_steps(seed)))
    return due[::every] + [due[-1]]


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_map_labels_never_overlap(seed):
    for step in _sample(seed, 20):
        for viewer in (step.state["seats"][0], PUBLIC):
            bad = overlaps(map_figure(report_input(step, viewer, seed).view))
            assert not bad, f"{step.turn} {viewer}: overlapping labels {bad[:5]}"


def test_overlap_check_sees_an_overlap():
    """The check itself: two labels written on one spot are found."""
    step = _steps(SEEDS[0])[30]
    fig = map_figure(report_input(step, PUBLIC, SEEDS[0]).view)
    fig.axes[0].text(45, 45, "Lithuania Lithuania", fontsize=9)
    fig.axes[0].text(46, 45, "Ukraine Ukraine", fontsize=9)
    assert overlaps(fig)


def test_provisional_figures_carry_a_dagger():
    step = _steps(SEEDS[0])[50]
    view = report_input(step, PUBLIC, SEEDS[0]).view
    marks = provisional_marks(view)
    assert "estates:ukraine" in marks and "vp:black" in marks
    texts = [t.get_text() for t in map_figure(view).findobj(lambda a: hasattr(a, "get_text"))]
    assert sum(DAGGER in t for t in texts) >= len([m for m in marks if m.startswith("estates:")])
    assert any(t == "estates" + DAGGER for t in texts)
    assert any(t.startswith("VP 4" + DAGGER) for t in texts)  # black's printed VP is provisional


def _hidden_perturbations(step, plan):
    """For each seat: the state with that seat's hidden parts changed (hand, plan, placed
    nobles while face down)."""
    for seat in step.state["seats"]:
        s = copy.deepcopy(step.state)
        hand = s["hand"][seat]  # how many nobles are in hand is public; which ones is not
        s["hand"][seat] = [(n + 1) % 6 for n in hand]
        s["plans"][seat] = list(plan)
        if not s["revealed"] and s["placed"][seat]:
            first = next(iter(s["placed"][seat]))
            s["placed"][seat][first] = (s["placed"][seat][first] + 1) % 6
        yield seat, s


LEAK_STEPS = {"gpr-1": (0, 9, 10, 25, 60, -1), "gpr-2": (11, 50)}


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_no_report_shows_another_seats_hidden_choice(seed):
    steps = _steps(seed)
    chance = Chance("leak:" + seed)
    nobles_step = next(i for i, s in enumerate(steps) if s.turn.endswith("/nobles"))
    before = steps[nobles_step - 1].state
    plan = [dict(o) for o in ENGINE.random_orders(before, before["seats"][0], chance.stream("plan"))]
    assert plan, "a nobles order to use as a hidden plan"
    for i in LEAK_STEPS[seed]:
        step = steps[i]
        base = {v: render_report(report_input(step, v, seed)) for v in viewers(step.state)}
        for seat, perturbed in _hidden_perturbations(step, plan):
            for viewer, a in base.items():
                b = render_report(report_input(step, viewer, seed, state=perturbed))
                same = a.text == b.text and a.html == b.html and a.images == b.images
                if viewer in (seat, GM):
                    assert not same, f"{step.turn}: {viewer}'s report misses {seat}'s own hidden parts"
                else:
                    assert same, f"{step.turn}: {viewer}'s report changed with {seat}'s hidden parts"


def test_every_derived_event_has_a_sentence():
    seen = set()
    for seed in SEEDS:
        for step in _steps(seed):
            for e in step.events:
                seen.add(e["type"])
    unknown = seen - set(SENTENCES)
    assert not unknown, f"derived events without a sentence: {sorted(unknown)}"
    assert {"Income", "Elections", "Campaign", "Invasion", "VictoryPoints", "GameOver"} <= seen


def test_story_tells_since_the_last_report_phase_by_phase():
    step = next(s for s in _steps(SEEDS[0]) if any(e["type"] == "RoundEnded" for e in s.events))
    groups = story(step.recent)
    heads = [h for h, _ in groups]
    assert heads and all(h.startswith("Round ") for h in heads)
    text = render_report(report_input(step, "white", SEEDS[0])).text
    assert "WHAT HAPPENED SINCE YOUR LAST REPORT" in text
    for _, lines in groups:
        assert lines[0].split()[0] in text


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS[:1])
def test_reports_are_deterministic_72_columns_and_complete(seed):
    steps = _steps(seed)
    due = list(due_steps(steps))
    for step in (due[0], due[len(due) // 2], due[-1]):
        for viewer in viewers(step.state):
            inp = report_input(step, viewer, seed)
            a = render_report(inp)
            clear_cache()
            b = render_report(report_input(step, viewer, seed))
            assert a.text == b.text and a.html == b.html and a.images == b.images
            assert a.images["map.png"].startswith(b"\x89PNG") and a.images["chart.png"].startswith(b"\x89PNG")
            long = [line for line in a.text.splitlines() if len(line) > 72]
            assert not long, long
            flat = " ".join(a.text.split())
            assert inp.seed_commitment in a.text.replace("\n", "") and inp.state_hash in a.text.replace("\n", "")
            if viewer == GM:  # in full for the GM; a player's first reports list them by what they are
                for p in inp.view["provisional"]:
                    assert " ".join(p.split(" (")[0].split()) in flat
            elif step.turn.startswith("r1/"):
                assert "the royal army table" in flat and "The GM's report lists each with its source." in flat
            else:  # elsewhere one line
                assert f"PROVISIONAL: {len(inp.view['provisional'])} figures in use are our own choice" in flat
            assert (seed in a.text) == step.state["over"]
            for key in ("Royal Prussia", "Lithuania", "Ukraine", "Little Poland", "Greater Poland", "Russians"):
                assert key in a.text
            if step.state["over"]:
                assert "The game is over" in a.text
            else:
                assert inp.view["pending"]["turn"] in a.text
                if viewer in inp.view["pending"]["seats"]:
                    assert "Your decision" in a.text
            assert '<img src="map.png"' in a.html and "<style" not in a.html.split("</head>", 1)[1]


def test_provisional_list_in_full_only_in_round_1_and_the_gms_reports():
    """The rule for every game: the provisional figures said once, not in every mail."""
    due = list(due_steps(_steps(SEEDS[0])))
    first = next(s for s in due if s.turn.startswith("r1/"))
    later = next(s for s in due if s.turn.startswith("r2/"))
    seat = later.state["seats"][0]

    def text(step, viewer):
        return " ".join(render_report(report_input(step, viewer, SEEDS[0])).text.split())

    short = text(later, seat)
    assert "figures in use are our own choice" in short and "- provisional:" not in short
    assert "mail HELP RULES" in short and "estate rows of" not in short
    assert "- provisional:" in text(later, GM) and "- provisional:" in text(first, GM)
    first_text = text(first, seat)  # a seat's first report: a plain short list, no developer detail
    assert "- estate rows of Royal Prussia" in first_text and "- provisional:" not in first_text
    assert "court_troops[" not in first_text


def test_no_box_of_the_map_covers_another():
    """Found by eye: Little Poland's box ran under Ukraine's and hid its estate track."""
    from reports.gods_playground import layout as L

    boxes = {**L.PROVINCE_BOXES, **{f"enemy:{k}": b for k, b in L.ENEMY_BOXES.items()},
             "centre": L.CENTRE_BOX, "legend": L.LEGEND_BOX, "note": L.NOTE_BOX}
    names = list(boxes)
    for i, a in enumerate(names):
        x, y, w, h = boxes[a]
        for b in names[i + 1:]:
            x2, y2, w2, h2 = boxes[b]
            assert not (x < x2 + w2 and x2 < x + w and y < y2 + h2 and y2 < y + h), (a, b)


def test_every_event_of_a_game_reaches_the_seats():
    """A derived event type the engine's ``event_view`` does not list would reach the GM's
    report only: each type a whole game emits must be listed as public."""
    from adjudicator.gods_playground.view import PUBLIC_EVENTS

    seen = {e["type"] for step in _steps(SEEDS[0]) for e in step.events}
    assert len(seen) >= 15 and seen <= PUBLIC_EVENTS, seen - PUBLIC_EVENTS
