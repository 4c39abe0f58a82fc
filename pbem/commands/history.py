"""Commands on a game's history (issue 19): rollback, branch, site."""

from __future__ import annotations

import click

from pbem.app import App, emit, pass_app
from pbem.cli import cli


@cli.command()
@click.argument("game_id")
@click.option("--to", "to", required=True, metavar="TURN", help="The turn to open again (its label, e.g. 1618-summer).")
@click.option("--reason", required=True, help="Why: every seat is told, and the record and archive keep it.")
@click.option("--deadline", metavar="WHEN", help="Deadline of the reopened turn: ISO 8601 with zone, or +3d from now.")
@click.option("--keep-orders", is_flag=True, help="Orders accepted for TURN before it was adjudicated stay in force.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def rollback(app: App, game_id: str, to: str, reason: str, deadline: str | None, keep_orders: bool,
             as_json: bool) -> None:
    """Open an adjudicated turn again without deleting anything.

    A RolledBack event is appended: the game is rebuilt from the events before TURN plus
    whatever is submitted again; the turns set aside stay in the log (replay --verify still
    checks them). Every seat is mailed which turn is open again and why.

    \b
    Example:
      pbem rollback w1 --to 1618-summer --reason "red's order was recorded wrongly" --deadline +3d
    """
    from pbem.rollback import rollback as roll

    done = roll(app.service, game_id, to, reason, deadline, keep_orders)
    emit(done, as_json, f"rolled {game_id} back: turn {done['turn']} is open again (set aside: "
         f"{', '.join(done['undone'])}); deadline: {done['deadline'] or 'none'}; "
         f"{len(done['mailed'])} seat(s) mailed")
