"""The GM's command line: ``pbem [--db PATH] COMMAND ...``.

Commands are thin adapters over :mod:`pbem.loop.service` and friends, grouped in
``pbem/cli/commands/``. Domain errors exit 1 with a one-line message; usage errors exit 2.
"""

from __future__ import annotations

import gc
import importlib
import sqlite3
import sys

import click

from adjudicator.base import GameError
from pbem.cli.app import READ_ONLY_COMMANDS, App
from pbem.errors import DomainError
from pbem.store.events import ReplayMismatch
from pbem.store.db import busy_error, is_lock_error


#: The command modules (each imported when first needed).
COMMAND_MODULES = ("games", "status", "mail", "archive", "reports", "demo", "tick", "history", "press", "versions", "club")
#: Which of them defines each command: a command named here imports its own module only, so
#: the commands a cron job or a mail hook runs for every mail start without the others'
#: machinery (``tests/store/test_fast_paths.py`` checks this table against the modules).
COMMAND_HOMES = {"ingest": "mail", "outbox": "mail", "send": "mail", "tick": "tick", "export": "archive",
                 "import": "archive", "record": "archive", "replay": "archive", "report": "reports",
                 "demo": "demo", "bots": "demo", "branch": "history", "rollback": "history", "site": "history",
                 "press": "press", "rules": "versions", "upgrade": "versions", "repair": "tick", "absent": "club",
                 "back": "club", "disorder": "club", "replace": "club", "standby": "club", "lobby": "club",
                 "observe": "club", "offer": "club", "players": "club", "start": "club",
                 "log": "status", "show": "status", "status": "status",
                 **{name: "games" for name in ("abandon", "adjudicate", "deadline", "engines", "games", "new", "seat",
                                               "void")}}
_loading = False  # a command module's commands are being added
_added: set[str] = set()  # the command modules whose commands were added


class _Commands(click.Group):
    """The ``pbem`` group: importing it imports no command module; a command is found in the
    module :data:`COMMAND_HOMES` names (only that module is imported), and every command module
    is imported when the commands are listed (``pbem --help``, ``cli.commands``) or a command
    is not in the table, so that ``pbem status`` or a mail's ``pbem ingest`` starts without
    the other commands' machinery."""

    _all = False

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        if not self._all and not _loading:
            _register()
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._commands = value

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """Add ``cmd`` with the hidden ``--db`` after its name, however its module came to be
        imported (through this group, or by another command's run)."""
        super().add_command(cmd, name)
        _db_after_command_one(cmd)

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; a file or folder the operating system refuses (a directory that
        does not exist, no permission, a full disk) is one line and exit status 1, never a
        traceback, whichever command met it."""
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):  # `pbem log | head`: the reader left
                raise
            from pbem.outfiles import reason

            where = f"{exc.filename}: " if exc.filename else ""
            raise DomainError(f"{where}{reason(exc)}") from None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``; when it is not one already there, the module of
        :data:`COMMAND_HOMES` that defines it is imported, else every command module."""
        found = self._commands.get(cmd_name)
        if found is None and cmd_name in COMMAND_HOMES and not _loading:
            _register_one(COMMAND_HOMES[cmd_name])
            found = self._commands.get(cmd_name)
        found = found or self.commands.get(cmd_name)
        if found is not None and not _loading:
            # a command module imported by another command's run (not through this group)
            # added its commands without the ``--db`` after the name: add it now
            _db_after_command_one(found)
        return found


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--db", "db_path", envvar="PBEM_DB", default="./pbem.db", show_default=True,
              type=click.Path(dir_okay=False), help="The SQLite database (env PBEM_DB).")
@click.option("--config", "config_path", envvar="PBEM_CONFIG", type=click.Path(dir_okay=False),
              help="Settings file (default: pbem.toml next to the database; env PBEM_CONFIG).")
@click.version_option(package_name="pbem")
@click.pass_context
def cli(ctx: click.Context, db_path: str, config_path: str | None) -> None:
    """pbem: run play-by-email board games from one mailbox.

    \b
    Example session:
      pbem new w1 --game wallenstein --seat red=anna@example.org --seat blue=ben@example.org \\
               --seat green=cis@example.org --seat yellow=dan@example.org --json
      pbem ingest ~/Maildir/pbem
      pbem status
      pbem adjudicate w1
      pbem send --maildir ~/outgoing
    """
    if not isinstance(ctx.obj, App):  # a caller (e.g. a test with a fake clock) may pass its own
        ctx.obj = App(db_path, readonly=ctx.invoked_subcommand in READ_ONLY_COMMANDS, config_path=config_path)


def cli_db_path() -> str:
    """The database path of this invocation (for error messages)."""
    import os

    argv = sys.argv
    if "--db" in argv[:-1]:
        return argv[argv.index("--db") + 1]
    return os.environ.get("PBEM_DB", "./pbem.db")


def _register_one(name: str) -> None:
    """Add the commands of the module ``pbem.cli.commands.<name>`` (importing it, once)."""
    global _loading
    _loading = True
    try:
        _add_module(name)
    finally:
        _loading = False
    _db_after_command(cli)


def _register() -> None:
    """Add every command module's commands (once)."""
    global _loading
    if cli._all or _loading:  # type: ignore[attr-defined]
        return
    _loading = True
    try:
        for name in COMMAND_MODULES:
            try:
                _add_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != f"pbem.cli.commands.{name}":
                    raise
        cli._all = True  # type: ignore[attr-defined]
    finally:
        _loading = False
    _db_after_command(cli)


def _add_module(name: str) -> None:
    """Import ``pbem.cli.commands.<name>`` and add the commands its ``commands`` holds, once.
    The module imports :mod:`pbem.cli.commandset`, never this module: imports run one way."""
    if name in _added:
        return
    module = importlib.import_module(f"pbem.cli.commands.{name}")
    for command in module.commands.commands:
        cli.add_command(command)
    _added.add(name)


def _set_db(ctx: click.Context, _: click.Parameter, value: str | None) -> None:
    """``pbem status --db x``: the database given after the command (overrides ``pbem --db``)."""
    if value is not None:
        ctx.ensure_object(App).db_path = value


def _db_after_command(group: click.Group) -> None:
    """Let every command (and sub-command) take ``--db`` after its name as well, as click and
    sqlite-utils users expect; it is hidden from the command's help (``pbem --help`` shows it)."""
    commands = group._commands if isinstance(group, _Commands) else group.commands
    for command in commands.values():
        _db_after_command_one(command)


def _db_after_command_one(command: click.Command) -> None:
    """Give ``command`` (and its sub-commands) the hidden ``--db`` after its name, once."""
    if not any("--db" in p.opts for p in command.params):
        command.params.append(click.Option(["--db"], type=click.Path(dir_okay=False), expose_value=False,
                                           hidden=True, callback=_set_db, is_eager=True,
                                           help="The SQLite database (as pbem --db)."))
    if isinstance(command, click.Group):
        _db_after_command(command)


def main() -> None:
    """Entry point of the ``pbem`` console script."""
    # What is imported by now (click, the store, the service) lives as long as the process:
    # the garbage collector need not walk it again at each full collection while the command
    # imports and runs (about 4% of a one-mail ingest's instructions). Objects made from here
    # on are collected as before, so a long ingest's memory stays as flat as it was.
    gc.freeze()
    try:
        # standalone_mode=False returns the exit code of ``ctx.exit(n)`` instead of exiting
        code = cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (GameError, ReplayMismatch) as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except sqlite3.OperationalError as exc:  # a lock wait that timed out outside a transaction
        if not is_lock_error(exc):
            raise
        click.echo(f"Error: {busy_error(str(cli_db_path()))}", err=True)
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    sys.exit(code if isinstance(code, int) else 0)
