"""The attack campaign of the trust reviews, run again: mail, archives, published files.

- **mail**: :mod:`bench.mailcampaign` fills a Maildir with ``mails`` generated mails (valid,
  forged, malformed, commands and autoresponders, hostile); ``pbem ingest MAILDIR --json`` reads
  it as its own process (its peak memory, exit status, a traceback on stderr, each mail's
  outcome); then the same mails are ingested again one at a time into a fresh copy of the
  database by a new process, each timed (the slowest mail). A forged mail accepted, or any mail ending as
  ``error`` (an internal error: kept, but not processed) is counted.
- **archives**: finished games of all three games played by mail, each forged the ways of
  tests/store/test_tamper_campaign.py (chain and header recomputed), and tampered or malformed
  archives of :mod:`bench.tamper` made from them and from a running game's, each through
  ``pbem replay FILE --verify`` and ``pbem import``: a traceback (or an error of more than one
  line) and a forgery taken as genuine are counted.
- **leaks**: running games of each game (orders sent in advance, undecided orders; another
  with one seat's orders by mail and a second address allowed) and everything published about
  them (archive, record, site, ``--json``, the same from a database it was imported into): a
  seat's hidden cards, plans or deck order, the seed, undecided orders, and any mail address
  found in them are counted.

:func:`run` returns the figures; ``bench/campaign_bench.py`` turns them into ``make bench`` rows
and tests/test_campaign.py (slow) checks the counts.
"""

from __future__ import annotations

import copy
import json
import sqlite3
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.hostile_bench import ingest_run
from bench.mailcampaign import fill_maildir, make_games, outcomes_by_category

#: Address-shaped text: no published file may hold one of the test games' addresses.
_SEAT_ADDRESS = ("@players.example",)


def mail_campaign(directory: Path, mails: int, big: int = 60) -> dict[str, Any]:
    """The mail part: figures of one ``pbem ingest`` run and of a timed pass over the same mails."""
    games = make_games(directory)
    maildir = directory / "Maildir"
    categories = fill_maildir(games, maildir, mails, big=big)
    fresh = directory / "fresh.db"
    _copy_db(games.db, fresh)
    done = ingest_run(games.db, maildir)
    by_category = Counter(outcomes_by_category(done["results"], categories))
    forged = sum(n for (cat, out), n in by_category.items() if cat == "forged" and out in ("accepted", "partial"))
    errors = sum(n for (_, out), n in by_category.items() if out == "error")
    timed = _timed_in_a_new_process(fresh, maildir)
    return {"mails": len(categories), "maildir_mb": _size(maildir) / 1e6, "peak_mb": done["peak_mb"],
            "seconds": done["seconds"], "exit": done["exit"], "traceback": done["traceback"],
            "outcomes": {f"{c}/{o}": n for (c, o), n in sorted(by_category.items())},
            "forgeries_accepted": forged, "errors": errors, **timed}


def timed_pass(db: Path, maildir: Path) -> dict[str, Any]:
    """Every mail of ``maildir`` ingested one at a time (as ``pbem ingest`` reads them), each
    timed: the slowest, what it was, and the slowest of each outcome."""
    from pbem.loop.ingest import Ingestor
    from pbem.mailin.parse import read_sources
    from pbem.loop.service import Service
    from pbem.store.db import Store

    service = Service(Store(db), "gm@pbem.example")
    ingestor = Ingestor(service)
    slowest: dict[str, tuple[float, str]] = {}
    for item in read_sources([str(maildir)], None):
        start = time.perf_counter()
        outcome = ingestor.ingest_all([item])[0]
        elapsed = time.perf_counter() - start
        what = f"{outcome.outcome}: {outcome.note[:60]}"
        if elapsed > slowest.get(outcome.outcome, (0.0, ""))[0]:
            slowest[outcome.outcome] = (elapsed, what)
    service.store.close()
    worst = max(slowest.values(), default=(0.0, ""))
    return {"slowest_s": worst[0], "slowest_mail": worst[1],
            "slowest_by_outcome": {k: round(v[0], 3) for k, v in sorted(slowest.items())}}


def _timed_in_a_new_process(db: Path, maildir: Path) -> dict[str, Any]:
    """:func:`timed_pass` in a process of its own, as ``pbem ingest`` starts: nothing imported
    or rendered beforehand (a REPORT answer pays for loading the report renderer, say)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "bench.campaign", "--timed", str(db), str(maildir)],
                         check=True, capture_output=True, text=True)
    return dict(json.loads(out.stdout))


def archive_campaign(directory: Path, per_archive: int = 25) -> dict[str, Any]:
    """The archive part: forgeries of finished games and tampered or malformed archives."""
    from bench.tamper import check, mutants
    from pbem.archives.archive import export_game
    from tests.store import test_tamper_campaign as tc  # the forger's edits of finished games

    count, tracebacks, accepted, examples = 0, 0, 0, []
    bases: list[tuple[str, dict[str, Any]]] = []
    for game in tc.SEATS:
        (directory / game).mkdir()
        store = tc._play(directory / game, game)
        published = export_game(store, "g1")
        bases.append((game, published))
        backup = export_game(store, "g1", gm_backup=True)
        store.close()
        for name, edit, which, unverifiable in tc.FORGERIES:
            forged = copy.deepcopy(published if which == "published" else backup)
            try:
                edit(forged)
            except (StopIteration, IndexError, KeyError):  # nothing of that kind in this game
                continue
            tc.forge(forged)
            done = _check(directory, f"{game}: {name}", forged, published if which == "published" else backup, count)
            count += 1
            tracebacks += bool(done.tracebacks)
            examples += done.tracebacks[:1]
            ok = done.accepted and unverifiable is not None and unverifiable in done.outputs[1]
            if done.accepted and not ok:
                accepted += 1
                examples.append(f"{game}: forged {name} imported as genuine")
    bases.append(("havoc (running)", _running_archive(directory)))
    for game, genuine in bases:
        text = json.dumps(genuine)
        for name, mutant in mutants(text, per_archive, seed=f"campaign-{game}"):
            path = directory / f"t{count}.json"
            path.write_bytes(mutant.encode("utf-8", "surrogateescape"))
            done = check(path, f"{game}: {name}", genuine, directory / f"t{count}.db")
            count += 1
            tracebacks += bool(done.tracebacks)
            examples += [f"{game}: {name}: {t}" for t in done.tracebacks[:1]]
            if done.forgery_accepted:
                accepted += 1
                examples.append(f"{game}: {name}: imported as genuine")
    return {"archives": count, "archive_tracebacks": tracebacks, "archive_forgeries_accepted": accepted,
            "archive_examples": examples[:10]}


def _check(directory: Path, name: str, archive: dict[str, Any], genuine: dict[str, Any], n: int) -> Any:
    from bench.tamper import check

    path = directory / f"f{n}.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    return check(path, name, genuine, directory / f"f{n}.db")


def _running_archive(directory: Path) -> dict[str, Any]:
    from tests.store.test_running_leaks import _play

    (directory / "running").mkdir()
    db = _play(directory / "running", "havoc")
    from pbem.archives.archive import export_game
    from pbem.store.db import Store

    store = Store(db)
    try:
        return export_game(store, "g1")
    finally:
        store.close()


def leak_campaign(directory: Path) -> dict[str, Any]:
    """The leak part: what a seat may not see, and any address, in everything published about
    a running game of each game."""
    from tests.store import test_published_addresses as addresses
    from tests.store.test_running_leaks import SEATS, _leaks, _play, _published, _secrets

    leaks: list[str] = []
    outputs = 0
    for game in SEATS:
        where = directory / game
        where.mkdir()
        db = _play(where, game)
        published = _published(where, db)
        outputs += len(published)
        leaks += _leaks(published, _secrets(db, game))
        leaks += [f"{name}: an address" for name, text in published.items() if any(a in text for a in _SEAT_ADDRESS)]
        mailed = where / "mailed"  # one seat's orders by mail, a second address allowed
        mailed.mkdir()
        published = addresses._outputs(mailed / "out", addresses._game(mailed, game), over=False)
        outputs += len(published)
        leaks += addresses._found(published)
    return {"leak_outputs": outputs, "leaks": len(leaks), "leak_examples": leaks[:10]}


def run(directory: Path, mails: int, per_archive: int = 25, big: int = 60) -> dict[str, Any]:
    """The whole campaign in ``directory``; its figures."""
    figures: dict[str, Any] = {}
    for part, fn in (("mail", lambda d: mail_campaign(d, mails, big)),
                     ("archives", lambda d: archive_campaign(d, per_archive)), ("leaks", leak_campaign)):
        where = directory / part
        where.mkdir(parents=True)
        start = time.perf_counter()
        figures.update(fn(where))
        figures[f"{part}_seconds"] = round(time.perf_counter() - start, 1)
    return figures


def _copy_db(source: Path, target: Path) -> None:
    with sqlite3.connect(source) as a, sqlite3.connect(target) as b:  # the WAL too
        a.backup(b)


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


if __name__ == "__main__":  # python -m bench.campaign [MAILS] | --timed DB MAILDIR: the figures as JSON
    import sys
    import tempfile

    if sys.argv[1:2] == ["--timed"]:
        print(json.dumps(timed_pass(Path(sys.argv[2]), Path(sys.argv[3]))))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(run(Path(tmp), int(sys.argv[1]) if len(sys.argv) > 1 else 10000), indent=1))
