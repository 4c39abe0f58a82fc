"""Commands on a game's history: rollback, branch, site."""

from __future__ import annotations

import click

from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command()
@click.argument("game_id")
@click.option("--to", "to", required=True, metavar="TURN", help="The turn to open again (its label, e.g. 1618-summer).")
@click.option("--reason", required=True, help="Why: every seat is told, and the record and archive keep it.")
@click.option("--deadline", metavar="WHEN", help="Deadline of the reopened turn: ISO 8601 with zone, +3d or now+3d (as in 'pbem deadline'; "
                   "the reopened turn has no deadline, so both count from now).")
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
    from pbem.loop.reopen import rollback as roll

    done = roll(app.service, game_id, to, reason, deadline, keep_orders)
    emit(done, as_json, f"rolled {game_id} back: turn {done['turn']} is open again (set aside: "
         f"{', '.join(done['undone'])}); deadline: {done['deadline'] or 'none'}; "
         f"{len(done['mailed'])} seat(s) mailed")


@commands.command()
@click.argument("game_id")
@click.option("--at", "at", required=True, metavar="TURN", help="The last turn of GAME the branch keeps.")
@click.option("--as", "new_id", required=True, metavar="NEW", help="The branch's game id.")
@click.option("--same-seed", is_flag=True, help="Draw from GAME's seed (default: a new seed after TURN).")
@click.option("--no-mail", is_flag=True, help="Queue no welcome mails (the GM's own what-if; passwords only in --json).")
@click.option("--json", "as_json", is_flag=True, help="Print the branch, including each seat's new password.")
@pass_app
def branch(app: App, game_id: str, at: str, new_id: str, same_seed: bool, no_mail: bool, as_json: bool) -> None:
    """Start a new game from GAME's history up to TURN (GAME is never touched).

    The branch has GAME's seats and addresses with new passwords, says it is a branch (its
    log, record and reports), and has its own new seed unless --same-seed.

    \b
    Example:
      pbem branch w1 --at 1619-summer --as w1-whatif --json
    """
    from pbem.loop.gm import branch_game

    made = branch_game(app.service, game_id, at, new_id, same_seed, mail=not no_mail)
    if made.note:
        click.echo(made.note, err=True)
    done = made.summary
    emit(done, as_json, f"branched {game_id} at {at} as {new_id} ({done['turns']} turn(s) kept, "
         f"{'same' if same_seed else 'new'} seed); now awaiting {done['turn']}"
         + ("; welcome mails with new passwords queued" if not no_mail else _no_mail_note(new_id, as_json)))


def _no_mail_note(new_id: str, as_json: bool) -> str:
    """What a GM who queued no welcome mails can do: the passwords were not printed (no
    --json), but the GM's own order texts and ``pbem bots`` need none, and a seat can be
    given a password (with a welcome mail) at any time."""
    return (f"; no mail queued; play it with your own order texts (pbem ingest FILE) or pbem bots; "
            f"'pbem seat {new_id} SEAT --new-password' gives a seat a password and its welcome mail")


@commands.command()
@click.argument("game_id")
@click.option("--out", "out", required=True, type=click.Path(), help="Directory to write the site into.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def site(app: App, game_id: str, out: str, as_json: bool) -> None:
    """Write a static site of the game's public history (opens from the file system).

    One page per reported turn (the public report and map), a turn slider, the VP chart,
    the verification result; once the game is over also the record and the archive file.

    \b
    Example:
      pbem site w1 --out site/ && xdg-open site/index.html
    """
    from pbem.archives.site import write_site

    done = write_site(app.service, game_id, out)
    emit(done, as_json, f"wrote the site of {game_id} to {done['index']}: {done['pages']} turn page(s); "
         + ("verified" if done["verified"] else "NOT verified")
         + ("" if done["record"] else "; record and archive left out until the game ends"))
