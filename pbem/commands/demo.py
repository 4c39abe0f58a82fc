"""``pbem demo`` and ``pbem bots``: bots playing by mail."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.app import App, emit, pass_app
from pbem.cli import cli
from pbem.commands.reports import write_turn_reports
from pbem.errors import DomainError


@cli.command()
@click.option("--out", "out", default="demo-out", show_default=True, type=click.Path(file_okay=False),
              help="Where the mails, reports, archive and index.html go.")
@click.option("--game", "game", default="wallenstein", show_default=True, help="Which game to play.")
@click.option("--seats", default=4, show_default=True, help="How many seats (bots).")
@click.option("--seed", default="pbem-demo-1", show_default=True, help="The game's seed (fixed: same demo every time).")
@click.option("--option", "options", multiple=True, metavar="K=V", help="A game option.")
@click.option("--turns", "max_turns", type=int, help="Stop after this many turns (default: play to the end).")
@click.option("--bot", type=click.Choice(["heuristic", "random"]), default="heuristic", show_default=True)
@click.option("--no-reports", is_flag=True, help="Skip rendering reports (faster).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
@pass_app
def demo(app: App, out: str, game: str, seats: int, seed: str, options: tuple[str, ...], max_turns: int | None,
         bot: str, no_reports: bool, as_json: bool) -> None:
    """Play a whole sample game by mail with bots and write a browsable folder.

    Bots write their orders as real .eml files, which are ingested, validated and
    adjudicated like players' mail; every turn's reports are rendered; the game is
    exported, verified, and written as a readable record.

    \b
    Example:
      pbem --db demo-out/pbem.db demo --out demo-out
      pbem --db /tmp/h.db demo --game havoc --seats 3 --out /tmp/havoc-demo
    """
    from pbem.demo import run_demo

    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    if app.store.game_row(f"demo-{game}") is not None:
        raise DomainError(f"{app.db_path} already holds demo-{game}; use a fresh --db (e.g. rm {app.db_path})")
    opts = dict(o.split("=", 1) for o in options)
    say = (lambda _: None) if as_json else click.echo
    say(f"pbem demo: {seats} bots play {game} (seed {seed!r}) by mail into {target}/")
    render = None if no_reports else (lambda turn, where: write_turn_reports(app, f"demo-{game}", turn, None, where))
    result = run_demo(app.service, target, game, seats, seed, opts, max_turns, bot, render, say)
    emit(result.as_dict(), as_json,
         f"\ndone: {len(result.turns)} turns, {result.mails} order mails ingested; winner: {result.winner or 'none'}\n"
         f"scores: {', '.join(f'{s} {v}' for s, v in result.scores.items())}\n"
         f"archive verified: {'yes' if result.verified else 'NO'} ({result.files['archive']})\n"
         f"readable record: {result.files['record']}\n"
         f"open this in a browser: {result.files['index']}\n"
         f"outbox: {len(app.store.outbox(unsent_only=True))} messages queued (see 'pbem --db {app.db_path} outbox')")
