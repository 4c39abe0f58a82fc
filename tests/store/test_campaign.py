"""The fault campaign, store side: kill -9 at random points of ``ingest`` and
``adjudicate`` (separate processes) and concurrent runs of pairs of commands, each followed
by a consistency check (``replay --verify``; every mail kept once with an outcome, no
event twice or lost, at most one reply per mail; no traceback, no 'database is locked').

Counts are small by default (minutes); ``PBEM_CAMPAIGN=1`` runs every pair of commands
and ``PBEM_CAMPAIGN_KILLS=N`` kills per command and round (default 2). The figures are
printed and, with ``PBEM_CAMPAIGN_REPORT=FILE``, appended to FILE as JSON lines.
"""

from __future__ import annotations

import email
import itertools
import json
import mailbox
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from pbem.store.db import Store

ROOT = Path(__file__).resolve().parents[2]
FULL = os.environ.get("PBEM_CAMPAIGN") == "1"
KILLS = int(os.environ.get("PBEM_CAMPAIGN_KILLS", "2"))
SEATS = {"red": "r@x.org", "blue": "b@x.org"}


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PBEM_FROM": "gm@pbem.example"}
    env.pop("PBEM_DB", None)
    return env


def _cmd(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "tests.store.toy_pbem", "--db", str(db), *args]


def run(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cmd(db, *args), capture_output=True, text=True, timeout=300, env=_env(), cwd=ROOT)


def start(db: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(_cmd(db, *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(), cwd=ROOT)


def _report(name: str, figures: dict) -> None:
    print(f"\ncampaign {name}: {json.dumps(figures, sort_keys=True)}")
    if os.environ.get("PBEM_CAMPAIGN_REPORT"):
        with open(os.environ["PBEM_CAMPAIGN_REPORT"], "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"campaign": name, **figures}, sort_keys=True) + "\n")


def new_game(tmp_path: Path, rounds: int) -> tuple[Path, dict[str, str], mailbox.Maildir]:
    db = tmp_path / "pbem.db"
    seats = [a for s, e in SEATS.items() for a in ("--seat", f"{s}={e}")]
    done = run(db, "new", "g1", "--game", "toy-dice-duel", *seats, "--option", f"rounds={rounds}",
               "--seed", "campaign-seed", "--weak-seed", "--json")
    assert done.returncode == 0, done.stderr
    passwords = {s: v["password"] for s, v in json.loads(done.stdout)["seats"].items()}
    return db, passwords, mailbox.Maildir(tmp_path / "inbox", create=True)


def add_mails(box: mailbox.Maildir, passwords: dict[str, str], turn: str, n: int) -> None:
    """Orders of every seat for ``turn``, one mail with a wrong password, one junk mail."""
    for seat, address in SEATS.items():
        box.add(_mail(address, f"<{turn}.{seat}.{n}@x.org>", f"GAME g1 {seat} {passwords[seat]}\nTURN {turn}\n"
                                                          f"BID {1 + n % 3}\nEND\n"))
    box.add(_mail(SEATS["red"], f"<{turn}.bad.{n}@x.org>", "GAME g1 red wrong-password\nBID 1\nEND\n"))
    box.add(f"this is not a mail at all ({turn}, {n}) ".encode() + b"\xff\xfe\n")


def _mail(sender: str, msgid: str, body: str) -> bytes:
    return (f"From: {sender}\r\nTo: gm@pbem.example\r\nMessage-ID: {msgid}\r\nSubject: orders\r\n"
            f"Date: Tue, 01 Dec 2026 00:00:00 +0000\r\n\r\n{body}").encode()


def _kill_at_random(db: Path, rng: random.Random, args: tuple[str, ...], figures: Counter) -> None:
    proc = start(db, *args)
    time.sleep(rng.uniform(0.2, 2.5))
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
        figures[f"{args[0]} killed mid-run"] += 1
    else:
        figures[f"{args[0]} finished before the kill"] += 1
    proc.communicate()


def check_consistent(db: Path, box: mailbox.Maildir | None, turns: int | None = None) -> list[str]:
    """Every broken promise of the store after a campaign (empty: consistent)."""
    problems = []
    done = run(db, "replay", "g1", "--verify")
    if done.returncode != 0:
        problems.append(f"replay --verify: {done.stderr.strip()}")
    store = Store(db, readonly=True)
    problems += store.verify("g1")
    events = store.events("g1")
    adjudicated = Counter(e.payload["turn"] for e in events if e.type == "TurnAdjudicated")
    problems += [f"turn {t} adjudicated {n} times" for t, n in adjudicated.items() if n > 1]
    if turns is not None and len(adjudicated) != turns:
        problems.append(f"{len(adjudicated)} turns adjudicated, expected {turns}")
    keys = Counter(e.key for e in events if e.key)
    problems += [f"event key {k} twice" for k, n in keys.items() if n > 1]
    rows = list(store.db.query("select key, status from mails"))
    problems += [f"mail {r['key']} has no outcome" for r in rows if r["status"] in (None, "new")]
    if box is not None and len(rows) != len(box):
        problems.append(f"{len(box)} mails in the folder, {len(rows)} kept")
    replies = Counter()
    for row in store.outbox():
        if row["kind"] == "reply":
            replies[email.message_from_bytes(row["message"]).get("In-Reply-To")] += 1
    problems += [f"{n} replies to {k}" for k, n in replies.items() if n > 1 and k]
    store.close()
    return problems


@pytest.mark.slow
def test_kill_9_during_ingest_and_adjudicate(tmp_path):
    rng = random.Random(int(os.environ.get("PBEM_CAMPAIGN_SEED", "17")))
    rounds = 3
    db, passwords, box = new_game(tmp_path, rounds)
    figures: Counter = Counter()
    for n in range(1, rounds + 1):
        add_mails(box, passwords, f"round-{n}", n)
        for _ in range(KILLS):
            _kill_at_random(db, rng, ("ingest", str(box._path)), figures)
        done = run(db, "ingest", str(box._path))
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        for _ in range(KILLS):
            _kill_at_random(db, rng, ("adjudicate", "g1"), figures)
        done = run(db, "adjudicate", "g1")
        assert "Traceback" not in done.stderr and done.returncode in (0, 1), done.stderr
    problems = check_consistent(db, box, turns=rounds)
    figures["cases"] = sum(v for k, v in figures.items() if k != "cases")
    figures["failures"] = len(problems)
    _report("kill -9", dict(figures))
    assert problems == []


COMMANDS = {
    "status": ("status",), "show": ("show", "g1"), "log": ("log", "g1"), "outbox": ("outbox",),
    "replay": ("replay", "g1", "--verify"), "export": ("export", "g1", "-o", "{tmp}/export-{n}.json"),
    "ingest": ("ingest", "{inbox}"), "adjudicate": ("adjudicate", "g1"),
    "deadline": ("deadline", "g1", "2030-01-01T00:00Z"), "send": ("send", "--maildir", "{tmp}/sent"),
}
WRITERS = ("ingest", "adjudicate", "deadline", "send")


def _pairs() -> list[tuple[str, str]]:
    every = list(itertools.combinations_with_replacement(COMMANDS, 2))
    if FULL:
        return every
    chosen = [p for p in every if p[0] in WRITERS and p[1] in WRITERS]  # every writer pair
    chosen += [(reader, WRITERS[i % len(WRITERS)]) for i, reader in enumerate(c for c in COMMANDS if c not in WRITERS)]
    return chosen


@pytest.mark.slow
def test_concurrent_pairs_of_commands(tmp_path):
    db, passwords, box = new_game(tmp_path, 50)
    for n in (1, 2):
        add_mails(box, passwords, "round-1", n)
    figures: Counter = Counter()
    crashes = []
    for i, pair in enumerate(_pairs()):
        if i % 3 == 0:  # keep the writers busy: new orders for the pending turn
            add_mails(box, passwords, _pending(db), 10 + i)
        procs = []
        for j, name in enumerate(pair):
            args = [a.format(tmp=tmp_path, inbox=box._path, n=f"{i}-{j}") for a in COMMANDS[name]]
            procs.append((name, start(db, *args)))
        for name, proc in procs:
            out, err = proc.communicate(timeout=300)
            figures["runs"] += 1
            lines = err.strip().splitlines()
            bad = ("Traceback" in err or "locked" in err or "busy" in err or proc.returncode not in (0, 1)
                   or (proc.returncode == 1 and not (len(lines) == 1 and lines[0].startswith("Error:"))))
            if bad:
                crashes.append(f"{pair}: {name} exit {proc.returncode}: {err.strip()[-300:]}")
        figures["pairs"] += 1
    run(db, "ingest", str(box._path))  # the mails added after the last ingest
    problems = crashes + check_consistent(db, box)
    figures["failures"] = len(problems)
    _report("concurrent pairs", dict(figures))
    assert problems == []


def _pending(db: Path) -> str:
    done = run(db, "status", "g1", "--json")
    return json.loads(done.stdout)["turn"] if done.returncode == 0 else "round-1"
