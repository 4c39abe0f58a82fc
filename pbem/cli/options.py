"""Options several commands share whose help is computed when it is shown."""

from __future__ import annotations

from typing import Any

import click


class GameOption(click.Option):
    """``--game``: its help lists the games the registry knows when the help is shown (the
    ``{games}`` of the help text), so a game added at run time (``games.add``) is listed too
    and loading the command line reads no registry."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from adjudicator import games

        template = self.help
        if template:
            self.help = template.replace("{games}", ", ".join(games.names()))
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = template


def game_option(*decls: str, **attrs: Any) -> Any:
    """A ``--game`` option (:class:`GameOption`): ``help`` names the games as ``{games}``."""
    return click.option(*decls, cls=GameOption, **attrs)
