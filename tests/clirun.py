"""The CLI as the command-line tests call it: three seats' options and a run that checks
the exit status."""

from __future__ import annotations

from click.testing import CliRunner

from pbem.cli.main import cli

#: ``--seat`` options for red, blue and yellow (each ``<seat>@example.org``).
SEATS = [a for s in ("red", "blue", "yellow") for a in ("--seat", f"{s}={s}@example.org")]


def run(*args: str, code: int = 0) -> str:
    """``pbem ARGS``: its output, after checking that it ended with exit status ``code``."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, (args, result.output)
    return result.output
