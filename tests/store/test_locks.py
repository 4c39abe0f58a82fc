"""Locks: writers wait for each other, readers take no lock.

Read-only commands open the database without taking the write lock (and without running
migrations when the schema is current), so they work while another command writes; a
write that cannot get the lock in time is a one-line error with exit status 1; a
read-only command where no database exists says so and creates nothing.
"""

from __future__ import annotations

import sqlite3

import pytest

from tests.store.helpers import pbem, wallenstein_game

READ_ONLY = [("status",), ("status", "w1", "--json"), ("outbox",), ("show", "w1", "--seat", "red"),
             ("log", "w1"), ("replay", "w1"), ("export", "w1", "-o", "OUT")]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("locks") / "pbem.db"
    wallenstein_game(path)
    return path


def _args(args, tmp_path):
    return [str(tmp_path / "out.json") if a == "OUT" else a for a in args]


@pytest.mark.parametrize("args", READ_ONLY, ids=lambda a: " ".join(a))
def test_read_only_commands_need_no_write_lock(db, tmp_path, args):
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another command is writing (and keeps writing)
    try:
        done = pbem(db, *_args(args, tmp_path), env={"PBEM_BUSY_TIMEOUT": "2"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_a_write_that_cannot_get_the_lock_is_a_one_line_error(db):
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        done = pbem(db, "deadline", "w1", "2030-01-01T18:00+01:00", env={"PBEM_BUSY_TIMEOUT": "1"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "busy" in lines[0], done.stderr


@pytest.mark.parametrize("args", [("status",), ("outbox",), ("show", "w1"), ("log", "w1"), ("replay", "w1"),
                                  ("report", "w1", "--out", "r")], ids=lambda a: a[0])
def test_read_only_command_without_a_database_says_so(tmp_path, args):
    missing = tmp_path / "nowhere" / "pbem.db"
    done = pbem(missing, *args, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no pbem database" in done.stderr and "Traceback" not in done.stderr
    assert not missing.exists() and not missing.parent.exists()


def test_status_in_the_wrong_folder_creates_nothing(tmp_path):
    done = pbem("", "status", cwd=tmp_path)
    assert done.returncode == 1 and "no pbem database" in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["a%41b?#1.db", "ä ö.db"])
def test_read_only_store_opens_any_path(tmp_path, name):
    from pbem.store.db import Store

    path = tmp_path / name
    Store(path).close()
    ro = Store(path, readonly=True)
    assert ro.game_ids() == []
    ro.close()
