"""The commands one module of ``pbem/cli/commands/`` defines, kept until the ``pbem`` group
(:mod:`pbem.cli.main`) adds them.

A command module imports this module, never the group: the group imports a command module
when one of its commands is asked for and adds what the module's :class:`CommandSet` holds,
so the imports run one way (the group -> the command modules -> this module).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


class CommandSet:
    """A module's commands, made with the same decorators a click group offers
    (``@commands.command(...)``, ``@commands.group(...)``) and added to ``pbem`` later."""

    def __init__(self) -> None:
        self.commands: list[click.Command] = []

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], click.Command]:
        """``@commands.command(name, ...)``: a command of ``pbem`` (as ``click.command``)."""
        return self._keeping(click.command(*args, **kwargs))

    def group(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], click.Group]:
        """``@commands.group(name, ...)``: a group of sub-commands of ``pbem`` (as ``click.group``)."""
        return self._keeping(click.group(*args, **kwargs))

    def _keeping(self, make: Callable[[Callable[..., Any]], Any]) -> Callable[[Callable[..., Any]], Any]:
        def decorate(function: Callable[..., Any]) -> Any:
            command = make(function)
            self.commands.append(command)
            return command

        return decorate
