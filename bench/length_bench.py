"""The cost of a mail and of an adjudication does not grow with the length of a game.

Games are played through the service by order mails (each ingested as ``pbem ingest`` does,
password checked, reply queued) and adjudications (engine, events, projections, reports or
"your move" mails queued), each timed in CPU with this process's game cache emptied first, so
every mail and adjudication reads its game from the store as a new process would:

- Wallenstein, 4 seats: the rulebook's game is two years (six seasons, rule 4), so a log 30
  seasons long is the first five seasons played six times over, the GM rolling the game back
  to its first season after each pass (``pbem rollback``: nothing is deleted, every set-aside
  season stays in the log). The same seasons of the first and the sixth pass are compared:
  the same engine work, on a log six times longer.
- Havoc, 4 seats, and God's Playground, whole games: the decisions of the game's first quarter
  against those of its last quarter (medians; a God's Playground round's last decision also
  renders the round's reports, which the median leaves out).

Rows: ``late / early`` of the median CPU per mail and per adjudication; target <= 1.25 (the
noise of single timings on a shared machine), the two medians in the note.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

QUICK = bool(os.environ.get("BENCH_QUICK"))
PASSES = 2 if QUICK else 6
SEASONS = 5  # a pass: the first five seasons (the sixth ends the game and reveals its seed)


class Table:
    """A game in its own database, played by bots that mail their orders."""

    def __init__(self, directory: Path, engine: str, seats: list[str], seed: str) -> None:
        from pbem.loop.ingest import Ingestor
        from pbem.loop.service import Service
        from pbem.store.db import Store

        self.service = Service(Store(directory / f"{engine}.db"), "gm@bench.invalid")
        created = self.service.new_game("g", engine, [(s, f"{s}@bench.invalid") for s in seats], {}, seed)
        self.passwords = created.passwords
        self.ingestor_of: Callable[[], Any] = lambda: Ingestor(self.service)
        self.mails: list[float] = []
        self.raw: list[bytes] = []  # every mail sent
        self.adjudications: list[tuple[float, bool]] = []  # (CPU, whether reports went out)
        self.sent = 0

    def mail_all(self, bot: str = "random", label: str = "") -> None:
        """Every awaited seat mails its orders (a bot's, drawn by ``label`` and the turn); each
        mail timed on its own."""
        from adjudicator.chance import Chance
        from pbem.loop.demo import bot_for, order_mail
        from pbem.mailin.parse import RawMail
        from turns.games import format_orders

        game = self.service.load("g")
        for seat in self.service.awaited(game):
            orders = bot_for(game, bot)(game.state, seat, Chance("length" + label).stream(f"{game.pending.turn}/{seat}"))
            raw = order_mail(game, seat, self.passwords[seat], format_orders(game.engine.name, orders),
                             self.service.store.clock(), self.service.sender)
            self.sent += 1
            raw = raw.replace(b"@demo.pbem.invalid>", f".{self.sent}@bench.invalid>".encode())
            self.raw.append(raw)
            _forget()
            start = time.process_time()
            outcome = self.ingestor_of().ingest(RawMail(raw, f"mail-{self.sent}"))
            self.mails.append(time.process_time() - start)
            if outcome.outcome != "accepted":
                raise RuntimeError(f"bench mail not accepted: {outcome.line()}")

    def adjudicate(self) -> list[dict[str, Any]]:
        """One adjudication, timed."""
        _forget()
        before = self.service.store.conn.execute("select count(*) from outbox where kind = 'report'").fetchone()[0]
        start = time.process_time()
        done = self.service.adjudicate("g", limit=1)
        elapsed = time.process_time() - start
        after = self.service.store.conn.execute("select count(*) from outbox where kind = 'report'").fetchone()[0]
        self.adjudications.append((elapsed, after > before))
        return done


def _forget() -> None:
    """Empty this process's game cache and its cache of rendered reports: the next load reads
    the store, and a report is rendered, as in a new process."""
    import pbem.mailout.reporting
    import pbem.loop.service

    pbem.loop.service._CACHE.clear()
    pbem.mailout.reporting._CACHE.clear()


def wallenstein(directory: Path) -> dict[str, Any]:
    """Six seasons, rolled back to the first and played again, ``PASSES`` times."""
    from pbem.loop.reopen import rollback

    table = Table(directory, "wallenstein", ["red", "blue", "yellow", "black"], "length-wallenstein-" + "w" * 32)
    first = table.service.load("g").pending.turn
    per_pass: list[tuple[int, int]] = []  # (mails, adjudications) at the start of each pass
    for n in range(PASSES):
        per_pass.append((len(table.mails), len(table.adjudications)))
        while table.service.load("g").pending is not None and len(table.adjudications) - per_pass[-1][1] < SEASONS:
            table.mail_all("random", label=str(n))  # other orders in each pass
            table.adjudicate()
        if n + 1 < PASSES:
            rollback(table.service, "g", first, f"pass {n + 2}: the seasons are played again")
    m0, a0 = per_pass[0]
    m1, a1 = per_pass[-1]
    events = table.service.store.last_seq("g")
    second_m, second_a = per_pass[1] if PASSES > 1 else (len(table.mails), len(table.adjudications))
    return {"early_mail": table.mails[m0:second_m], "late_mail": table.mails[m1:],
            "early_adj": [t for t, _ in table.adjudications[a0:second_a]],
            "late_adj": [t for t, _ in table.adjudications[a1:]],
            "what": f"{len(table.adjudications)} seasons adjudicated, {events} events; pass 1 vs pass {PASSES}"}


def whole(directory: Path, engine: str, seats: list[str]) -> dict[str, Any]:
    """A whole game: its first quarter's decisions against its last quarter's; and each
    decision's whole cost (its mails and its adjudication) against the engine's own."""
    table = Table(directory, engine, seats, f"length-{engine}-" + "x" * 32)
    steps, decisions = 0, []
    while table.service.load("g").pending is not None and (not QUICK or steps < 40):
        mails = len(table.mails)
        table.mail_all()
        table.adjudicate()
        decisions.append(sum(table.mails[mails:]) + table.adjudications[-1][0])
        steps += 1
    quarter = max(len(table.adjudications) // 4, 1)
    mails_q = max(len(table.mails) // 4, 1)
    times = [t for t, _ in table.adjudications]
    events = table.service.store.last_seq("g")
    return {"early_mail": table.mails[2:mails_q], "late_mail": table.mails[-mails_q:],
            "early_adj": times[2:quarter], "late_adj": times[-quarter:], "decisions": decisions,
            "engine": engine_costs(table), "parse": parse_costs(table.raw),
            "what": f"{len(table.adjudications)} decisions, {events} events; first quarter vs last"}


def engine_costs(table: Table) -> list[float]:
    """The CPU of the engine's own ``advance`` for each adjudication of the game, re-run on the
    same states and orders (standing orders and plans applied as the log applied them)."""
    from pbem.store.events import fold
    from pbem.store.rollback import live_events

    store = table.service.store
    events = live_events(store.events("g"))
    game = fold("g", events[:1], store.secrets("g")[0])
    engine, state = game.engine, game.state
    out = []
    for ev in events[1:]:
        if ev.type == "StandingOrders":
            state = engine.apply_standing(state, ev.payload["seat"], ev.payload["orders"])
        elif ev.type == "TurnAdjudicated":
            start = time.process_time()
            state, _ = engine.advance(state, ev.payload["orders"], game.chance_seed)
            out.append(time.process_time() - start)
    return out


def parse_costs(mails: list[bytes]) -> list[float]:
    """The CPU of parsing each mail with the stdlib (the floor of reading a mail at all)."""
    from email import message_from_bytes, policy

    out = []
    for raw in mails:
        start = time.process_time()
        message_from_bytes(raw, policy=policy.default).get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
        out.append(time.process_time() - start)
    return out


def decision_row(name: str, got: dict[str, Any]) -> dict[str, Any]:
    """A decision through the service (its mail, its adjudication and the mail that asks the
    next seat) against 20 times the engine's advance plus one mail's parse."""
    whole_cost = statistics.median(got["decisions"])
    engine, parse = statistics.median(got["engine"]), statistics.median(got["parse"])
    floor = 20 * engine + parse
    return {"bench": "length", "measure": f"{name}: a decision through the service", "value": whole_cost * 1000,
            "unit": "ms CPU", "floor": f"{floor * 1000:.3g} ms = 20 x engine {engine * 1000:.3g} + parse "
                                       f"{parse * 1000:.3g}", "ratio": whole_cost / floor, "target": "ratio <= 1",
            "note": f"median of {len(got['decisions'])} decisions (mail ingested, adjudicated, next seat mailed), "
                    "caches emptied before each"}


def _rows(name: str, got: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for what, early, late in (("mail", got["early_mail"], got["late_mail"]),
                              ("adjudication", got["early_adj"], got["late_adj"])):
        a, b = statistics.median(early), statistics.median(late)
        out.append({"bench": "length", "measure": f"{name}: CPU per {what}, late / early", "value": b * 1000,
                    "unit": "ms CPU", "floor": f"{a * 1000:.3g} ms early", "ratio": b / a, "target": "ratio <= 1.25",
                    "note": f"{got['what']}; medians of {len(early)} and {len(late)}"})
    return out


def run() -> list[dict[str, Any]]:
    """Rows for ``python -m bench``."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        rows += _rows("Wallenstein, 30 seasons", wallenstein(directory))
        havoc = whole(directory, "havoc", ["red", "blue", "green", "yellow"])
        rows += _rows("Havoc, a whole game", havoc)
        gods = whole(directory, "gods-playground", ["white", "blue", "red"])
        rows += _rows("God's Playground, a whole game", gods)
        rows += [decision_row("God's Playground", gods), decision_row("Havoc", havoc)]
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
