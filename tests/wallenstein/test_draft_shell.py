"""The setup draft of rules 1.2 through the shell: each pick asked of its seat by mail, draft
lines kept as standing orders from any seat, the deadline's default told to the seat, and the
whole draft replayed from the log (rule 3.3: "Először a legidősebb játékos választ ... Utána a
tőle balra ülő játékos következik ... körbe és körbe")."""

from __future__ import annotations

from email import message_from_bytes, policy

from pbem.loop.demo import order_mail
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail

SEATS = [("red", "red@x.org"), ("blue", "blue@x.org"), ("green", "green@x.org")]


def _mail(service, created, seat, body, name):
    game = service.load("w1")
    raw = order_mail(game, seat, created.passwords[seat], body, service.store.clock(), service.sender)
    return Ingestor(service).ingest(RawMail(raw, name))


def _bodies(service, to):
    out = []
    for row in service.store.outbox():
        msg = message_from_bytes(row["message"], policy=policy.default)
        if msg["To"] == to:
            out.append((str(msg["Subject"]), msg.get_body(preferencelist=("plain",)).get_content()))
    return out


def test_the_draft_is_asked_pick_by_pick_by_mail(service):
    created = service.new_game("w1", "wallenstein", SEATS, {"setup": "draft"}, "draft-shell-seed")
    game = created.game
    assert (game.pending.turn, game.pending.seats) == ("setup/pick-1", ("red",))
    face = list(game.state["draft"]["face_up"])
    elsewhere = next(c for c in sorted(game.state["counties"]) if c not in face)

    # blue, not on turn, sends its whole draft in one mail: kept as standing orders
    outcome = _mail(service, created, "blue", "DRAFT DECK\nGROUPS 2 2 2 2 3 3 4 4 5", "blue.eml")
    assert outcome.outcome == "accepted", outcome.as_dict()
    assert [e.type for e in service.store.events("w1")].count("StandingOrders") == 1

    # red's lines must make its pick now: a wish that is not face up is refused in one line, nothing recorded
    outcome = _mail(service, created, "red", f"DRAFT {elsewhere}", "red-bad.eml")
    assert outcome.outcome == "rejected"
    assert "none of your wishes is face up now" in _bodies(service, "red@x.org")[-1][1]
    assert [e.type for e in service.store.events("w1")].count("StandingOrders") == 1

    outcome = _mail(service, created, "red", f"DRAFT {face[0]} WITH 2", "red.eml")
    assert outcome.outcome == "accepted", outcome.as_dict()
    service.adjudicate("w1")
    game = service.load("w1")
    # pick 1 (red's answer) and pick 2 (blue's standing DECK) are made; green sent nothing: it is asked
    assert [t["turn"] for t in game.turns] == ["setup/pick-1", "setup/pick-2"]
    assert game.state["counties"][face[0]] == {**game.state["counties"][face[0]], "owner": "red", "armies": 2}
    assert (game.pending.turn, game.pending.seats) == ("setup/pick-3", ("green",))
    moves = [(s, b) for s, b in _bodies(service, "green@x.org") if "your move" in s]
    assert moves and "setup draft, pick 3" in moves[-1][0]
    assert "Your decision (setup/pick-3): pick 3 of the setup draft." in " ".join(moves[-1][1].split())
    assert not [s for s, b in _bodies(service, "blue@x.org") if "your move" in s]  # blue's lines answer for it
    assert not [s for s, b in _bodies(service, "blue@x.org") if "report" in s.lower()]  # no report between picks

    # green lets the deadline pass: the top card of the deck, and green is told
    service.adjudicate("w1", force=True, force_turn="setup/pick-3")
    game = service.load("w1")
    notes = [e for e in game.turns[-1]["events"] if e["type"] == "ChosenForSeat"]
    assert [n["seat"] for n in notes] == ["green"] and notes[0]["decision"] == "pick"
    assert game.pending.turn == "setup/pick-4"

    # the whole log replays to the same state (standing orders applied where recorded)
    assert service.load("w1", verify=True).state_hash == game.state_hash
