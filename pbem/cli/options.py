"""Options several commands share: ``--game`` (its help computed when it is shown) and the
``NAME=VALUE`` values of ``--seat`` and ``--option``."""

from __future__ import annotations

from typing import Any

import click

from pbem.errors import DomainError


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


def name_value_pairs(values: tuple[str, ...], what: str) -> list[tuple[str, str]]:
    """``NAME=VALUE`` values of the option ``what`` as pairs; one without both is a usage error."""
    out = []
    for value in values:
        key, sep, val = value.partition("=")
        if not sep or not key or not val:
            raise click.BadParameter(f"{value!r}: expected NAME=VALUE", param_hint=what)
        out.append((key.strip(), val.strip()))
    return out


def option_values(values: tuple[str, ...]) -> dict[str, str]:
    """``K=V`` pairs; a value ``@path`` is replaced by the text of that file."""
    from pathlib import Path

    out = {}
    for key, value in name_value_pairs(values, "--option"):
        if value.startswith("@"):
            path = Path(value[1:])
            if not path.is_file():
                raise DomainError(f"option {key}: no such file {path}")
            value = path.read_text(encoding="utf-8")
        out[key] = value
    return out
