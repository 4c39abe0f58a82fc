"""End to end: whole games driven only by ``pbem tick`` runs with a fake clock.

Real MIME goes both ways: the outbox is delivered to an aiosmtpd server on 127.0.0.1, and
bot players answer only the mails they receive there (the password from their welcome
mail, the orders from the engine's bot) by writing order mails into a Maildir that the
next ``tick`` ingests. One seat stays silent for one turn, so reminders, the deadline and
the missed-orders default are exercised too. The test checks that a seat is never awaited
without having been told so by mail.
"""

from __future__ import annotations

import json
import mailbox
import re
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy

import pytest
from click.testing import CliRunner

from adjudicator.chance import Chance
from pbem.cli.app import App
from pbem.cli.main import cli
from pbem.loop.demo import bot_for, order_mail
from pbem.loop.service import Service
from pbem.store.db import Store
from tests.mail.servers import smtp  # noqa: F401  (the fixture)
from tests.mail.test_deliver import Recorder

pytest.importorskip("aiosmtpd")


class Clock:
    """A settable clock; each reading is one second later (stable ordering of records)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


class Table:
    """The players: bots that answer the mails they receive."""

    def __init__(self, db: str, game_id: str, seats: dict[str, str], inbox: mailbox.Maildir, silent: tuple) -> None:
        self.db, self.game_id, self.inbox, self.silent = db, game_id, inbox, silent
        self.seat_of = {addr: seat for seat, addr in seats.items()}
        self.passwords: dict[str, str] = {}
        self.told: dict[str, set[str]] = {s: set() for s in seats}  # turns a seat was told about
        self.answered: set[tuple[str, str]] = set()
        self.kinds: list[str] = []
        self.chance = Chance("tick-bots")

    def read(self, messages: list[tuple[str, list[str], bytes]], clock: Clock) -> int:
        """Read new mail; answer what is due; return how many order mails were written."""
        service = Service(Store(self.db, clock=clock))
        game = service.load(self.game_id)
        pending = game.pending
        written = 0
        for _, rcpts, raw in messages:
            msg = message_from_bytes(raw, policy=policy.default)
            kind = str(msg["X-PBEM-Loop"] or "")
            self.kinds.append(kind)
            seat = self.seat_of.get(rcpts[0])
            if seat is None:
                continue
            text = msg.get_body(preferencelist=("plain",)).get_content()
            found = re.search(r"Your password: (\S+)", text)
            if found:
                self.passwords[seat] = found.group(1)
            if pending is not None and kind in ("welcome", "your-move", "report", "reminder", "deadline"):
                self.told[seat].add(pending.turn)
        if pending is None:
            return 0
        for seat in service.awaited(game):
            key = (seat, pending.turn)
            if pending.turn not in self.told[seat] or key in self.answered or key in self.silent:
                continue
            orders = bot_for(game, "random")(game.state, seat, self.chance.stream(f"{pending.turn}/{seat}"))
            from turns.games import format_orders

            text = format_orders(game.engine.name, orders)
            self.inbox.add(order_mail(game, seat, self.passwords[seat], text, clock.now, "gm@pbem.example"))
            self.answered.add(key)
            written += 1
        return written


def _tick(db: str, clock: Clock, inbox: str, port: int) -> tuple[int, list[dict]]:
    app = App(db, sender="gm@pbem.example", _store=Store(db, clock=clock))
    result = CliRunner().invoke(cli, ["--db", db, "tick", inbox, "--smtp", f"127.0.0.1:{port}", "--json"], obj=app)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.output) if result.output.strip() else []


def _play(tmp_path, smtp, engine: str, seats: dict[str, str], options: list[str],  # noqa: F811
          silent: tuple, max_ticks: int) -> tuple[Table, list[dict], Service]:
    db = str(tmp_path / "pbem.db")
    clock = Clock()
    handler = Recorder()
    port = smtp(handler)
    app = App(db, sender="gm@pbem.example", _store=Store(db, clock=clock))
    args = ["--db", db, "new", "g1", "--game", engine, "--deadline-every", "72h", "--decision-every", "24h",
            "--remind-before", "12h", *options, *[a for s, e in seats.items() for a in ("--seat", f"{s}={e}")]]
    result = CliRunner().invoke(cli, args, obj=app)
    assert result.exit_code == 0, result.output
    inbox = mailbox.Maildir(tmp_path / "in", create=True)
    table = Table(db, "g1", seats, inbox, silent)
    log: list[dict] = []
    seen = 0
    for _ in range(max_ticks):
        code, done = _tick(db, clock, str(tmp_path / "in"), port)
        assert code == 0, done
        log += done
        new, seen = handler.messages[seen:], len(handler.messages)
        wrote = table.read(new, clock)
        service = Service(Store(db, clock=clock))
        game = service.load("g1")
        if game.pending is None:
            break
        for seat in service.awaited(game):  # nobody is ever awaited without having been told
            assert game.pending.turn in table.told[seat], (seat, game.pending.turn, done)
        if not wrote and not done:
            clock.now += timedelta(hours=13)  # nothing to do: let time pass (reminders, deadlines)
    return table, log, Service(Store(db, clock=clock))


@pytest.mark.slow
def test_a_whole_havoc_game_by_tick(tmp_path, smtp):  # noqa: F811
    seats = {"red": "anna@example.org", "blue": "ben@example.org", "green": "cis@example.org"}
    table, log, service = _play(tmp_path, smtp, "havoc", seats, [], silent=(), max_ticks=1500)
    game = service.load("g1")
    assert game.pending is None and not game.abandoned, "the game should have ended"
    assert "your-move" in table.kinds and "welcome" in table.kinds and "report" in table.kinds
    assert all(not t["defaulted"] for t in game.turns)
    assert any(d["what"] == "adjudicate" for d in log) and any(d["what"] == "send" for d in log)


@pytest.mark.slow
def test_a_whole_wallenstein_game_by_tick_with_a_silent_seat(tmp_path, smtp):  # noqa: F811
    seats = {"red": "anna@example.org", "blue": "ben@example.org", "yellow": "cis@example.org"}
    table, log, service = _play(tmp_path, smtp, "wallenstein", seats, ["--option", "setup=random"],
                                silent=(("blue", "1618-summer"),), max_ticks=200)
    game = service.load("g1")
    assert game.pending is None, "the game should have ended"
    defaulted = [(t["turn"], t["defaulted"]) for t in game.turns if t["defaulted"]]
    assert defaulted == [("1618-summer", ["blue"])]
    assert table.kinds.count("reminder") >= 1 and table.kinds.count("late") == 1
    reminders = [d for d in log if d["what"] == "remind"]
    assert [d["text"] for d in reminders] == ["reminded g1 blue (turn 1618-summer)"]  # once per seat and turn
