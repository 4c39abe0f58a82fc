"""A seat's private choices never reach another seat (rules 1.2's new plan lines and notes).

Before the reveal: one seat's draft (``DRAFT ... WITH``, ``REFRESH``) or season plan
(``RECRUIT5 ... NO TILE``, ``FAVOUR ... AT`` several counties) differs between two otherwise
identical games played by mail (real MIME mails, same clock, passwords and seed); every mail
to every other seat (welcome, replies, STATUS / REPORT / HELP answers) must be byte-identical,
and the seat's own replies must differ (the perturbation is real).

After the reveal: each seat's "Chosen for you" notes (``ChosenForSeat``) are in its own view,
report and event view only; another seat's and the public's have none of them; the GM's has all.
"""

from __future__ import annotations

import itertools
import re
from email.message import EmailMessage
from typing import Any

import pytest

from adjudicator.base import GM, PUBLIC
from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.bot import heuristic_orders
from adjudicator.chance import Chance
from pbem.loop import creating as creating_mod
from pbem.mailout.deliver import message_of
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from pbem.loop.service import Service
from pbem.store.db import Store
from tests.conftest import FakeClock
from tests.contract import play_random_game
from turns.games import format_orders

SEATS = ["red", "blue", "yellow"]
SENDER = "gm@pbem.example"
GROUPS = "GROUPS 5 4 4 3 3 2 2 2 2\n"


def _draft(state: dict[str, Any], secret: bool) -> str:
    """red's draft: two wishes, else the top card of the deck (red's pick comes first: its lines
    must make it); the secret version names a group and refreshes stale pairs."""
    first, second = sorted(state["counties"])[:2]
    if secret:
        return f"DRAFT {first} WITH 2, {second}, DECK\n{GROUPS}REFRESH\n"
    return f"DRAFT {first}, {second}, DECK\n{GROUPS}"


class Table:
    """One Wallenstein game played by mail in its own database."""

    def __init__(self, tmp_path: Any, name: str, options: dict[str, str]) -> None:
        self.store = Store(tmp_path / f"{name}.db", clock=FakeClock())
        self.service = Service(self.store, sender=SENDER)
        self.ids = itertools.count()
        created = self.service.new_game("w1", "wallenstein", [(s, f"{s}@x.org") for s in SEATS], options,
                                        "wallenstein-private-choices")
        self.passwords = dict(created.passwords)

    def mail(self, seat: str, body: str, subject: str = "orders") -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{seat}@x.org", SENDER, subject
        msg["Date"] = "Mon, 07 Dec 2026 10:00:00 +0000"
        msg["Message-ID"] = f"<m{next(self.ids)}.{seat}@x.org>"
        msg.set_content(body)
        Ingestor(self.service).ingest(RawMail(bytes(msg), f"{seat}.eml"))

    def block(self, seat: str, text: str) -> str:
        return f"GAME w1 {seat} {self.passwords[seat]}\n{text}END\n"

    def state(self) -> dict[str, Any]:
        return self.service.load("w1").state

    def before_reveal(self, orders: dict[str, str]) -> None:
        """Every seat's orders, then STATUS / REPORT / HELP from every seat; nothing adjudicated."""
        for seat in SEATS:
            self.mail(seat, self.block(seat, orders[seat]))
        for seat in SEATS:
            for command in ("STATUS", "REPORT", "HELP"):
                self.mail(seat, "thanks\n", subject=f"{command} w1 {seat}")


_CID = re.compile(rb"cid:[^\"'\s>]+")
#: the state hash (keyed with the secret seed) covers the pending orders too: a placeholder
_HASH = re.compile(rb"\b[0-9a-f]{64}\b")


def _parts(row: dict[str, Any]) -> tuple[str, str, list[tuple[str, bytes]]]:
    msg = message_of(row)
    parts = [(p.get_content_type(), _HASH.sub(b"<hash>", _CID.sub(b"cid:-", p.get_payload(decode=True))))
             for p in msg.walk() if not p.is_multipart()]
    return row["to_addr"], str(msg["Subject"]), parts


def _tables(tmp_path: Any, monkeypatch: Any, options: dict[str, str]) -> tuple[Table, Table]:
    def table(name: str) -> Table:
        counter = itertools.count()  # the same passwords in both games (the welcome mails show them)
        monkeypatch.setattr(creating_mod, "new_password", lambda: f"Abcd-{next(counter):04d}-wxyz")
        return Table(tmp_path, name, options)

    return table("base"), table("secret")


def _plans(table: Table, secret: bool) -> dict[str, str]:
    """The heuristic bot's spring plans; red's secret version adds NO TILE and several AT counties."""
    state = table.state()
    plans = {s: heuristic_orders(state, s, Chance("plans").stream(s)) for s in SEATS}
    for o in plans["red"]:
        if o["kind"] == "favour":
            o.pop("counties", None)
    if secret:
        own = sorted(n for n, c in state["counties"].items() if c["owner"] == "red")
        plans["red"] = [dict(o, counties=own[:2]) if o["kind"] == "favour" else o for o in plans["red"]]
        for o in plans["red"]:
            if o.get("action") == "recruit5":
                o["tile"] = False
    return {s: format_orders("wallenstein", p) for s, p in plans.items()}


def _compare(base: Table, other: Table, start: int) -> int:
    rows_a, rows_b = base.store.outbox()[start:], other.store.outbox()[start:]
    assert [r["to_addr"] for r in rows_a] == [r["to_addr"] for r in rows_b]
    mine = [(a, b) for a, b in zip(rows_a, rows_b) if a["to_addr"] == "red@x.org"]
    assert any(_parts(a) != _parts(b) for a, b in mine), "red's own replies never showed its orders"
    theirs = [(a, b) for a, b in zip(rows_a, rows_b) if a["to_addr"] != "red@x.org"]
    for a, b in theirs:
        assert _parts(a) == _parts(b), f"a mail to {a['to_addr']} ({a['kind']}) changed with red's secret orders"
    return len(theirs)


def test_a_draft_s_new_words_reach_no_other_seat_before_the_picks(tmp_path: Any, monkeypatch: Any) -> None:
    base, other = _tables(tmp_path, monkeypatch, {"setup": "draft"})
    start = len(base.store.outbox())
    for table, secret in ((base, False), (other, True)):
        state = table.state()
        table.before_reveal({s: _draft(state, secret and s == "red") if s == "red" else GROUPS for s in SEATS})
    assert _compare(base, other, start) >= 8
    for viewer in ("blue", "yellow", PUBLIC):  # `pbem show` too
        assert base.service.view(base.service.load("w1"), viewer) == other.service.view(other.service.load("w1"), viewer)


def test_a_plan_s_new_words_reach_no_other_seat_before_the_season(tmp_path: Any, monkeypatch: Any) -> None:
    base, other = _tables(tmp_path, monkeypatch, {"expansion": "court"})
    start = len(base.store.outbox())
    base.before_reveal(_plans(base, False))
    other.before_reveal(_plans(other, True))
    assert _compare(base, other, start) >= 8


@pytest.mark.parametrize("options", [{"setup": "draft"}, {"expansion": "court"}])
def test_a_seat_s_notes_are_its_own(options: dict[str, str]) -> None:
    """Every state of a random game: a note is in its seat's view and event view, and the GM's, only."""
    seen: set[str] = set()

    def check(state: dict[str, Any]) -> None:
        notes = [e for e in state["log"] if e["type"] == "ChosenForSeat"]
        seen.update(e["seat"] for e in notes)
        for viewer in [*SEATS, PUBLIC]:
            shown = [e for e in ENGINE.view(state, viewer)["log"] if e["type"] == "ChosenForSeat"]
            assert shown == [e for e in notes if e["seat"] == viewer], viewer
            assert all((ENGINE.event_view(e, viewer) is not None) == (e["seat"] == viewer) for e in notes)
        assert [e for e in ENGINE.view(state, GM)["log"] if e["type"] == "ChosenForSeat"] == notes

    play_random_game(ENGINE, SEATS, options, f"notes-{sorted(options.items())}", 50, on_state=check)
    assert seen == set(SEATS), f"the random game gave notes to {sorted(seen)} only"


def test_a_seat_s_notes_are_in_its_report_only(tmp_path: Any) -> None:
    """After a season played by mail, a seat's notes are in its report and the GM's, no one else's."""
    table = Table(tmp_path, "notes", {})
    for seat in ("blue", "yellow"):  # red sends nothing: the missed-orders policy, and notes say so
        state = table.state()
        orders = heuristic_orders(state, seat, Chance("n").stream(seat))
        table.mail(seat, table.block(seat, format_orders("wallenstein", [o for o in orders if o["kind"] != "bonus"])))
    table.service.adjudicate("w1", force=True)
    game = table.service.load("w1")
    notes = {s: [e["note"] for e in game.state["log"] if e["type"] == "ChosenForSeat" and e["seat"] == s]
             for s in SEATS}
    assert all(notes.values()), notes  # red missed its plan; blue and yellow sent no BONUS line
    reports = {}
    for row in table.store.outbox():
        if row["kind"] in ("report", "report-public", "report-gm"):
            text = message_of(row).get_body(("plain",)).get_content()
            reports[row["to_addr"] if row["kind"] == "report" else row["kind"]] = " ".join(text.split())
    for seat in SEATS:
        for owner, texts in notes.items():
            for note in texts:
                words = " ".join(note.split())
                assert (words in reports[f"{seat}@x.org"]) == (owner == seat), (seat, owner, note)
    for kind in ("report-public",):
        assert "Chosen for you" not in reports.get(kind, "") and not any(
            " ".join(n.split()) in reports.get(kind, "") for texts in notes.values() for n in texts)
