"""Nothing published while a game runs carries what a seat may not see (all three games).

A running game is played through the CLI (bots' order texts, standing orders and plans sent
as a GM's texts), then everything a GM may hand out is made: the archive (with and without
mails), the readable record (and ``--chance``, refused), the site, the ``--json`` outputs, the
public report, and the same again from a database the archive was imported into. None of it
may hold:

- Havoc: a card name that no ``@public`` view ever showed (the deal of each hand, the draw
  pile's order, each private draw, a discard), nor a seat's standing orders;
- God's Playground: a seat's plan (its face-down nobles and bids) or its fingerprint;
- Wallenstein: the order of the face-down action cards or of the event deck;
- any game: the seed, and the orders of the turn not adjudicated yet.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from adjudicator.base import GM, PUBLIC, canonical_json, visible_events
from adjudicator.registry import get_engine
from pbem.store.events import fold_steps
from pbem.store.db import Store
from tests.clirun import run

SEATS = {"havoc": ["yellow", "red", "black"], "gods-playground": ["white", "blue", "red"],
         "wallenstein": ["red", "blue", "yellow"]}
STEPS = {"havoc": 12, "gods-playground": 3, "wallenstein": 1}
CARD = re.compile(r"\b(?:blue|brown|green|grey|orange|yellow)\d\d\b|\bdog\d\d\b")
#: Orders sent in advance, as a GM's order text for one seat (they stay that seat's secret).
ADVANCE = {"havoc": "STANDING JOIN: IF LAID <= 2 THEN JOIN 5 5 ELSE STAY\nSTANDING DISCARD: DISCARD LOWEST\n",
           "gods-playground": "NOBLES Lithuania 5, Ukraine 4, Royal Prussia 3, Little Poland 2, Greater Poland 1, "
                              "King 0\nBUY PASS\nBID 0\n"}


def _seed(game: str) -> str:
    return f"leak-seed-{game}-0123456789"


def _play(tmp_path: Path, game: str) -> str:
    db = str(tmp_path / "gm.db")
    seats = [a for s in SEATS[game] for a in ("--seat", f"{s}={s}@players.example")]
    run("--db", db, "new", "g1", "--game", game, *seats, "--seed", _seed(game), "--weak-seed")
    for step in range(STEPS[game]):
        if step == 1 and game in ADVANCE:  # one seat's orders sent in advance
            seat = SEATS[game][-1]
            text = tmp_path / "advance.txt"
            text.write_text(f"GAME g1 {seat}\n{ADVANCE[game]}END\n", encoding="utf-8")
            assert "accepted" in run("--db", db, "ingest", str(text))
        awaiting = json.loads(run("--db", db, "status", "g1", "--json"))["awaiting"]
        if awaiting:
            run("--db", db, "bots", "g1", *[a for s in awaiting for a in ("--seat", s)])
        run("--db", db, "adjudicate", "g1")
    awaiting = json.loads(run("--db", db, "status", "g1", "--json"))["awaiting"]
    run("--db", db, "bots", "g1", "--seat", awaiting[0])  # undecided orders: withheld
    return db


def _secrets(db: str, game: str) -> set[str]:
    """What no reader of a published file may learn while the game runs."""
    store = Store(db, readonly=True)
    try:
        events = store.events("g1")
        seed = store.secrets("g1")[0]
    finally:
        store.close()
    engine = get_engine(game)
    secrets = {seed}
    # orders sent in advance: a one-line answer used by its decision is public after it, a plan is not
    secrets |= {e.payload["text"] for e in events if e.type == "StandingOrders" and "\n" in e.payload["text"].strip()}
    state = list(fold_steps("g1", events, seed))[-1].state  # one game, updated in place: its last state
    last = max(e.seq for e in events if e.type == "TurnAdjudicated")
    undecided = [e for e in events if e.type in ("OrdersSubmitted", "StandingOrders") and e.seq > last]
    assert undecided, "the test game should hold undecided orders"
    secrets |= {e.payload["source"]["mail_key"] for e in undecided}  # the bytes of the text that carried them
    if game == "havoc":
        derived = list(events[0].payload["setup_events"])
        public = [engine.view(engine.create(SEATS[game], {}, seed)[0], PUBLIC)]
        for ev in events:
            if ev.type == "TurnAdjudicated":
                derived += ev.payload["events"]
        for step in fold_steps("g1", events, seed):
            public.append(engine.view(step.state, PUBLIC))
        public.append(visible_events(engine, derived, PUBLIC))
        seen = set(CARD.findall(canonical_json(public)))
        hidden = set(CARD.findall(canonical_json([derived, engine.view(state, GM)]))) - seen
        assert len(hidden) > 10, "the test game should hold hidden cards"
        secrets |= {f'"{card}"' for card in hidden} | {f" {card}" for card in hidden}
    if game == "gods-playground":
        secrets |= {k for s in SEATS[game] for k in engine.private_keys(state, s)}
        secrets |= {canonical_json(p) for p in state["plans"].values() if p}
    if game == "wallenstein":
        secrets.add(canonical_json(state["actions"][5:])[1:-1])
        secrets.add(canonical_json(state["events"]["deck"])[1:-1])
    return {s for s in secrets if s}


def _published(tmp_path: Path, db: str) -> dict[str, str]:
    """Every file and output a GM may hand out while the game runs, by name."""
    out: dict[str, str] = {}
    archive, bare, record = tmp_path / "g1.pbem.json", tmp_path / "bare.json", tmp_path / "g1.txt"
    out["export --json"] = run("--db", db, "export", "g1", "-o", str(archive), "--json")
    out["archive"] = archive.read_text(encoding="utf-8")
    run("--db", db, "export", "g1", "-o", str(bare), "--no-mail")
    out["archive --no-mail"] = bare.read_text(encoding="utf-8")
    run("--db", db, "export", "g1", "--format", "record", "-o", str(record))
    out["record"] = record.read_text(encoding="utf-8")
    out["record --chance"] = run("--db", db, "export", "g1", "--format", "record", "--chance", "-o",
                                 str(tmp_path / "chance.txt"), code=1)
    out["site --json"] = run("--db", db, "site", "g1", "--out", str(tmp_path / "site"), "--json")
    for path in sorted((tmp_path / "site").rglob("*")):
        if path.is_file() and path.suffix in (".html", ".txt", ".json"):
            out[f"site {path.relative_to(tmp_path)}"] = path.read_text(encoding="utf-8")
    run("--db", db, "report", "g1", "--public", "--out", str(tmp_path / "public"))
    for path in sorted((tmp_path / "public").rglob("*")):
        if path.is_file() and path.suffix in (".html", ".txt"):
            out[f"report {path.name}"] = path.read_text(encoding="utf-8")
    for args in (["show", "g1", "--public", "--json"], ["status", "g1", "--json"], ["status", "--json"],
                 ["games", "--json"]):
        out[" ".join(args)] = run("--db", db, *args)
    out["replay FILE --json"] = run("replay", str(archive), "--json", code=1)
    out["replay FILE --verify --json"] = run("replay", str(archive), "--verify", "--json")
    other = str(tmp_path / "other.db")
    out["import --json"] = run("--db", other, "import", str(archive), "--json")
    for args in (["log", "g1", "--json"], ["status", "g1", "--json"], ["replay", "g1", "--verify", "--json"]):
        out["imported: " + " ".join(args)] = run("--db", other, *args)
    run("--db", other, "export", "g1", "-o", str(tmp_path / "again.json"))
    out["imported: export"] = (tmp_path / "again.json").read_text(encoding="utf-8")
    return out


def _leaks(outputs: dict[str, str], secrets: set[str]) -> list[str]:
    found = []
    for name, text in outputs.items():
        for secret in secrets:
            if secret in text or json.dumps(secret)[1:-1] in text:
                found.append(f"{name}: {secret[:60]!r}")
    return found


@pytest.mark.parametrize("game", ["havoc", "gods-playground", "wallenstein"])
def test_nothing_published_while_a_game_runs_holds_what_a_seat_may_not_see(tmp_path, game):
    db = _play(tmp_path, game)
    secrets = _secrets(db, game)
    leaks = _leaks(_published(tmp_path, db), secrets)
    assert not leaks, f"{len(leaks)} leaks, e.g. " + "; ".join(leaks[:8])


def _archive(tmp_path: Path, db: str) -> dict[str, Any]:
    path = tmp_path / "g1.pbem.json"
    run("--db", db, "export", "g1", "-o", str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_running_havoc_archive_says_what_it_checked_and_what_is_sealed(tmp_path):
    db = _play(tmp_path, "havoc")
    archive = _archive(tmp_path, db)
    assert archive["sealed"] > 0 and archive["seal"] == "hmac-sha256/seed"
    text = run("replay", str(tmp_path / "g1.pbem.json"), "--verify")
    assert "sealed" in text and "checkable when the game ends" in text, text
    data = json.loads(run("replay", str(tmp_path / "g1.pbem.json"), "--verify", "--json"))
    assert data["replayed"] is False and any("sealed" in n for n in data["not_checked"])


def _rechain(archive: dict[str, Any]) -> None:
    from pbem.store.db import GENESIS, event_hash

    prev = GENESIS
    for e in archive["events"]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(archive["game"], e["seq"], e["type"], e["version"], e["payload"],
                                      e["recorded_at"], e["prev_hash"])
    archive["last_hash"] = prev


@pytest.mark.parametrize("game", ["havoc", "gods-playground", "wallenstein"])
def test_the_finished_game_proves_what_its_running_archive_sealed(tmp_path, game):
    db = _play(tmp_path, game)
    running = _archive(tmp_path, db)
    early = tmp_path / "early.json"
    early.write_text(json.dumps(running), encoding="utf-8")
    if game == "havoc":  # played to its end
        for _ in range(200):
            if json.loads(run("--db", db, "status", "g1", "--json"))["over"]:
                break
            run("--db", db, "adjudicate", "g1", "--force")
    else:
        run("--db", db, "abandon", "g1", "--reason", "the test is over")
    final = tmp_path / "final.json"
    run("--db", db, "export", "g1", "-o", str(final))
    done = json.loads(final.read_text(encoding="utf-8"))
    assert done["over"] and done["seed"] == _seed(game) and "sealed" not in done
    result = json.loads(run("replay", str(final), "--verify", "--earlier", str(early), "--json"))
    assert result["verified"]["ok"] and result["verified"]["replayed"]
    assert any("matches its commitment" in c for c in result["verified"]["checked"]), result
    if not running.get("sealed"):
        return
    # a running archive whose sealed card was swapped (chain recomputed) is refused
    forged = json.loads(early.read_text(encoding="utf-8"))
    event = next(e for e in forged["events"] if "sealed" in json.dumps(e["payload"]))
    text = json.dumps(event["payload"])
    seal = re.search(r'"sealed": "([0-9a-f]{64})"', text).group(1)
    event["payload"] = json.loads(text.replace(seal, "0" * 64, 1))
    _rechain(forged)
    early.write_text(json.dumps(forged), encoding="utf-8")
    assert "is not what the finished game shows" in run("replay", str(final), "--verify", "--earlier", str(early),
                                                        code=1)
