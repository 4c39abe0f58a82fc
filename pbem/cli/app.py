"""The CLI's application object: the database path, the store and the service, made lazily."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import click

from pbem.mailout.config import Config, load_config
from pbem.loop.service import Service
from pbem.store.db import Store


@dataclass
class App:
    """Carried on the click context (``ctx.obj``)."""

    db_path: str
    #: The game address mail is sent from: given, else ``PBEM_FROM``, else ``sender`` of pbem.toml.
    sender: str = ""
    _store: Store | None = None
    #: A read-only command: the store never takes the write lock nor creates a database.
    readonly: bool = False
    config_path: str | None = None
    _config: Config | None = None

    def __post_init__(self) -> None:
        if not self.sender:
            self.sender = os.environ.get("PBEM_FROM") or self.config.sender or "pbem@localhost"

    @property
    def config(self) -> Config:
        """``pbem.toml`` (``--config``, else next to the database) with environment overrides."""
        if self._config is None:
            self._config = load_config(self.config_path, self.db_path)
        return self._config

    @property
    def store(self) -> Store:
        """The store of ``db_path`` (opened, and migrated if behind, on first use)."""
        if self._store is None:
            self._store = Store(self.db_path, readonly=self.readonly)
        return self._store

    @property
    def service(self) -> Service:
        """The game service over the store."""
        return Service(self.store, sender=self.sender)


pass_app = click.make_pass_decorator(App)

#: Commands that only read the database.
READ_ONLY_COMMANDS = frozenset({"status", "outbox", "show", "log", "report", "replay", "export", "press", "site"})


def emit(data: Any, as_json: bool, text: str | None = None) -> None:
    """Print ``data`` as JSON (``as_json``) or ``text``."""
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True))
    elif text is not None:
        click.echo(text)
