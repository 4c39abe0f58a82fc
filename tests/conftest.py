"""Shared fixtures: a fixed clock, a fresh store, the toy engine registered."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import settings

import tests.toy  # noqa: F401  (registers the toy engine and grammar)
from pbem.loop.service import Service
from pbem.store.db import Store


# No per-example deadline: a property test checks behaviour, and a loaded 2-core CI machine
# must not turn into a failure what is a matter of speed (speed lives in `make bench`).
settings.register_profile("pbem", deadline=None)
settings.load_profile("pbem")


class FakeClock:
    """A clock that advances one second per reading, from a fixed start."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path, clock) -> Store:
    s = Store(tmp_path / "pbem.db", clock=clock)
    yield s
    s.close()


@pytest.fixture
def service(store) -> Service:
    return Service(store, sender="gm@pbem.example")
