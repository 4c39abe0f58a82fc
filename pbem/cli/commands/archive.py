"""Commands for archivists: export, import, replay, record (each calls pbem.archives and prints)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import click

from adjudicator.base import GM, PUBLIC
from pbem.cli.app import App, emit, pass_app
from pbem.archives.archive import Verification, sealed_note
from pbem.archives.publish import count_sealed
from pbem.archives.replaying import replay as replay_game
from pbem.cli.commandset import CommandSet
from pbem.cli.options import game_option
from pbem.mailout.colours import seat_view
from pbem.errors import DomainError
from pbem.store.events import Game

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command("export")
@click.argument("game_id")
@click.option("-o", "--output", "output", required=True, type=click.Path(),
              help="The file to write.")
@click.option("--format", "fmt", type=click.Choice(["archive", "record"]), default="archive", show_default=True,
              help="archive: the verifiable JSON archive; record: the readable text transcript.")
@click.option("--no-mail", is_flag=True, help="Leave the raw order mails out (their order texts stay in).")
@click.option("--raw-mail", is_flag=True, help="Keep the passwords in the raw order mails (default: masked; "
                                               "for the GM's own backup only: implies --gm-backup).")
@click.option("--gm-backup", is_flag=True, help="The GM's own backup: every event exactly as recorded, with what "
                                               "the seats may not see yet (default: the published form).")
@click.option("--chance", is_flag=True, help="With --format record: write every chance outcome as a CHANCE line, "
                                            "so the record replays without its seed (a game that is over).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def export_cmd(app: App, game_id: str, output: str, fmt: str, no_mail: bool, raw_mail: bool, gm_backup: bool,
               chance: bool, as_json: bool) -> None:
    """Write a game's archive (or its readable record) to a file.

    \b
    Example:
      pbem export w1 -o w1.pbem.json
      pbem export w1 --format record -o w1.record.txt
      pbem export w1 --format record --chance -o w1.record.txt
      pbem export w1 --gm-backup -o w1.backup.json

    While a game runs, what the seats may not see yet (a hand, the draw pile, a private
    draw, orders sent in advance) is sealed in the archive and the record, each with a
    commitment checkable when the game ends; --gm-backup keeps everything (not to publish).
    """
    from pbem.archives.exporting import export_file

    size = export_file(app.service, game_id, output, fmt, not no_mail, raw_mail, gm_backup, chance)
    emit({"game": game_id, "format": fmt, "output": output, "bytes": size}, as_json,
         f"wrote {fmt} of {game_id} to {output}")


@commands.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--as", "game_id", help="Import a record under another game id.")
@click.option("--until", "until", help="Import a record only up to this turn (a game still being transcribed).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def import_cmd(app: App, path: str, game_id: str | None, until: str | None, as_json: bool) -> None:
    """Import a game from an archive (verified first) or from a record (replayed).

    A record without a seed but with CHANCE lines is a historical game: its recorded
    outcomes replace the seed's draws, each checked (docs/archivist-guide.md).

    \b
    Example:
      pbem --db archive.db import w1.pbem.json
      pbem --db archive.db import table-game.txt --until 1618-autumn
    """
    from pbem.archives.importing import import_file

    done = import_file(app.store, path, game_id, until)
    if done.verification is not None:
        result, rules = done.verification, done.rules
        emit({**result.as_dict(), **rules}, as_json, f"imported {result.game_id}: genuine as far as it can be checked "
             f"({result.turns} turns; {rules['engine']} rules {rules['engine_version']})"
             + "".join(f"\nnot verifiable: {u}" for u in result.unverifiable)
             + "".join(f"\nwarning: {w}" for w in result.warnings))
        return
    game, hashes, historical = done.game, done.hashes_checked, done.historical
    assert game is not None  # a record's import is a game
    checked = ("every hash reproduced" if hashes == len(game.turns) else "no '# state' hash to check" if not hashes
               else f"{hashes} recorded state hash{'es' if hashes != 1 else ''} reproduced (the other turns have none)")
    emit({"game": game.game_id, "turns": len(game.turns), "state_hash": game.state_hash,
          "state_hashes_checked": hashes, "chance": "recorded" if historical else "seed",
          "engine": game.engine.name, "engine_version": game.engine.version}, as_json,
         f"imported {game.game_id} from a record: {len(game.turns)} turn{'' if len(game.turns) == 1 else 's'} replayed "
         f"under {game.engine.name} rules {game.engine.version}, {checked}"
         + ("; a historical game: its chance was recorded, every CHANCE line checked" if historical else ""))


@commands.command()
@click.argument("target")
@click.option("--until", "until", help="Stop after this turn (e.g. 1618-summer).")
@click.option("--verify", is_flag=True, help="Re-run the engine and check every derived event, hash and draw.")
@click.option("--seat", help="Show the replayed state as this seat sees it.")
@click.option("--earlier", "earlier", type=click.Path(exists=True, dir_okay=False),
              help="With --verify of a finished game's archive: an archive of the same game exported while it ran; "
                   "every value it sealed is checked against its commitment.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (the GM view unless --seat).")
@pass_app
def replay(app: App, target: str, until: str | None, verify: bool, seat: str | None, earlier: str | None,
           as_json: bool) -> None:
    """Rebuild a game from its events only: a game in the database or an archive file.

    \b
    Example:
      pbem replay w1 --verify
      pbem replay w1.pbem.json --until 1618-autumn --json
      pbem replay w1-final.pbem.json --verify --earlier w1-turn5.pbem.json
    """
    bar = None if as_json else _progress_bar
    done = replay_game(lambda: app.store, target, until, verify, earlier, bar)
    if done.game is None:  # the seed is not known here: only the chain was checked
        _print_unreplayable(done.game_id, done.events, done.chain, as_json)
        return
    _print_replay(done.game, done.chain, seat, as_json)


def _progress_bar(game_id: str, turns: int) -> AbstractContextManager[Any]:
    """A progress bar on stderr for a long verifying replay (20 turns or more)."""
    if turns < 20:
        return nullcontext()
    return _updating(click.progressbar(length=turns, label=f"verifying {game_id}", file=sys.stderr))


@contextmanager
def _updating(bar: Any) -> Iterator[Callable[[int], None]]:
    with bar as shown:
        yield shown.update


def _print_unreplayable(game_id: str, events: list[Any], chain: Verification, as_json: bool) -> None:
    """``replay --verify`` of a game whose seed is not known: the chain was checked, the replay not."""
    turns = [e for e in events if (e.type if hasattr(e, "type") else e.get("type")) == "TurnAdjudicated"]
    checked = [f"the hash chain of {len(events)} events"]
    unchecked = ["the chance draws, derived events and state hashes (the seed is not known here; "
                 "they can be checked once the game is over and its seed revealed)"]
    sealed = chain.sealed or count_sealed(events)
    if sealed:
        unchecked.append(sealed_note(sealed))
    data = {"game": game_id, "turns": len(turns), "replayed": False, "checked": checked, "not_checked": unchecked,
            "verified": chain.as_dict()}
    text = (f"{game_id}: {len(turns)} turn(s) recorded; verified: " + "; ".join(checked)
            + "\nnot checked: " + "; ".join(unchecked))
    emit(data, as_json, text)


def _print_replay(game: Game, chain: Verification | None, seat: str | None, as_json: bool) -> None:
    viewer = seat or GM
    if seat is not None and seat not in game.seats:
        raise DomainError(f"no seat {seat!r} in {game.game_id}")
    last = game.turns[-1]["turn"] if game.turns else "setup"
    data = {"game": game.game_id, "turn": last, "turns": len(game.turns), "state_hash": game.state_hash,
            "view": seat_view(game, viewer if viewer != "public" else PUBLIC),  # the game's seat colours
            "verified": chain.as_dict() if chain else None}
    turns = f"{len(game.turns)} turn{'' if len(game.turns) == 1 else 's'}"
    text = f"{game.game_id}: replayed {turns} to {last}; state hash {game.state_hash}"
    if chain is not None:
        text += "\nverified: hash chain intact" + ("; every derived event, draw and state hash reproduced"
                                                  if chain.replayed else "")
        text += "".join(f"\nchecked: {c}" for c in chain.checked)
        text += "".join(f"\nnot verifiable: {u}" for u in chain.unverifiable)
        text += "".join(f"\nwarning: {w}" for w in chain.warnings)
    emit(data, as_json, text)


@commands.group("record", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (the subcommands).")
@click.pass_context
def record_group(ctx: click.Context, as_json: bool) -> None:
    """Readable game records: a skeleton to transcribe a game played at a table.

    \b
    Example:
      pbem record template --game wallenstein --seat red --seat blue --seat yellow
    """
    if ctx.invoked_subcommand is None:
        names = sorted(record_group.commands)
        emit({"commands": names}, as_json, "pbem record: " + ", ".join(names) + " (see --help)")


@record_group.command("template")
@game_option("--game", "engine_name", required=True, help="The game ({games}).")
@click.option("--seat", "seats", multiple=True, required=True, help="A seat, in seating order (repeat).")
@click.option("--option", "options", multiple=True, help="A game option NAME=VALUE (repeat).")
@click.option("--as", "game_id", default="table-1", show_default=True, help="The game id written in the record.")
@click.option("-o", "--output", "output", type=click.Path(),
              help="The file to write (default: print it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def record_template(app: App, engine_name: str, seats: tuple[str, ...], options: tuple[str, ...], game_id: str,
                    output: str | None, as_json: bool) -> None:
    """Write the skeleton record of a game played at a table: headers, the setup's and the
    first turn's CHANCE lines (example outcomes to replace), the seats to fill in.

    \b
    Example:
      pbem record template --game wallenstein --seat red --seat blue --seat yellow -o table.txt
      pbem import table.txt --until 1618-spring
    """
    from pbem.archives.transcribe import write_template

    done = write_template(engine_name, seats, options, game_id, output)
    if output is None and not as_json:
        click.echo(done.text, nl=False)
        return
    emit(done.as_dict(), as_json, f"wrote the skeleton record of {game_id} to {output}")
