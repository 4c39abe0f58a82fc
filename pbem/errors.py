"""Domain errors of the shell: each becomes a one-line message and exit code 1."""

from __future__ import annotations

import click


class DomainError(click.ClickException):
    """A domain error: printed as one line, exit code 1, never a traceback."""

    exit_code = 1


class ConflictError(DomainError):
    """A stale writer tried to append after an event that is no longer the last."""
