"""A new player takes a seat mid-game (docs/gm-guide.md, "A new player takes a seat"): the
new player's welcome says they take over a game under way, and the player who is replaced
is told, at the old address, that it no longer plays the seat (without the new address).
A new password for the same address (a lost password) tells neither."""

from __future__ import annotations

from tests.clirun import SEATS, run
from tests.loop.mailrun import text
from pbem.store.db import Store


def _game(tmp_path) -> str:
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--deadline-every", "72h")
    run("--db", db, "adjudicate", "w1", "--force")  # spring 1618 played without orders
    return db


def _mail(db: str, kind: str, to: str) -> list[str]:
    return [text(r) for r in Store(db).outbox() if r["kind"] == kind and r["to_addr"] == to]


def test_the_new_player_is_told_they_take_over_and_the_old_one_is_told(tmp_path):
    db = _game(tmp_path)
    run("--db", db, "seat", "w1", "red", "--email", "zoe@example.org", "--new-password")
    (welcome,) = _mail(db, "welcome", "zoe@example.org")
    flat = " ".join(welcome.split())
    assert "You take over this seat in a game under way: 1 turn has been played (the last: spring 1618)" \
        in flat, welcome[:600]
    assert "Your current position follows" in welcome
    (left,) = _mail(db, "seat", "red@example.org")
    assert "the GM has given your seat 'red' to another player, with a new password" in " ".join(left.split())
    assert "zoe@example.org" not in left


def test_a_new_address_alone_tells_the_old_address(tmp_path):
    db = _game(tmp_path)
    run("--db", db, "seat", "w1", "red", "--email", "anna@new.example")
    (left,) = _mail(db, "seat", "red@example.org")
    assert "the GM has given your seat 'red' another address." in left and "anna@new.example" not in left
    assert not _mail(db, "welcome", "anna@new.example")  # the same player: no new welcome


def test_a_new_password_for_the_same_address_is_no_takeover(tmp_path):
    db = _game(tmp_path)
    run("--db", db, "seat", "w1", "red", "--new-password")
    welcomes = _mail(db, "welcome", "red@example.org")
    assert len(welcomes) == 2 and "take over" not in welcomes[-1]
    assert not _mail(db, "seat", "red@example.org")
