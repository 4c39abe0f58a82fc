"""A forger's campaign against finished games' archives (all three games).

Each game is played by mail (real MIME order mails with the seats' passwords, ingested), then
exported. Every kind of field is edited, one at a time, the way a forger would: the hash chain
and the archive header are recomputed to match. Each forgery must be refused by ``replay
--verify`` and ``import``, or, for what nothing in an archive can prove (a masked mail whose
bytes and hash were both changed, a seat's address, the times and deadlines), be reported as
not verifiable: never passed as genuine.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adjudicator.chance import Chance
from pbem.archives.archive import export_game, import_archive, verify_archive
from pbem.loop.demo import bot_for, order_mail
from pbem.errors import DomainError
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from pbem.loop.service import Service
from pbem.store.db import GENESIS, Store, event_hash
from tests.clirun import run
from turns.games import format_orders

SEATS = {"havoc": ["yellow", "red", "black"], "wallenstein": ["red", "blue", "yellow"],
         "gods-playground": ["white", "blue", "red"]}
#: God's Playground is played a few decisions, then abandoned (a whole game takes a minute).
LIMIT = {"havoc": 400, "wallenstein": 20, "gods-playground": 8}


def _play(tmp_path: Path, game: str) -> Store:
    store = Store(tmp_path / f"{game}.db")
    service = Service(store, sender="gm@pbem.example")
    created = service.new_game("g1", game, [(s, f"{s}@players.example") for s in SEATS[game]], {},
                               f"tamper-seed-{game}")
    service.set_deadline("g1", "+3d")
    for step in range(LIMIT[game]):
        g = service.load("g1")
        if g.pending is None:
            break
        for seat in g.pending.seats:
            if step == 1:  # one decision missed: the missed-orders policy applies
                continue
            orders = bot_for(g, "heuristic")(g.state, seat, Chance("tamper").stream(f"{g.pending.turn}/{seat}"))
            text = f"TURN {g.pending.turn}\n" + format_orders(game, orders)
            raw = order_mail(g, seat, created.passwords[seat], text, store.clock(), service.sender)
            outcome = Ingestor(service).ingest(RawMail(raw, f"{step}.{seat}.eml"))
            assert outcome.outcome == "accepted", (outcome.outcome, outcome.reply)
        service.adjudicate("g1", force=True)
    if service.load("g1").pending is not None:
        service.abandon("g1", "the campaign has what it needs")
    return store


@pytest.fixture(scope="module")
def archives(tmp_path_factory) -> dict[str, dict[str, dict[str, Any]]]:
    out = {}
    for game in SEATS:
        store = _play(tmp_path_factory.mktemp(game), game)
        out[game] = {"published": export_game(store, "g1"), "backup": export_game(store, "g1", gm_backup=True)}
        store.close()
    return out


def forge(archive: dict[str, Any]) -> dict[str, Any]:
    """Recompute the chain and the header as a forger would."""
    prev = GENESIS
    for e in archive["events"]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(archive["game"], e["seq"], e["type"], e["version"], e["payload"],
                                      e["recorded_at"], e["prev_hash"])
    archive["last_hash"], archive["events_count"] = prev, len(archive["events"])
    archive["turns"] = [{"turn": e["payload"]["turn"], "seq": e["seq"], "state_hash": e["payload"]["state_hash"]}
                        for e in archive["events"] if e["type"] == "TurnAdjudicated"]
    created = archive["events"][0]["payload"]
    for key in ("engine", "engine_version", "options", "commitment", "data_files"):
        archive[key] = created[key]
    revealed = [e for e in archive["events"] if e["type"] == "SeedRevealed"]
    archive["seed"] = revealed[0]["payload"]["seed"] if revealed else None
    return archive


def _turns(a: dict[str, Any]) -> list[dict[str, Any]]:
    return [e["payload"] for e in a["events"] if e["type"] == "TurnAdjudicated"]


def _other(a: dict[str, Any], seat: str | None) -> str:
    return next(s for s in a["seats"] if s != seat)


def _last_winner(a):
    t = _turns(a)[-1]
    t["winner"] = _other(a, t.get("winner"))


def _early_winner(a):
    _turns(a)[0]["winner"] = a["seats"][0]


def _scores(a):
    t = _turns(a)[-1]
    t["scores"][a["seats"][0]] += 1


def _early_scores(a):
    t = _turns(a)[len(_turns(a)) // 2]
    t["scores"][a["seats"][-1]] += 2


def _over(a):
    t = _turns(a)[-1]
    t["over"] = not t["over"]
    a["over"] = any(x["over"] for x in _turns(a)) or any(e["type"] == "GameAbandoned" for e in a["events"])


def _early_over(a):
    _turns(a)[0]["over"] = True


def _defaulted_added(a):
    t = next(t for t in _turns(a) if set(t["orders"]) - set(t["defaulted"]))
    t["defaulted"].append(sorted(set(t["orders"]) - set(t["defaulted"]))[0])
    t["forced"] = True


def _defaulted_removed(a):
    t = next(t for t in _turns(a) if t["defaulted"])
    t["defaulted"].pop()
    t["forced"] = bool(t["defaulted"])


def _forced(a):
    t = _turns(a)[0]
    t["forced"] = not t["forced"]


def _state_hash(a):
    t = _turns(a)[1]
    t["state_hash"] = ("0" if t["state_hash"][0] != "0" else "1") + t["state_hash"][1:]


def _derived_event(a):
    t = next(t for t in _turns(a) if t["events"])
    t["events"].pop()


def _setup_event(a):
    a["events"][0]["payload"]["setup_events"].pop()


def _adjudicated_orders(a):
    t = next(t for t in _turns(a) if set(t["orders"]) - set(t["defaulted"]))
    seat = sorted(set(t["orders"]) - set(t["defaulted"]))[0]
    submitted = [e["payload"]["orders"] for e in a["events"] if e["type"] in ("OrdersSubmitted", "StandingOrders")]
    t["orders"][seat] = next(o for o in submitted if o != t["orders"][seat])


def _submitted_orders(a):
    subs = [e["payload"] for e in a["events"] if e["type"] in ("OrdersSubmitted", "StandingOrders")]
    first = subs[0]
    first["orders"] = next(s["orders"] for s in subs if s["orders"] != first["orders"])


def _submitted_text(a):
    subs = [e["payload"] for e in a["events"] if e["type"] in ("OrdersSubmitted", "StandingOrders")]
    first = subs[0]
    first["text"] = next(s["text"] for s in subs if s["text"] != first["text"])


def _turn_label(a):
    _turns(a)[-1]["turn"] += "x"


def _seed(a):
    for e in a["events"]:
        if e["type"] == "SeedRevealed":
            e["payload"]["seed"] = "another seed"


def _options(a):
    a["events"][0]["payload"]["options"]["forged"] = "1"


def _seat_order(a):
    seats = a["events"][0]["payload"]["seats"]
    seats[0], seats[1] = seats[1], seats[0]


def _masked_mail(a):
    mail = next(m for m in a["mails"] if m.get("masked"))
    raw = base64.b64decode(mail["raw"]).replace(b"regards", b"REGARDS")
    mail["raw"], mail["masked_sha256"] = base64.b64encode(raw).decode(), hashlib.sha256(raw).hexdigest()


def _mailed_source(a):
    return next(e["payload"]["source"] for e in a["events"] if e["type"] in ("OrdersSubmitted", "StandingOrders")
                and isinstance(e["payload"].get("source"), dict) and e["payload"]["source"].get("kind") == "mail")


def _source_message_id(a):
    _mailed_source(a)["message_id"] = "<another-mail@players.example>"


def _source_date(a):
    _mailed_source(a)["date"] = "2020-01-01T00:00:00+00:00"


def _mail_removed(a):
    wanted = _mailed_source(a)["raw_sha256"]
    a["mails"] = [m for m in a["mails"] if m["sha256"] != wanted]


def _address(a):
    a["events"][0]["payload"]["seats"][0]["email"] = "forger@elsewhere.example"


def _recorded_at(a):
    a["events"][2]["recorded_at"] = "2020-01-01T00:00:00Z"


def _deadline(a):
    e = next(e for e in a["events"] if e["type"] == "DeadlineSet")
    e["payload"]["deadline"] = "2020-01-01T00:00:00+00:00"


#: Each forgery: (name, edit, which archive, what a verification that accepts it must call unverifiable).
FORGERIES: list[tuple[str, Callable[[dict[str, Any]], None], str, str | None]] = [
    ("last winner", _last_winner, "published", None), ("winner before the end", _early_winner, "published", None),
    ("last scores", _scores, "published", None), ("scores of a middle turn", _early_scores, "published", None),
    ("over", _over, "published", None), ("over before the end", _early_over, "published", None),
    ("a seat marked defaulted", _defaulted_added, "published", None),
    ("a defaulted seat unmarked", _defaulted_removed, "published", None), ("forced", _forced, "published", None),
    ("state hash", _state_hash, "published", None), ("a derived event", _derived_event, "published", None),
    ("a setup event", _setup_event, "published", None),
    ("adjudicated orders", _adjudicated_orders, "published", None),
    ("submitted orders", _submitted_orders, "published", None),
    ("submitted order text", _submitted_text, "published", None), ("turn label", _turn_label, "published", None),
    ("seed", _seed, "published", None), ("options", _options, "published", None),
    ("seat order", _seat_order, "published", None),
    ("a masked mail and its hash", _masked_mail, "published", "masked"),
    ("the Message-ID an order's source names", _source_message_id, "published", None),
    ("the date an order's source names", _source_date, "published", None),
    ("a kept mail taken out", _mail_removed, "published", "does not hold"),
    ("a seat address", _address, "backup", "address"),
    ("an event's time", _recorded_at, "published", "times"), ("a deadline", _deadline, "published", "deadline"),
]


@pytest.mark.parametrize("game", list(SEATS))
@pytest.mark.parametrize("name,edit,which,unverifiable", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_every_forgery_is_refused_or_reported_unverifiable(archives, game, name, edit, which, unverifiable,
                                                          tmp_path):
    genuine = archives[game][which]
    assert verify_archive(copy.deepcopy(genuine)).ok
    forged = copy.deepcopy(genuine)
    edit(forged)
    forge(forged)
    assert forged != genuine
    result = verify_archive(forged)
    if unverifiable is None:
        assert not result.ok, f"{game}: the forged {name} verifies as genuine"
        with pytest.raises(DomainError, match="not genuine"):
            import_archive(Store(tmp_path / "x.db"), forged)
        return
    assert result.ok or result.problems, result
    assert any(unverifiable in note for note in result.unverifiable), (game, name, result.unverifiable)


def test_the_cli_refuses_a_forged_winner_in_one_line_and_names_what_it_cannot_check(archives, tmp_path):
    forged = forge(copy.deepcopy(archives["havoc"]["published"]))
    _last_winner(forged)
    forge(forged)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    out = run("replay", str(path), "--verify", code=1)
    assert "winner" in out and "Traceback" not in out and len(out.strip().splitlines()) == 1, out
    assert "not genuine" in run("--db", str(tmp_path / "a.db"), "import", str(path), code=1)
    genuine = tmp_path / "genuine.json"
    genuine.write_text(json.dumps(archives["havoc"]["published"]), encoding="utf-8")
    text = run("replay", str(genuine), "--verify")
    assert "not verifiable:" in text and "masked" in text, text
    data = json.loads(run("replay", str(genuine), "--verify", "--json"))
    assert data["verified"]["unverifiable"]
