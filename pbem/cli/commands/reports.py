"""``pbem report``: render any adjudicated turn's reports to a directory."""

from __future__ import annotations

import click

from adjudicator.base import GM, PUBLIC
from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command()
@click.argument("game_id")
@click.option("--turn", help="The adjudicated turn to render (default: the last one; 'start': the opening position).")
@click.option("--seat", help="Only this seat's report.")
@click.option("--public", is_flag=True, help="Only the public report.")
@click.option("--gm", is_flag=True, help="Only the GM report.")
@click.option("--all", "all_", is_flag=True, help="Every seat, the public and the GM (the default).")
@click.option("--out", "out", required=True, type=click.Path(), help="Directory to write into.")
@click.option("--set-aside", "set_aside", is_flag=True,
              help="The turn as it was adjudicated before the latest rollback that set it aside (needs --turn; "
                   "written under <turn>~set-aside-<event>).")
@click.option("--json", "as_json", is_flag=True, help="List the files written as JSON.")
@pass_app
def report(app: App, game_id: str, turn: str | None, seat: str | None, public: bool, gm: bool, all_: bool,
           out: str, set_aside: bool, as_json: bool) -> None:
    """Render reports (text, HTML, PNG) of any adjudicated turn into a directory.

    \b
    Example:
      pbem report w1 --turn 1618-summer --seat red --out reports/
      pbem report w1 --all --out reports/
      pbem report w1 --turn 1618-summer --set-aside --out reports/   # as it was before a rollback
    """
    only = [v for v, on in ((seat, bool(seat)), (PUBLIC, public), (GM, gm)) if on] or None
    if all_:
        only = None
    from pbem.loop.reportfiles import write_turn_reports

    files = write_turn_reports(app.service, game_id, turn, only, out, set_aside)
    emit([str(p) for p in files], as_json, f"wrote {len(files)} files under {out}")
