"""Fixtures of the history tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def quiet(monkeypatch):
    """No report mails while a test plays its turns (they are tested elsewhere; rendering
    every seat's map each turn would make these tests slow)."""
    import pbem.mailout.notify

    monkeypatch.setattr(pbem.mailout.notify, "turn_reports", lambda *args, **kwargs: [])
