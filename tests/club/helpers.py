"""What the club's tests share: a GM's setup (a database, a Maildir the players' mails are
delivered into, the CLI with the test's clock) and small readers of what came out."""

from __future__ import annotations

import json
from typing import Any

from pbem.store.db import Store
from tests.loop.mailrun import SEATS, Setup, text

__all__ = ["SEATS", "Setup", "text", "events", "block", "answers", "last_answer"]


def events(setup: Setup, game_id: str, kind: str | None = None) -> list[Any]:
    """The game's events (of one type)."""
    found = Store(setup.db).events(game_id)
    return [e for e in found if kind is None or e.type == kind]


def block(setup: Setup, seat: str, game_id: str, *lines: str) -> str:
    """Mail one GAME block of ``seat`` (from its registered address) into the Maildir."""
    body = "\n".join([f"GAME {game_id} {seat} {setup.passwords[seat]}", *lines, "END", ""])
    return setup.mail(SEATS[seat], f"{game_id} {seat}", "Hello,\n\n" + body)


def answers(setup: Setup, to: str, kind: str = "command") -> list[str]:
    """The texts of the mails of ``kind`` queued for ``to``, oldest first."""
    return [text(r) for r in setup.outbox(kind, to)]


def last_answer(setup: Setup, to: str, kind: str = "command") -> str:
    """The text of the latest mail of ``kind`` queued for ``to``, its lines joined (a wrapped
    sentence reads as one)."""
    found = answers(setup, to, kind)
    assert found, f"no {kind} mail to {to}"
    return " ".join(found[-1].split())


def status(setup: Setup, game_id: str) -> dict[str, Any]:
    """``pbem status GAME --json``."""
    return json.loads(setup.run("status", game_id, "--json"))
