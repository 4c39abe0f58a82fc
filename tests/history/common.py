"""What the history tests share: the seats, a game played by forced adjudications, and the
CLI on a database holding one such game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from pbem.cli.main import cli

SEATS = [("red", "r@x.org"), ("blue", "b@x.org"), ("green", "g@x.org")]


def play(service: Any, game_id: str, engine: str, options: dict[str, Any], steps: int, seed: str) -> Any:
    """Create ``game_id`` with :data:`SEATS` and ``seed``, force ``steps`` adjudications, and
    return the loaded game."""
    service.new_game(game_id, engine, SEATS, options, seed)
    for _ in range(steps):
        service.adjudicate(game_id, force=True)
    return service.load(game_id)


def cli_game(tmp_path: Path, name: str = "c.db") -> Callable[..., Result]:
    """The CLI on a new database ``tmp_path/name`` holding the Wallenstein game ``w1`` (seats
    :data:`SEATS`) with spring 1618 adjudicated by force; ``run(*args)`` invokes a command
    with ``--db`` given and returns click's result."""
    db, runner = str(tmp_path / name), CliRunner()

    def run(*args: str) -> Result:
        return runner.invoke(cli, ["--db", db, *args])

    seats = [a for s, e in SEATS for a in ("--seat", f"{s}={e}")]
    assert run("new", "w1", "--game", "wallenstein", *seats).exit_code == 0
    assert run("adjudicate", "w1", "--force").exit_code == 0
    return run
