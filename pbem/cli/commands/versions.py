"""``pbem upgrade``: move a running game to newer rules; ``pbem rules``: the versions this pbem has."""

from __future__ import annotations

import click

from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command()
@click.argument("game_id")
@click.option("--to", "to", metavar="VERSION", help="The rules version to move to (default: the newest).")
@click.option("--reason", required=True, help="Why: recorded in the game's log and mailed to every seat.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def upgrade(app: App, game_id: str, to: str | None, reason: str, as_json: bool) -> None:
    """Move a running game to newer rules, between turns (recorded; every seat is mailed).

    A game keeps the rules version it was created with until you move it on: one event in
    its log names both versions and your reason, and from the pending turn on the game is
    played with the new rules; what was played before stands. Refused, with nothing written,
    for an older or unknown version, a finished game, or a turn some seat has sent orders for.

    \b
    Example:
      pbem status w1                      # "rules: wallenstein 1.0; this pbem's newest is 1.1"
      pbem rules wallenstein              # what each version changes
      pbem upgrade w1 --reason "the rules fixes of 1.1, agreed by mail"
    """
    event = app.service.upgrade(game_id, to, reason)
    p = event.payload
    emit({"game": game_id, **{k: p[k] for k in ("from", "to", "turn", "reason", "state_hash")}, "seq": event.seq},
         as_json, f"{game_id}: rules {p['from']} -> {p['to']} from turn {p['turn']} on; every seat is told by mail "
                  f"(recorded as event {event.seq})")


@commands.command()
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def rules(game: str | None, as_json: bool) -> None:
    """The rules versions this pbem keeps for each game, and what each one changes.

    Every version stays: a game created under one is replayed, verified and continued under
    it until the GM moves it on with 'pbem upgrade'.

    \b
    Example:
      pbem rules
      pbem rules havoc --json
    """
    from pbem.loop.upgrade import rules_of

    found = rules_of(game)
    out = [{"game": r.game, "newest": r.newest, "versions": r.versions} for r in found]
    lines = [line for r in found for line in [f"{r.game}: newest {r.newest}", *("  " + x for x in r.lines)]]
    emit(out if game is None else out[0], as_json, "\n".join(lines))
