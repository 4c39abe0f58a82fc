"""``pbem report`` of any past turn gives exactly the bytes that were mailed for it.

Games are played through the CLI, one command per "process" (the service's in-process cache
is dropped before every command, as separate ``pbem`` invocations would), so the mailed
reports come from states loaded from snapshots while ``pbem report --turn`` replays from the
events: both must render the same bytes for every turn and every viewer.
"""

from __future__ import annotations

import email
import email.policy
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import pbem.loop.service
from pbem.cli.main import cli
from pbem.store.mailpack import unpack

GAMES = [
    ("w1", "wallenstein", ("red", "blue", "yellow"), (), 4),
    ("w2", "wallenstein", ("red", "blue", "yellow", "black"), ("--option", "setup=draft"), 3),
    ("h1", "havoc", ("anna", "ben", "cis"), (), 2),
]


def _run(db: str, *args: str) -> str:
    if "w2" not in args:  # w2 is played in one process (cached games); the others one command per process
        pbem.loop.service._CACHE.clear()  # a fresh process: no cached game, states come from snapshots
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code in (0, 1), result.output
    return result.output


def _play(db: str, game_id: str, engine: str, seats: tuple[str, ...], extra: tuple[str, ...], reports: int) -> None:
    """Play until ``reports`` turns have had their reports mailed (a Havoc battle takes many decisions)."""
    args = [a for s in seats for a in ("--seat", f"{s}={s}@example.org")]
    _run(db, "new", game_id, "--game", engine, *args, "--seed", f"rerender-{game_id}", "--weak-seed", *extra)
    for _ in range(200):
        if len({turn for g, turn, _, _ in _mailed(db) if g == game_id}) >= reports:
            return
        _run(db, "bots", game_id, *[a for s in seats for a in ("--seat", s)])
        _run(db, "adjudicate", game_id)
    raise AssertionError(f"{game_id}: fewer than {reports} reported turns")


def _mailed(db: str) -> list[tuple[str, str, str, email.message.EmailMessage]]:
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT subject, message FROM outbox WHERE kind LIKE 'report%'").fetchall()
    out = []
    for subject, stored in rows:
        raw = unpack(conn, stored)  # the bytes sent (pictures stored once: pbem.store.mailpack)
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        # the subject names the turn in words (spring 1618); the Message-ID has its label
        game_id, turn, who = re.match(r"<report\.([^.]+)\.([^.~]+)(?:~\d+)?\.([^.@]+)@", msg["Message-ID"]).groups()
        out.append((game_id, turn, {"GM": "gm", "public": "public"}.get(who, who), msg))
    return out


@pytest.mark.slow
def test_report_of_every_past_turn_is_byte_identical_to_the_mailed_one(tmp_path):
    db = str(tmp_path / "g.db")
    for game in GAMES:
        _play(db, *game)
    mailed = _mailed(db)
    assert {g for g, *_ in mailed} == {"w1", "w2", "h1"} and len(mailed) > 40
    rendered: set[tuple[str, str]] = set()
    for game_id, turn, who, msg in mailed:
        out = tmp_path / "out" / game_id
        if (game_id, turn) not in rendered:
            _run(db, "report", game_id, "--turn", turn, "--all", "--out", str(out))
            rendered.add((game_id, turn))
        folder = out / turn.replace("/", "-") / who  # one folder level per turn
        assert (folder / "report.txt").read_text(encoding="utf-8") == msg.get_body(("plain",)).get_content(), \
            f"{game_id} {turn} {who}: the text differs from the mailed report"
        for part in msg.walk():
            name = part.get_filename()
            if name and part.get_content_type() == "image/png":
                assert (folder / name).read_bytes() == part.get_content(), f"{game_id} {turn} {who}: {name} differs"
