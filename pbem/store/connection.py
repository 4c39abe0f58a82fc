"""The SQLite file under the event store: opening it (read-only or writing, migrated to the
current schema, in WAL mode), one writer's transactions (``BEGIN IMMEDIATE``, nested ones
as savepoints), group commits, and the plain-sqlite3 row helpers the store's tables use.

A writer waits for the lock up to the busy timeout (``PBEM_BUSY_TIMEOUT`` seconds, default
30), then gets :class:`StoreBusy` (one line, exit status 1). What the tables hold is
:class:`pbem.store.db.Store`'s.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import quote

from pbem.errors import DomainError
from pbem.store.migrations import behind, migrate

if TYPE_CHECKING:
    import sqlite_utils

Clock = Callable[[], datetime]


class StoreBusy(DomainError):
    """Another pbem command held the database's write lock for longer than the busy timeout."""


class NoDatabase(DomainError):
    """A read-only command was pointed at a database that does not exist."""


def busy_timeout() -> float:
    """Seconds a writer waits for the write lock (env ``PBEM_BUSY_TIMEOUT``, default 30)."""
    try:
        return max(0.0, float(os.environ.get("PBEM_BUSY_TIMEOUT", "30")))
    except ValueError:
        return 30.0


def is_lock_error(exc: BaseException) -> bool:
    """True for SQLite's 'database is locked' / 'busy' errors (a lock wait that timed out)."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def busy_error(path: str) -> StoreBusy:
    """The one-line error of a lock wait that timed out."""
    return StoreBusy(f"the database {path} is busy: another pbem command kept its write lock for more "
                     f"than {busy_timeout():g} s; try again (or raise PBEM_BUSY_TIMEOUT)")


def iso(moment: datetime) -> str:
    """ISO-8601 text of an aware datetime, in UTC, seconds precision."""
    return moment.astimezone(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class Connection:
    """One pbem database file, opened (read-only or writing) and migrated: its transactions
    and row helpers. :class:`pbem.store.db.Store` adds what its tables mean."""

    def __init__(self, path: str | Path, clock: Clock, readonly: bool = False) -> None:
        self.path = str(path)
        self.clock = clock
        self.readonly = readonly and self.path != ":memory:"
        self._relaxed = False
        self._depth = 0  # nesting of transaction() inside the open one (savepoints)
        if self.readonly and not Path(self.path).is_file():
            raise NoDatabase(f"no pbem database at {self.path}: run this where your pbem.db is, or give "
                             "--db PATH (or set PBEM_DB); nothing was created")
        self._db: sqlite_utils.Database | None = None
        try:
            self.conn = self._open()
            if self.readonly and behind(self.conn):  # an older schema: upgrade it once, then read
                self.conn.close()
                self._open(write=True).close()
                self.conn = self._open()
        except sqlite3.OperationalError as exc:
            self._refuse(exc)
            raise

    def _refuse(self, exc: sqlite3.OperationalError) -> None:
        """Raise the one-line error for a locked file or a database that cannot be opened (no
        such directory, not writable); return for any other error (the caller re-raises it)."""
        if is_lock_error(exc):
            raise busy_error(self.path) from None
        if "unable to open" in str(exc):  # no such directory, or not writable
            parent = Path(self.path).parent
            why = f"the directory {parent} does not exist" if not parent.is_dir() else str(exc)
            raise DomainError(f"cannot open or create the database {self.path}: {why}") from None

    @property
    def db(self) -> sqlite_utils.Database:
        """The connection wrapped by sqlite-utils (its table API), made on first use: importing
        sqlite-utils (which imports numpy when installed) costs more than a ``pbem status``
        needs, and the store's own queries use :attr:`conn` directly."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn, execute_plugins=False)
        return self._db

    def _open(self, write: bool = False) -> sqlite3.Connection:
        """A connection (read-only unless ``write`` or this is a writing store), migrated."""
        timeout = busy_timeout()
        if self.readonly and not write:
            uri = "file:" + quote(Path(self.path).resolve().as_posix()) + "?mode=ro"
            conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
        else:
            conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        if self.readonly and not write:
            return conn
        if self.path != ":memory:" and conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = wal")  # only when not yet in WAL mode (no lock)
        if behind(conn):
            import sqlite_utils

            migrate(sqlite_utils.Database(conn, execute_plugins=False))
        return conn

    def now(self) -> str:
        """The injected clock's time as ISO text."""
        return iso(self.clock())

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[Self]:
        """One write transaction (``BEGIN IMMEDIATE``); nested calls become savepoints."""
        conn = self.conn
        if conn.in_transaction:
            self._depth += 1
            name = f"pbem_{self._depth}"
            conn.execute(f"SAVEPOINT {name}")
            try:
                yield self
            except BaseException:
                if conn.in_transaction:
                    conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                    conn.execute(f"RELEASE SAVEPOINT {name}")
                raise
            else:
                conn.execute(f"RELEASE SAVEPOINT {name}")
            finally:
                self._depth -= 1
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            self._refuse(exc)
            raise
        try:
            yield self
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextmanager
    def group_commit(self) -> Iterator[Self]:
        """Commits inside do not wait for the disk; on leaving, all of them are made durable.

        A commit normally waits for an fsync of the write-ahead log (``synchronous=FULL``),
        which costs more than processing a mail. Inside this block the connection runs with
        ``synchronous=NORMAL``: each transaction is still atomic and the database consistent
        after a crash at any point (WAL), but a power cut may undo the last commits; leaving
        the block fsyncs the WAL, so whatever the caller does next (flag or move mails, exit
        to procmail) happens only after every commit in the block is on disk. Nested blocks
        leave that to the outermost one; outside WAL mode (``:memory:``) it changes nothing."""
        conn = self.conn
        if self._relaxed or self.readonly or self.path == ":memory:":
            yield self
            return
        before = int(conn.execute("PRAGMA synchronous").fetchone()[0])
        self._relaxed = True
        conn.execute("PRAGMA synchronous = NORMAL")
        try:
            yield self
        finally:
            self._relaxed = False
            conn.execute(f"PRAGMA synchronous = {before}")
            self._sync_wal()

    def _sync_wal(self) -> None:
        """fsync the write-ahead log: every transaction committed so far becomes durable (a
        checkpoint already synced what it moved to the database file)."""
        try:
            fd = os.open(self.path + "-wal", os.O_RDONLY)
        except FileNotFoundError:
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows of one SELECT as dicts (plain sqlite3: no savepoint or schema look-up per
        query, which sqlite-utils' ``query`` adds and ingest cannot afford on every mail)."""
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def _insert_row(self, table: str, row: dict[str, Any]) -> int:
        """INSERT one row (the table and its columns exist: pbem.store.migrations); its rowid."""
        columns = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" * len(row))
        cursor = self.conn.execute(f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', list(row.values()))
        return int(cursor.lastrowid or 0)

    def _upsert_row(self, table: str, pk: str, row: dict[str, Any]) -> None:
        """INSERT one row, or UPDATE the given columns of the row with the same ``pk``."""
        columns = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" * len(row))
        sets = ", ".join(f'"{c}" = excluded."{c}"' for c in row if c != pk)
        self.conn.execute(f'INSERT INTO "{table}" ({columns}) VALUES ({marks}) '
                             f'ON CONFLICT("{pk}") DO UPDATE SET {sets}', list(row.values()))
