"""``pbem demo`` and ``pbem bots``: bots playing by mail."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicator import games
from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet
from pbem.cli.options import game_option, option_values
from pbem.loop.reportfiles import write_turn_reports
from pbem.outfiles import out_dir, writing

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command()
@click.option("--out", "out", default="demo-out", show_default=True, type=click.Path(),
              help="Where the mails, reports, archive and index.html go.")
@game_option("--game", "game", default=games.names()[0], show_default=True, help="Which game to play: {games}.")
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
    from pbem.loop.demo import require_new_demo, run_demo

    target = out_dir(out)
    require_new_demo(app.store, game)

    opts = option_values(options)
    say = (lambda _: None) if as_json else click.echo
    say(f"pbem demo: {seats} bots play {game} (seed {seed!r}) by mail into {target}/")
    render = None if no_reports else (lambda turn, where: write_turn_reports(app.service, f"demo-{game}", turn, None, where))
    with writing(target):
        result = run_demo(app.service, target, game, seats, seed, opts, max_turns, bot, render, say)
    emit(result.as_dict(), as_json,
         f"\ndone: {len(result.turns)} turns, {result.mails} order mails ingested; winner: {result.winner or 'none'}\n"
         + "".join(f"{note}\n" for note in [games.info(game).demo_note] if note) +
         f"scores: {', '.join(f'{s} {v}' for s, v in result.scores.items())}\n"
         f"archive verified: {'yes' if result.verified else 'NO'} ({result.files['archive']})\n"
         f"readable record: {result.files['record']}\n"
         + "".join(f"seat {seat} reads {info['language']}: {info['mails']} mails in {info['mailbox']}/"
                   + (f", reports in {info['reports']}/" if info["reports"] else "") + "\n"
                   for seat, info in result.seats.items()) +
         f"open this in a browser: {result.files['index']}\n"
         f"outbox: {result.queued} messages queued (see 'pbem --db {app.db_path} outbox')")


@commands.command()
@click.argument("game_id")
@click.option("--seat", "seats", multiple=True, required=True, help="A seat the bot plays (repeat for more).")
@click.option("--bot", type=click.Choice(["heuristic", "random"]), default="heuristic", show_default=True)
@click.option("--out", "out", type=click.Path(), help="Also keep the bots' order texts here.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def bots(app: App, game_id: str, seats: tuple[str, ...], bot: str, out: str | None, as_json: bool) -> None:
    """Let a bot write the pending orders of some seats (a dropped player, a test game).

    The bot writes its orders in the real order syntax as a GM's order text, which is
    ingested like any order text the GM types (parsed, validated, recorded); run it again
    each turn, before 'pbem adjudicate'.

    \b
    Example:
      pbem bots w1 --seat yellow --bot heuristic
      pbem adjudicate w1
    """
    from pbem.loop.demo import play_bots

    results = play_bots(app.service, game_id, seats, bot, Path(out) if out else None)
    emit(results, as_json, "\n".join(f"{r['seat']}: orders {r['outcome']}" for r in results))
