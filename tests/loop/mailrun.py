"""A GM's setup as the mail tests meet it: a database with a game, a Maildir the players'
mails are delivered into, ``pbem`` run on both, and the outbox read back as the players
will read their mail."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime
from itertools import count
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pbem.cli.app import App
from pbem.cli.main import cli
from pbem.mailout.deliver import message_of
from pbem.loop.service import Service
from pbem.store.db import Store

SEATS = {"red": "anna@example.org", "blue": "ben@example.org", "green": "cis@example.org",
         "yellow": "dan@example.org"}
_ids = count(1)


class Setup:
    """One database, one Maildir, one clock the test moves (``clock.now``)."""

    def __init__(self, tmp: Path, clock: Any, sender: str = "gm@pbem.example") -> None:
        self.db = str(tmp / "pbem.db")
        self.clock = clock
        self.sender = sender
        self.maildir = str(tmp / "Maildir")
        self.box = mailbox.Maildir(self.maildir, create=True)
        self.passwords: dict[str, str] = {}

    def service(self) -> Service:
        return Service(Store(self.db, clock=self.clock), sender=self.sender)

    def new_game(self, game_id: str = "w1", engine: str = "toy-dice-duel", seats: tuple[str, ...] = ("red", "blue"),
                 **kwargs: Any) -> dict[str, str]:
        created = self.service().new_game(game_id, engine, [(s, SEATS[s]) for s in seats], seed="t" * 40, **kwargs)
        self.passwords.update(created.passwords)
        return created.passwords

    def mail(self, sender: str, subject: str, body: str, date: datetime | None = None,
             headers: dict[str, str] | None = None) -> str:
        """Deliver a plain-text mail into the Maildir; returns its Message-ID."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, self.sender, subject
        msg["Message-ID"] = mid = f"<t{next(_ids)}@example.org>"
        msg["Date"] = format_datetime(date or self.clock.now)
        for name, value in (headers or {}).items():
            msg[name] = value
        msg.set_content(body)
        self.box.add(bytes(msg))
        return mid

    def raw(self, data: bytes) -> None:
        """Deliver raw bytes into the Maildir."""
        self.box.add(data)

    def run(self, *args: str, code: int = 0) -> str:
        """``pbem --db DB ARGS`` with the test's clock; the output, after checking the exit status."""
        app = App(self.db, sender=self.sender, _store=Store(self.db, clock=self.clock))
        result = CliRunner().invoke(cli, ["--db", self.db, *args], obj=app)
        assert result.exit_code == code, (args, result.output)
        return result.output

    def ingest(self, *args: str) -> str:
        return self.run("ingest", *args, self.maildir)

    def outbox(self, kind: str | None = None, to: str | None = None) -> list[dict[str, Any]]:
        rows = Store(self.db).outbox()
        return [r for r in rows if (kind is None or r["kind"] == kind) and (to is None or r["to_addr"] == to)]


def text(row: dict[str, Any]) -> str:
    """The plain text a player reads of an outbox message."""
    body = message_of(row).get_body(preferencelist=("plain",))
    return body.get_content() if body is not None else ""
