"""Count what a decision through the service costs, the same work on every run: a whole game
is played once by the bench's bots (:class:`bench.length_bench.Table`, a fixed clock) and its
mails kept; a replay then ingests those mails into a fresh copy of the game's database, one
``Ingestor`` per mail, and adjudicates each decision, with this process's caches emptied
before each (as the ``length`` rows do). The bots' orders are not drawn again, so under
``valgrind --tool=callgrind`` (with ``PYTHONHASHSEED=0``) the same code counts the same
instructions from run to run; the count of ``N`` decisions less that of fewer, divided by
the difference, is the instructions of one decision::

    python -m bench.decision_count record gods-playground /tmp/gp 60
    python -m bench.decision_count replay /tmp/gp 10     # once, to compile the bytecode
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m bench.decision_count replay /tmp/gp 10
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m bench.decision_count replay /tmp/gp 30

Five decisions are replayed first (the first ones import and warm what the later ones use).
A round's or battle's report renders would swamp the count: the renderer answers one
constant report (the rows' medians leave those decisions out the same way).
"""

from __future__ import annotations

import pickle
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

SEATS = {"havoc": ["red", "blue", "green", "yellow"], "gods-playground": ["white", "blue", "red"],
         "wallenstein": ["red", "blue", "yellow", "black"]}
WARM = 5
MOMENT = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def _fixed_clock() -> None:
    """Every store this process opens reads one fixed time (a replayed mail is never older
    than the turn it answers)."""
    import pbem.store.db as db

    init = db.Store.__init__

    def fixed(self: Any, path: Any, clock: Any = None, readonly: bool = False) -> None:
        init(self, path, lambda: MOMENT, readonly)
    db.Store.__init__ = fixed  # type: ignore[method-assign]


def record(engine: str, directory: Path, decisions: int) -> int:
    """Play up to ``decisions`` decisions of a new game in ``directory``; keep its database as
    it was before the first mail (``template.db``) and every mail and adjudication in order
    (``actions.pkl``). Returns the number of actions kept."""
    from bench.length_bench import Table

    _fixed_clock()
    directory.mkdir(parents=True, exist_ok=True)
    table = Table(directory, engine, SEATS[engine], f"length-{engine}-" + "x" * 32)
    table.service.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(directory / f"{engine}.db", directory / "template.db")
    actions: list[tuple[str, bytes | None]] = []
    for _ in range(decisions):
        if table.service.load("g").pending is None:
            break
        sent = len(table.raw)
        table.mail_all()
        actions += [("mail", raw) for raw in table.raw[sent:]]
        table.adjudicate()
        actions.append(("adjudicate", None))
    (directory / "actions.pkl").write_bytes(pickle.dumps(actions))
    return len(actions)


def _constant_reports() -> None:
    """The renderer answers one constant report."""
    import pbem.mailout.reporting as reporting
    from reports.model import Rendered

    reporting.render_report = lambda *a, **k: Rendered(text="the report\n", html="<p>the report</p>", images={})


def replay(directory: Path, decisions: int) -> list[float]:
    """Replay :data:`WARM` decisions, then ``decisions`` more; the CPU of each of those."""
    from bench.length_bench import _forget
    from pbem.loop.ingest import Ingestor
    from pbem.loop.service import Service
    from pbem.mailin.parse import RawMail
    from pbem.store.db import Store

    _fixed_clock()
    _constant_reports()
    work = Path(tempfile.mkdtemp())
    shutil.copy(directory / "template.db", work / "game.db")
    service = Service(Store(work / "game.db"), "gm@bench.invalid")
    actions = pickle.loads((directory / "actions.pkl").read_bytes())  # noqa: S301 - our own file
    done, spent, costs = 0, 0.0, []
    for n, (kind, raw) in enumerate(actions):
        if done >= WARM + decisions:
            break
        _forget()
        start = time.process_time()
        if kind == "mail":
            outcome = Ingestor(service).ingest(RawMail(raw, f"mail-{n}"))
            spent += time.process_time() - start
            if outcome.outcome != "accepted":
                raise RuntimeError(f"replayed mail not accepted: {outcome.line()}")
            continue
        service.adjudicate("g", limit=1)
        spent += time.process_time() - start
        done += 1
        if done > WARM:
            costs.append(spent)
        spent = 0.0
    shutil.rmtree(work, ignore_errors=True)
    return costs


def main(argv: list[str]) -> int:
    """``record ENGINE DIR DECISIONS`` or ``replay DIR DECISIONS``."""
    if len(argv) == 4 and argv[0] == "record":
        print(record(argv[1], Path(argv[2]), int(argv[3])), "actions kept")
        return 0
    if len(argv) == 3 and argv[0] == "replay":
        costs = replay(Path(argv[1]), int(argv[2]))
        print(f"{len(costs)} decisions, median {statistics.median(costs) * 1000:.3f} ms CPU" if costs else "none")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
