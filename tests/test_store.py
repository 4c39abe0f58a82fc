"""The event store: atomic ordered appends, optimistic concurrency, idempotency, hash chain."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest

from pbem.errors import ConflictError
from pbem.store.migrations import MIGRATIONS
from pbem.store.db import NewEvent, Store


def test_fresh_schema(store):
    tables = set(store.db.table_names())
    assert {"events", "games", "outbox", "mails", "snapshots", "_migrations"} <= tables
    cols = set(store.db["events"].columns_dict)
    assert cols == {"id", "game_id", "seq", "type", "version", "payload", "recorded_at", "prev_hash", "hash", "key"}
    assert store.db.journal_mode == "wal"
    indexes = {tuple(i.columns): i.unique for i in store.db["events"].indexes}
    assert indexes[("game_id", "seq")] and indexes[("key",)]


def test_migrations_run_once(tmp_path):
    Store(tmp_path / "a.db").close()
    s = Store(tmp_path / "a.db")
    names = [r["name"] for r in s.db.query("select name from _migrations")]
    assert names[:2] == ["001_initial", "002_secrets"] and names == [n for n, _ in MIGRATIONS]


def test_append_sequences_and_chain(store, clock):
    r = store.append("g", [NewEvent("A", {"n": 1}), NewEvent("B", {"n": 2})], expected_seq=0)
    assert [e.seq for e in r.events] == [1, 2]
    assert r.events[1].prev_hash == r.events[0].hash
    assert r.events[0].recorded_at == "2026-01-01T12:00:01Z"  # from the injected clock
    assert store.verify("g") == []


def test_stale_writer_gets_conflict(store):
    store.append("g", [NewEvent("A", {})], expected_seq=0)
    with pytest.raises(ConflictError, match="expected to append after event 0"):
        store.append("g", [NewEvent("B", {})], expected_seq=0)
    assert [e.type for e in store.events("g")] == ["A"]


def test_same_key_twice_is_one_event(store):
    first = store.append("g", [NewEvent("OrdersSubmitted", {"x": 1}, key="mail-1")], expected_seq=None)
    again = store.append("g", [NewEvent("OrdersSubmitted", {"x": 1}, key="mail-1")], expected_seq=None)
    assert again.duplicate and again.events[0].seq == first.events[0].seq
    assert len(store.events("g")) == 1


def test_failed_batch_writes_nothing(store):
    store.append("g", [NewEvent("A", {}, key="k")], expected_seq=0)
    with pytest.raises(sqlite3.IntegrityError):
        store.append("g", [NewEvent("B", {}), NewEvent("C", {}, key="k")], expected_seq=1)
    assert [e.type for e in store.events("g")] == ["A"]


def _chain(store, n=4):
    store.append("g", [NewEvent(f"E{i}", {"i": i}) for i in range(n)], expected_seq=0)
    store.upsert_game("g", engine="toy")


def test_tampered_payload_detected(store):
    _chain(store)
    store.db.execute("update events set payload = ? where game_id = 'g' and seq = 2", ['{"i":99}'])
    assert any("event 2" in p and "tampered" in p for p in store.verify("g"))


def test_deleted_event_detected(store):
    _chain(store)
    store.db.execute("delete from events where game_id = 'g' and seq = 3")
    problems = store.verify("g")
    assert any("missing" in p for p in problems)


def test_truncated_tail_detected(store):
    _chain(store)
    store.db.execute("delete from events where game_id = 'g' and seq = 4")
    assert any("truncated" in p for p in store.verify("g"))


def test_reordered_pair_detected(store):
    _chain(store)
    rows = {r["seq"]: r for r in store.db.query("select * from events where game_id = 'g'")}
    store.db.execute("update events set seq = -1 where game_id = 'g' and seq = 2")
    store.db.execute("update events set seq = 2 where game_id = 'g' and seq = 3")
    store.db.execute("update events set seq = 3 where game_id = 'g' and seq = -1")
    assert rows and store.verify("g")


def _writer(path: str, name: str, count: int) -> None:
    s = Store(path)
    for i in range(count):
        while True:
            try:
                s.append("g", [NewEvent("W", {"writer": name, "i": i}, key=f"{name}-{i}")], s.last_seq("g"))
                break
            except ConflictError:
                continue
    s.close()


def test_concurrent_writers_lose_and_duplicate_nothing(tmp_path):
    path = str(tmp_path / "c.db")
    Store(path).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, name, 60)) for name in ("a", "b")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    s = Store(path)
    events = s.events("g")
    assert [e.seq for e in events] == list(range(1, 121))
    seen = sorted((e.payload["writer"], e.payload["i"]) for e in events)
    assert seen == sorted((w, i) for w in "ab" for i in range(60))
    assert s.verify("g") == []


def test_outbox_rolls_back_with_events(store):
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.append("g", [NewEvent("A", {})], expected_seq=0)
            store.enqueue("g", "a@example.org", "s", b"body", "report", "<m1@x>")
            raise RuntimeError("crash mid-way")
    assert store.events("g") == [] and store.outbox() == []
