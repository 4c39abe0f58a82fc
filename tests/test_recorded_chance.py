"""Recorded chance: a record whose CHANCE lines replace the seed.

Round trips over seeded games of every engine: draw with the seed while writing every
outcome down, then replay from the written lines alone: the same states, derived events
and reports. ``PBEM_SLOW=1`` plays more seeds.
"""

from __future__ import annotations

import os
from pathlib import Path
import re

import pytest

from adjudicator.base import canonical_json, state_hash
from adjudicator.chance import Chance
from adjudicator.recorded import ChanceLineError, RecordingSeed, label_words, merged_lines, seed_text
from adjudicator.registry import get_engine
from pbem.errors import DomainError
from pbem.archives.records import import_record, record_of
from pbem.mailout.reporting import history, render_turn
from pbem.loop.service import Service
from pbem.store.db import Store
from turns.games import format_orders
from turns.record import read_record, write_record

GAMES = {"wallenstein": (["red", "blue", "yellow"], 9), "havoc": (["anita", "peter", "kriszta", "jeno"], 400),
         "gods-playground": (["a", "b", "c"], 200)}
SEEDS = [f"seed-{i}" for i in range(40 if os.environ.get("PBEM_SLOW") else 3)]


def _play(engine_name: str, seed: str, orders_log: list | None = None) -> tuple[list, list]:
    """Play random orders from ``seed`` (or replay ``orders_log``): every state hash and event list."""
    engine = get_engine(engine_name)
    seats, turns = GAMES[engine_name]
    state, events = engine.create(seats, {}, seed)
    out, log, rng = [(state_hash(state), canonical_json(events))], [], Chance("bots:" + seed).stream("orders")
    for t in range(turns if orders_log is None else len(orders_log)):
        pending = engine.pending(state)
        if pending is None:
            break
        orders = orders_log[t] if orders_log else {s: engine.random_orders(state, s, rng) for s in pending.seats}
        log.append(orders)
        state, events = engine.advance(state, orders, seed)
        out.append((state_hash(state), canonical_json(events)))
    return out, log


@pytest.mark.parametrize("engine_name", sorted(GAMES))
@pytest.mark.parametrize("seed", SEEDS)
def test_written_chance_replays_to_the_same_states(engine_name, seed):
    played, orders = _play(engine_name, seed)
    recording = RecordingSeed(seed)
    assert _play(engine_name, recording, orders)[0] == played  # writing down changes nothing
    lines = merged_lines(recording.log)
    assert lines and all(re.fullmatch(r"[^:]+: (order|picked|rolled|number|out|hands) .+", line) for line in lines)
    assert _play(engine_name, seed_text(lines), orders)[0] == played
    again = RecordingSeed(seed_text(lines))  # the recorded game writes the same lines again
    _play(engine_name, again, orders)
    assert merged_lines(again.log) == lines


def test_label_words():
    assert label_words("wallenstein/1618/summer/battle/2/tower") == "1618-summer battle 2 tower"
    assert label_words("wallenstein/setup/deal") == "setup deal"
    assert label_words("havoc/b3/deck/reshuffle/1") == "b3 deck reshuffle 1"
    assert label_words("gods_playground/3/campaign/2") == "round 3 campaign 2"
    assert label_words("gods_playground/setup/start") == "setup start"


def _service_game(service: Service, engine_name: str, seed: str, turns: int) -> str:
    """A game played through the service with random orders (so it has a log to export)."""
    engine = get_engine(engine_name)
    seats, _ = GAMES[engine_name]
    service.new_game("g1", engine_name, [(s, f"{s}@example.org") for s in seats], {}, seed)
    rng = Chance("bots:" + seed).stream("orders")
    for _ in range(turns):
        game = service.load("g1")
        if game.pending is None:
            break
        for seat in game.pending.seats:
            orders = engine.random_orders(game.state, seat, rng)
            service.submit("g1", seat, orders, format_orders(engine_name, orders), {"kind": "gm"})
        service.adjudicate("g1", force=True)
    return "g1"


def _reports(store: Store, game_id: str) -> list[tuple[str, str, str]]:
    """The first and last turns' report texts (the footer's hash and seed lines left out: they differ by design)."""
    service = Service(store)
    game = service.load(game_id)
    out = []
    for payload in [game.turns[0], game.turns[-1]]:
        at = service.load(game_id, until_turn=payload["turn"])
        for report in render_turn(at, payload, history(game_id, store.events(game_id), game.seed,
                                                       until=payload["turn"])):
            text = "\n".join(line for line in report.rendered.text.splitlines()
                             if not re.match(r"(Seed|State hash|Commitment|Chance)\b|[0-9a-f]{64}$", line))
            out.append((payload["turn"], report.viewer, text))
    return out


@pytest.mark.parametrize("engine_name,turns", [pytest.param("wallenstein", 4, marks=pytest.mark.slow), ("havoc", 30),
                                               pytest.param("gods-playground", 12, marks=pytest.mark.slow)])
def test_export_with_chance_drop_seed_import_same_states_and_reports(tmp_path, service, engine_name, turns):
    game_id = _service_game(service, engine_name, "round-trip", turns)
    game = service.load(game_id)
    text = write_record(record_of(game, service.store.events(game_id), chance=True))
    assert "\nCHANCE " in text and "[Seed" not in text  # a running game: no seed written
    other = Store(tmp_path / "historical.db")
    imported = import_record(other, text)
    assert imported.created["chance"] == "recorded" and len(imported.turns) == len(game.turns)
    assert state_hash(imported.state) == state_hash(game.state)
    for mine, theirs in zip(game.turns, imported.turns):
        assert canonical_json(mine["events"]) == canonical_json(theirs["events"])
    assert _reports(other, game_id) == _reports(service.store, game_id)
    last = imported.turns[-1]
    footer = render_turn(imported, last, [], only=["@gm"])[0].rendered.text
    assert "Chance: recorded at the table, not drawn from a seed." in footer
    assert Service(other).load(game_id, verify=True).state_hash == imported.state_hash
    again = write_record(record_of(imported, other.events(game_id)))  # the historical game's own record
    assert '[Chance "recorded"]' in again and import_record(Store(tmp_path / "again.db"), again).state_hash \
        == imported.state_hash


def test_a_changed_tower_line_is_refused_with_its_line_number(tmp_path, service):
    game_id = _service_game(service, "wallenstein", "tower-check", 2)
    text = write_record(record_of(service.load(game_id), service.store.events(game_id), chance=True))
    lines = text.splitlines()
    n, line = next((i, l) for i, l in enumerate(lines, 1) if re.match(r"CHANCE 1618-spring battle \d+ for ", l))
    words = line[len("CHANCE "):line.index(":")]
    out = line.split(": out ")[1].split(";")[0]
    colour = out.split(",")[0].split()[0]
    lines[n - 1] = f"CHANCE {words}: out {colour} 99"
    with pytest.raises(DomainError, match=rf"^line {n}: {words}: 99 {colour} cubes fell out, but only \d+ were"):
        import_record(Store(tmp_path / "x.db"), "\n".join(lines))
    assert read_record(text).turns  # the untouched text still reads


def _template(tmp_path, *args: str) -> str:
    from click.testing import CliRunner

    from pbem.cli.main import cli

    out = tmp_path / "table.txt"
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "t.db"), "record", "template", *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("engine_name,seats", [("wallenstein", ["red", "blue", "yellow"]),
                                               ("havoc", ["anita", "peter", "kriszta", "jeno"])])
def test_template_is_a_record_that_imports_as_it_is(tmp_path, engine_name, seats):
    text = _template(tmp_path, "--game", engine_name, *[a for s in seats for a in ("--seat", s)])
    record = read_record(text)
    assert record.header("Chance") == "recorded" and record.chance
    assert record.turns[0].orders and all(s in seats and o is None for s, o in record.turns[0].orders.items())
    assert any("EXAMPLE" in note for note in record.notes)
    if engine_name == "havoc":  # the hint says the deal line's own form
        assert any("deal initial: hands <seat>" in note and "deck reshuffle" in note for note in record.notes)
    game = import_record(Store(tmp_path / "h.db"), text)
    assert game.created["chance"] == "recorded" and len(game.turns) == 1


def _wallenstein_record(tmp_path, turns: int = 3) -> list[str]:
    service = Service(Store(tmp_path / "w.db"))
    game_id = _service_game(service, "wallenstein", "lines", turns)
    return write_record(record_of(service.load(game_id), service.store.events(game_id), chance=True)).splitlines()


def test_missing_left_over_and_wrong_lines_are_refused_by_line(tmp_path):
    lines = _wallenstein_record(tmp_path)
    at = {l.split(":")[0]: i for i, l in enumerate(lines, 1) if l.startswith("CHANCE ")}
    summer = next(i for i, l in enumerate(lines, 1) if l == "= 1618-summer")

    def refused(changed: list[str], pattern: str) -> None:
        with pytest.raises(DomainError, match=pattern):
            import_record(Store(tmp_path / f"x{len(pattern)}.db"), "\n".join(changed))

    event = at["CHANCE 1618-summer event"]
    gone = lines[:event - 1] + lines[event:]  # the summer's event line left out
    refused(gone, rf"^line {summer} \(turn 1618-summer\): 1618-summer event: the game draws here but the record "
                  r"has no line for it: add one such as 'CHANCE 1618-summer event: picked")
    extra = lines[:event] + ["CHANCE 1618-summer event: picked grain_max_3"] + lines[event:]
    refused(extra, rf"^line {event + 1}: 1618-summer event: the game makes no such draw in turn 1618-summer")
    wrong = list(lines)
    wrong[event - 1] = "CHANCE 1618-summer event: picked no_such_card"
    refused(wrong, rf"^line {event}: 1618-summer event: 'no_such_card' is not one of ")
    wrong[event - 1] = "CHANCE 1618-summer event: rolled 3"
    refused(wrong, rf"^line {event}: 1618-summer event: the game draws 'picked \.\.\.' here")


def test_until_imports_a_game_still_being_transcribed(tmp_path):
    lines = _wallenstein_record(tmp_path)
    autumn = lines.index("= 1618-autumn")
    broken = lines[:autumn] + ["= 1618-autumn", "- red", "  NONSENSE"]  # the autumn is not typed in yet
    with pytest.raises(DomainError, match=rf"^line {autumn + 2}: turn 1618-autumn, red: "):
        import_record(Store(tmp_path / "a.db"), "\n".join(broken))
    game = import_record(Store(tmp_path / "b.db"), "\n".join(broken), until="1618-summer")
    assert [t["turn"] for t in game.turns] == ["1618-spring", "1618-summer"] and game.pending.turn == "1618-autumn"
    with pytest.raises(DomainError, match="has no turn '1619-spring'"):
        import_record(Store(tmp_path / "c.db"), "\n".join(broken), until="1619-spring")


def test_a_historical_game_is_not_adjudicated_further(tmp_path):
    text = _template(tmp_path, "--game", "wallenstein", "--seat", "red", "--seat", "blue", "--seat", "yellow")
    store = Store(tmp_path / "h.db")
    import_record(store, text)
    with pytest.raises(DomainError, match="historical game .* type its next turns into its record"):
        Service(store).adjudicate("table-1", force=True)
    assert len(Service(store).load("table-1").turns) == 1


def test_cli_export_chance_of_a_finished_game_drop_seed_import_verify(tmp_path, service):
    from click.testing import CliRunner

    from pbem.cli.main import cli

    service.new_game("t1", "toy-dice-duel", [("red", "r@x.org"), ("blue", "b@x.org")], {"rounds": "2"}, "cli-chance")
    run, db = CliRunner(), service.store.path
    out = tmp_path / "t1.txt"
    refused = run.invoke(cli, ["--db", db, "export", "t1", "--format", "record", "--chance", "-o", str(out)])
    assert refused.exit_code == 1 and "is running" in refused.output  # the outcomes are secret until the end
    for _ in range(2):
        service.adjudicate("t1", force=True)
    assert run.invoke(cli, ["--db", db, "export", "t1", "--format", "record", "--chance", "-o", str(out)]).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "CHANCE toy round-1: rolled " in text and '[Seed "cli-chance"]' in text
    out.write_text("\n".join(l for l in text.splitlines() if not l.startswith("[Seed ")) + "\n", encoding="utf-8")
    other = str(tmp_path / "h.db")
    result = run.invoke(cli, ["--db", other, "import", str(out), "--json"])
    assert result.exit_code == 0 and '"chance": "recorded"' in result.output
    assert '"state_hashes_checked": 2' in result.output  # the plain hashes of --chance, checked without the seed
    verified = run.invoke(cli, ["--db", other, "replay", "t1", "--verify"])
    assert verified.exit_code == 0 and "reproduced" in verified.output
    archive = tmp_path / "t1.json"
    assert run.invoke(cli, ["--db", other, "export", "t1", "-o", str(archive)]).exit_code == 0
    again = run.invoke(cli, ["--db", str(tmp_path / "a.db"), "import", str(archive)])
    assert again.exit_code == 0 and "genuine" in again.output


def test_a_seeded_record_s_chance_lines_must_say_what_the_seed_drew(tmp_path, service):
    game_id = _service_game(service, "wallenstein", "seeded-lines", 1)
    record = record_of(service.load(game_id), service.store.events(game_id), reveal_seed=True, chance=True)
    text = write_record(record)
    assert '[Seed "seeded-lines"]' in text
    assert import_record(Store(tmp_path / "ok.db"), text).created.get("chance") is None  # the seed draws
    lines = text.splitlines()
    n, line = next((i, l) for i, l in enumerate(lines, 1) if l.startswith("CHANCE 1618-spring event: picked "))
    lines[n - 1] = "CHANCE 1618-spring event: picked no_such_card"
    with pytest.raises(DomainError, match=rf"^line {n}: the seed draws '{re.escape(line[7:])}' here, the line says "):
        import_record(Store(tmp_path / "bad.db"), "\n".join(lines))


_MUTATIONS = ["", "order", "order ,,,", "picked", "rolled", "rolled x, 7", "number", "number -1", "out", "out ; stayed",
              "out red", "out red 1, red x", "hands", "hands ;;", "hands nobody a, b", "out peasants 1; stayed none",
              "order " + "Anhalt, " * 40, "picked " + "x" * 300]


@pytest.mark.parametrize("record", ["wallenstein", "havoc"])
def test_any_garbled_chance_line_is_a_plain_refusal_never_a_crash(tmp_path, record):
    path = {"wallenstein": "wallenstein/records/combat_example_3.txt", "havoc": "havoc/records/example_game.txt"}
    lines = (Path(__file__).parent / path[record]).read_text(encoding="utf-8").splitlines()
    chance = [i for i, line in enumerate(lines) if line.startswith("CHANCE ")]
    tried = 0
    for i in chance:
        words = lines[i][len("CHANCE "):].split(":")[0]
        for outcome in _MUTATIONS:
            changed = list(lines)
            changed[i] = f"CHANCE {words}: {outcome}"
            try:
                import_record(Store(tmp_path / f"m{tried}.db"), "\n".join(changed))
            except DomainError as exc:
                assert str(exc).startswith("line ") or "CHANCE" in str(exc), str(exc)
            tried += 1
    assert tried == len(chance) * len(_MUTATIONS)


def test_a_havoc_reshuffle_line_names_its_battle_and_the_old_b_line_still_reads():
    played, orders = _play("havoc", "seed-0")
    recording = RecordingSeed("seed-0")
    _play("havoc", recording, orders)
    lines = merged_lines(recording.log)
    named = [line for line in lines if re.match(r"battle \d+ deck reshuffle \d+: order ", line)]
    assert named  # this seed's random play runs the deck out
    old = [re.sub(r"^battle (\d+) deck", r"b\1 deck", line) for line in lines]
    assert old != lines and _play("havoc", seed_text(old), orders)[0] == played


@pytest.mark.parametrize("seats,dealt", [(["red", "blue", "yellow"], 27), (["red", "blue", "yellow", "green"], 32)])
def test_wallenstein_template_names_only_the_cards_the_setup_uses_and_says_how_they_are_dealt(tmp_path, seats, dealt):
    text = _template(tmp_path, "--game", "wallenstein", *[a for s in seats for a in ("--seat", s)])
    record = read_record(text)
    lines = dict(line.split(": order ", 1) for line in record.chance if ": order " in line)
    assert len(lines["setup deal"].split(", ")) == dealt  # rule 3.3: 9 groups of 3 seats, 8 of 4
    assert len(lines["setup events"].split(", ")) == 4  # rule 3.4: four turned up
    assert any(f"the {dealt} county cards as dealt" in n and ", ".join(seats) in n for n in record.notes)
    assert any("battle N for <county>" in n for n in record.notes)
    assert import_record(Store(tmp_path / "h.db"), text).created["chance"] == "recorded"


def test_a_seeded_record_may_name_battles_the_older_way_or_without_their_number(tmp_path, service):
    game_id = _service_game(service, "wallenstein", "tower-check", 2)
    text = write_record(record_of(service.load(game_id), service.store.events(game_id), reveal_seed=True, chance=True))
    assert re.search(r"^CHANCE 1618-spring battle \d+ for ", text, re.M) and "[Seed " in text
    want = import_record(Store(tmp_path / "a.db"), text).state_hash
    older = re.sub(r"^(CHANCE 1618-\w+ battle \d+) for [^:]+:", r"\1 tower:", text, flags=re.M)
    unnumbered = re.sub(r"^(CHANCE 1618-\w+ battle) \d+ for ", r"\1 for ", text, flags=re.M)
    assert older != text != unnumbered
    assert import_record(Store(tmp_path / "b.db"), older).state_hash == want
    assert import_record(Store(tmp_path / "c.db"), unnumbered).state_hash == want
    n = next(i for i, line in enumerate(older.splitlines(), 1) if re.match(r"CHANCE 1618-spring battle \d+ tower", line))
    wrong = older.splitlines()
    wrong[n - 1] = re.sub(r"tower: out .*", "tower: out peasants 0", wrong[n - 1])
    with pytest.raises(DomainError, match=rf"^line {n}: the seed draws '1618-spring battle \d+ for "):
        import_record(Store(tmp_path / "d.db"), "\n".join(wrong))


def _gp_lines(seed: str) -> tuple[list, list, list[str]]:
    played, orders = _play("gods-playground", seed)
    recording = RecordingSeed(seed)
    _play("gods-playground", recording, orders)
    return played, orders, merged_lines(recording.log)


def test_gods_playground_dice_are_named_in_the_game_s_words():
    """Every God's Playground chance line names what was rolled for, never the internal step."""
    seen = set()
    for seed in SEEDS:
        played, orders, lines = _gp_lines(seed)
        assert not [line for line in lines if re.match(r"round \d+ \w+ \d+", line)]  # no 'round 1 campaign 32'
        for line in lines[1:]:
            words = line.split(": ")[0]
            kind = re.fullmatch(r"round [1-4] (events|invasions|\w+'s campaign against the [\w ]+|\w+'s counterattack on "
                                r"\w+|\w+'s diplomacy die|defence of \w+ against the [\w ]+|\w+ raid from \w+, odd cube)",
                                words)
            assert kind, line
            seen.add(next(k for k in ("events", "invasions", "campaign", "counterattack", "diplomacy", "defence", "raid")
                          if k in words))
        assert _play("gods-playground", seed_text(lines), orders)[0] == played
    assert {"events", "invasions", "campaign", "defence"} <= seen


def test_gods_playground_repeated_words_are_the_next_such_line():
    """seed-0's random play has seat c campaign twice against the Turks in round 1: its two
    rolls may be written as two lines (or one) and a second replay reads them the same way."""
    played, orders, lines = _gp_lines("seed-0")
    recording = RecordingSeed("seed-0")
    _play("gods-playground", recording, orders)
    words = "round 1 c's campaign against the Turks"
    rolls = [outcome for w, outcome in recording.log if w == words]
    assert [line.split(": ")[0] for line in lines].count(words) >= 2  # one line per campaign
    joined = [line for line in lines if not line.startswith(words + ": ")]
    joined.insert(lines.index(next(line for line in lines if line.startswith(words))),
                  f"{words}: rolled " + ", ".join(r.split(" ")[1] for r in rolls))
    assert _play("gods-playground", seed_text(joined), orders)[0] == played  # or both on one line
    split = []
    for line in lines:
        if line.startswith(words + ": "):
            dice = line.split(": rolled ")[1].split(", ")
            split += [f"{words}: rolled {', '.join(dice[:3])}", f"{words}: rolled {', '.join(dice[3:])}"]
        else:
            split.append(line)
    assert len(rolls) > 3 and split != lines
    text = seed_text(split)
    assert _play("gods-playground", text, orders)[0] == played
    assert _play("gods-playground", text, orders)[0] == played  # the same again on the cached lines


def test_gods_playground_wrong_enemy_is_refused_with_line_number_and_sentence():
    played, orders, lines = _gp_lines("seed-0")
    n = next(i for i, line in enumerate(lines) if line.startswith("round 2 b's campaign against the Russians"))
    lines[n] = lines[n].replace("against the Russians", "against the Tatars")
    with pytest.raises(ChanceLineError) as caught:
        _play("gods-playground", seed_text(lines), orders)
    assert caught.value.line == n + 1
    assert str(caught.value) == (f"line {n + 1}: round 2 b's campaign against the Tatars: round 2 b's campaign was "
                                 "against the Russians, not against the Tatars")


def test_gods_playground_old_numbered_lines_still_read(monkeypatch):
    """Records written before the dice were named (``round 2 campaign 14``) replay the same."""
    from adjudicator.gods_playground import state as gp_state

    played, orders, lines = _gp_lines("seed-1")
    named = gp_state.Ctx.stream
    monkeypatch.setattr(gp_state.Ctx, "stream", lambda self, *parts, words="": named(self, *parts))
    old = RecordingSeed("seed-1")
    _play("gods-playground", old, orders)
    monkeypatch.undo()
    old_lines = merged_lines(old.log)
    assert any(re.match(r"round \d+ campaign \d+: rolled ", line) for line in old_lines) and old_lines != lines
    assert _play("gods-playground", seed_text(old_lines), orders)[0] == played


def test_gods_playground_template_hint_names_the_dice_in_the_game_s_words(tmp_path):
    text = _template(tmp_path, "--game", "gods-playground", "--seat", "white", "--seat", "blue", "--seat", "red")
    notes = " ".join(read_record(text).notes)
    assert "'round 2 white's campaign against the Tatars: rolled 5, 3, 1'" in notes
    assert "round 3 blue's diplomacy die: rolled 5" in notes and "named by round and step" not in notes
    assert import_record(Store(tmp_path / "h.db"), text).created["chance"] == "recorded"
