"""Fixtures of the mail tests: two toy games with fixed passwords, and ingest helpers.

The mail files in ``fixtures/`` (written by ``fixtures/make_fixtures.py``) address these
games and seats with these passwords.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import pbem.loop.creating
from pbem.loop.ingest import Ingestor, Outcome
from pbem.mailin.parse import RawMail
from pbem.loop.service import Service
from tests.mail.servers import smtp  # noqa: F401 - the fixture, for every mail test

FIXTURES = Path(__file__).parent / "fixtures"
PASSWORDS = {"red": "rk7m-2xpd-9rtw", "blue": "bq3n-8vhs-4kfa", "green": "gz5c-7mwe-2pjd",
             "yellow": "yt6h-3nbu-8ex4"}
SEATS = {"red": "anna.kovacs@example.hu", "blue": "ben@example.org", "green": "cis@example.cz",
         "yellow": "dan@example.org"}


def fixture(name: str) -> bytes:
    """The bytes of a checked-in mail fixture."""
    return (FIXTURES / name).read_bytes()


def create(service: Service, monkeypatch: pytest.MonkeyPatch, game_id: str, seats: list[str],
           engine: str = "toy-dice-duel", **kwargs: object) -> None:
    """Create a game whose seats have the fixed passwords of :data:`PASSWORDS`."""
    queue: Iterator[str] = iter(PASSWORDS[s] for s in seats)
    monkeypatch.setattr(pbem.loop.creating, "new_password", lambda: next(queue))
    service.new_game(game_id, engine, [(s, SEATS[s]) for s in seats], **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def games(service: Service, monkeypatch: pytest.MonkeyPatch) -> Iterator[Service]:
    """``duel`` (red, blue, green, yellow) and ``duel2`` (red, blue), toy dice duels.

    After every test using it, every queued message but the welcome mails (which carry
    the password by design) is scanned: no password, raw or decoded, may be in it.
    """
    create(service, monkeypatch, "duel", ["red", "blue", "green", "yellow"])
    create(service, monkeypatch, "duel2", ["red", "blue"])
    yield service
    assert_no_password_queued(service)


def assert_no_password_queued(service: Service) -> None:
    """No outbox message other than a welcome mail contains a seat's password."""
    for row in service.store.outbox():
        if row["kind"] == "welcome":
            continue
        texts = [row["message"].decode("utf-8", "replace"), row["subject"], reply_text(row)]
        for secret in PASSWORDS.values():
            assert not any(secret in t for t in texts), (row["id"], row["kind"])


@pytest.fixture
def ingest(games: Service):
    """Ingest a fixture (by name) or raw bytes; returns the :class:`Outcome`."""
    ingestor = Ingestor(games)

    def run(name_or_raw: str | bytes) -> Outcome:
        if isinstance(name_or_raw, bytes):
            return ingestor.ingest(RawMail(name_or_raw, "<test>"))
        return ingestor.ingest(RawMail(fixture(name_or_raw), name_or_raw))

    return run


def replies(service: Service) -> list[dict]:
    """The reply rows in the outbox, in order."""
    return [r for r in service.store.outbox() if r["kind"] == "reply"]


def reply_text(row: dict) -> str:
    """The decoded text body of an outbox row."""
    from pbem.mailout.deliver import message_of

    return message_of(row).get_body(preferencelist=("plain",)).get_content()
