"""Commands that make and run games: new, adjudicate, deadline, void, seat, abandon, games,
engines. Each parses its options, calls one operation of the loop (:mod:`pbem.loop.gm`,
:mod:`pbem.loop.service`, :mod:`pbem.loop.overview`) and prints what it returns."""

from __future__ import annotations

import click

from adjudicator.registry import engine_names
from pbem.cli.app import App, emit, pass_app
from pbem.cli.commands.status import awaiting_text
from pbem.cli.commandset import CommandSet
from pbem.cli.options import game_option, name_value_pairs, option_values
from pbem.errors import DomainError
from pbem.loop.gm import Clocks, adjudicate_pending, change_seat, create_game, created_summary
from pbem.loop.overview import game_list

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command()
@click.argument("game_id")
@game_option("--game", "engine", required=True, help="Which game: {games}.")
@click.option("--open", "open_", is_flag=True, help="Announce an open game that players join by mail (LIST, JOIN); "
                                                  "it starts when every seat is taken or at 'pbem start'.")
@click.option("--seats", "seat_count", type=int, help="With --open: how many seats (named after the game's colours).")
@click.option("--seat", "seats", multiple=True, metavar="NAME=EMAIL[:COLOUR][:LANG]",
              help="A seat and its player's address; repeat per seat, in seating order. A seat named "
                   "after a colour of the game gets it; else :COLOUR picks one, or the next free one is used. "
                   ":LANG is the language the seat reads (en, hu, de; default: --language).")
@click.option("--language", metavar="LANG",
              help="The game's language: of every seat without its own, the public's and the GM's "
                   "(en, hu or de; default en).")
@click.option("--option", "options", multiple=True, metavar="K=V",
              help="A game option, e.g. setup=draft; K=@FILE reads the value from a file "
                   "(e.g. battles_json=@my-battles.json: a GM's printed data).")
@click.option("--seed", help="The secret seed (default: 256 random bits from the OS). Only its sha256 is sent "
                             "to players; a given seed needs at least 128 bits of entropy.")
@click.option("--weak-seed", is_flag=True, help="Accept a short --seed (a demo or a test: players could "
                                                "reverse its commitment and predict every draw).")
@click.option("--deadline", help="Deadline of every turn until changed, ISO 8601 with zone.")
@click.option("--deadline-every", metavar="DURATION",
              help="A relative deadline, e.g. 72h or 3d: each turn is due this long after it opens "
                   "(the clock restarts at each adjudication).")
@click.option("--decision-every", metavar="DURATION",
              help="The clock of a sequential decision (one seat's recruiting, a battle round...), e.g. 24h "
                   "(default: --deadline-every).")
@click.option("--remind-before", metavar="DURATION",
              help="Remind seats still awaited this long before a deadline (default 24h; 'pbem tick' sends them).")
@click.option("--json", "as_json", is_flag=True, help="Print the game, including each seat's password.")
@pass_app
def new(app: App, game_id: str, engine: str, open_: bool, seat_count: int | None, seats: tuple[str, ...],
        language: str | None, options: tuple[str, ...], seed: str | None, weak_seed: bool, deadline: str | None,
        deadline_every: str | None,
        decision_every: str | None, remind_before: str | None, as_json: bool) -> None:
    """Create a game; welcome mails with each seat's password go to the outbox.

    \b
    Example:
      pbem new w1 --game wallenstein --seat red=anna@example.org --seat blue=ben@example.org \\
               --seat green=cis@example.org --option setup=random --json
      pbem new w2 --game havoc --seat anna=anna@example.org:green:hu --seat ben=ben@example.org:de \\
               --seat cis=cis@example.org --language en
    """
    if deadline and (deadline_every or decision_every):
        raise click.UsageError("give --deadline or --deadline-every/--decision-every, not both")
    if open_:  # announced, joined by mail, created when it starts (pbem.club.lobby)
        from pbem.club.hooks import announce

        clocks = {"deadline": deadline, "deadline_every": deadline_every, "decision_every": decision_every,
                  "remind_before": remind_before}
        data = announce(app.service, game_id, engine, seat_count, seats, option_values(options), clocks, seed)
        emit(data, as_json, f"announced {data['engine']} game {game_id} with seats {', '.join(data['seats'])}; "
             f"free: {', '.join(data['free']) or 'none'}; players join by mail (LIST, JOIN {game_id})")
        return
    if not seats or seat_count is not None:
        raise click.UsageError("give each --seat NAME=EMAIL (--seats N goes with --open)")
    clocks = Clocks(deadline, deadline_every, decision_every, remind_before)
    created = create_game(app.service, game_id, engine, name_value_pairs(seats, "--seat"), option_values(options),
                          seed, weak_seed, language, clocks)  # a weak seed is refused unless the GM insists (pbem/loop/seeds.py)
    game = created.game
    emit(created_summary(created), as_json, f"created {game.engine.name} game {game.game_id} with seats "
         f"{', '.join(game.seats)}; welcome mails (with passwords) queued in the outbox")


@commands.command()
@click.argument("game_id")
@click.option("--force", is_flag=True, help="Apply the missed-orders policy to seats without orders now.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def adjudicate(app: App, game_id: str, force: bool, as_json: bool) -> None:
    """Resolve the pending turn once all orders are in (and every turn after it that is ready).

    A turn whose deadline has passed is adjudicated with the missed-orders policy.
    Exit status 0 when a turn was adjudicated, 1 when orders are still awaited (with --json
    the reason is printed as {"adjudicated": [], "turn", "awaiting", "error"}).

    \b
    Example:
      pbem adjudicate w1
      pbem adjudicate w1 --force     # a seat is missing: it plays the default orders
    """
    result = adjudicate_pending(app.service, game_id, force)
    if result.resolved_elsewhere:  # another run (cron's tick?) resolved it meanwhile
        emit([], as_json, f"turn {result.turn} was adjudicated by another run meanwhile; nothing to do")
        return
    if not result.done:
        st = result.status
        message = (f"turn {st['turn']} is still awaiting orders from {awaiting_text(st)} "
                   "(use --force to apply the missed-orders policy)")
        if as_json:  # exit status 1, as without --json; the reason as JSON on stdout
            emit({"adjudicated": [], "turn": st["turn"], "awaiting": st["awaiting"], "error": message}, True)
            click.get_current_context().exit(1)
        raise DomainError(message)
    done = result.done
    text = "\n".join(f"adjudicated {d['turn']}" + (f" (missed orders: {', '.join(d['defaulted'])})"
                                                   if d["defaulted"] else "") for d in done)
    if done[-1]["over"]:
        text += f"\ngame over; winner: {done[-1]['winner'] or 'none'}"
    emit(done, as_json, text)


@commands.command()
@click.argument("game_id")
@click.argument("when")
@click.option("--turn", help="The turn label (default: the pending turn; '*' for every turn).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def deadline(app: App, game_id: str, when: str, turn: str | None, as_json: bool) -> None:
    """Set or move a deadline: ISO 8601 with zone; +DURATION, added to the current deadline
    (or to now when there is none); now+DURATION, from now. Every seat is mailed the new
    deadline. (pbem rollback --deadline reads WHEN the same way; a reopened turn has no
    deadline, so there +3d counts from now.)

    \b
    Example:
      pbem deadline w1 2026-12-07T18:00+01:00
      pbem deadline w1 +3d          # three days more than the current deadline
      pbem deadline w1 now+3d       # three days from now
    """
    label, value, past, counted = app.service.set_deadline(game_id, when, turn)
    emit({"game": game_id, "turn": label, "deadline": value, "past": bool(past), "counted_from": counted or None},
         as_json, f"deadline of {game_id} {label}: {value}" + (f" ({counted})" if counted else "")
         + "; every seat is told by mail")
    if past:
        click.echo(f"warning: {value} is in the past: the next 'pbem tick' or 'pbem adjudicate' resolves "
                   "the turn with the missed-orders default", err=True)


@commands.command()
@click.argument("game_id")
@click.argument("seat")
@click.option("--reason", default="voided by the GM", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def void(app: App, game_id: str, seat: str, reason: str, as_json: bool) -> None:
    """GM correction: void a seat's accepted orders for the pending turn.

    \b
    Example:
      pbem void w1 red --reason "sent by mistake"
    """
    event = app.service.void(game_id, seat, reason)
    withdrawn = "; the unsent ACCEPTED reply was withdrawn" if event.payload.get("reply_withdrawn") else ""
    emit({"game": game_id, "seat": seat, "turn": event.payload["turn"], "event": event.seq, "reason": reason,
          "reply_withdrawn": bool(event.payload.get("reply_withdrawn"))}, as_json,
         f"voided {seat}'s orders for {event.payload['turn']} (event {event.seq}); {seat} is told by mail{withdrawn}")


@commands.command()
@click.argument("game_id")
@click.argument("seat")
@click.option("--email", help="The seat's new address (replaces the old one).")
@click.option("--allow", "allow", multiple=True, help="Another sender address accepted for this seat.")
@click.option("--new-password", "reset", is_flag=True,
              help="A new player takes the seat: a new password (the old one stops working) and a "
                   "welcome mail with the current position go to the seat's address.")
@click.option("--unlock", is_flag=True,
              help="Lift the lock of a seat locked for mail orders after too many wrong passwords "
                   "(--new-password lifts it too).")
@click.option("--digest", type=click.Choice(["on", "off"], case_sensitive=False),
              help="The seat's reports as plain text without pictures (on) or whole (off), as the player's "
                   "own DIGEST ON/OFF mail sets it.")
@click.option("--language", metavar="LANG", help="The language the seat reads from now on (en, hu, de); "
                                                 "a new player keeps the seat's language unless this is given.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (with the new password).")
@pass_app
def seat(app: App, game_id: str, seat: str, email: str | None, allow: tuple[str, ...], reset: bool,
         unlock: bool, digest: str | None, language: str | None, as_json: bool) -> None:
    """GM correction: replace a seat's address, allow more sender addresses, hand the seat to
    a new player, unlock it for mail orders, or set how its reports are mailed.

    \b
    Example:
      pbem seat w1 red --email anna@new.example --allow anna@work.example
      pbem seat w1 red --email zoe@example.org --new-password   # zoe replaces anna
      pbem seat w1 red --unlock
      pbem seat g1 white --digest on     # reports as plain text, no pictures
      pbem seat w1 red --language hu
    """
    if not email and not allow and not reset and not unlock and digest is None and not language:
        raise click.UsageError("give --email, --allow, --new-password, --unlock, --digest and/or --language")
    on = None if digest is None else digest.lower() == "on"
    change = change_seat(app.service, game_id, seat, email, allow, reset, unlock, on, language)
    text = f"updated seat {seat} of {game_id}" if email or allow or reset or language else f"seat {seat} of {game_id}"
    if language:
        from pbem.mailout.languages import names

        text += f"; it reads {names()[change.language]} ({change.language}) from now on"
    if change.password:
        text += f"; new password {change.password} (the old one no longer works); welcome mail queued"
    if unlock or change.unlocked:
        text += "; unlocked for mail orders" if change.unlocked else "; it was not locked"
    if on is not None:
        state = "plain text without pictures" if on else "whole (text, HTML and pictures)"
        text += f"; {seat}'s reports of {game_id} {'now come' if change.digest_changed else 'already come'} {state}"
    emit({"game": game_id, "seat": seat, "email": email, "allowed": list(allow), "password": change.password,
          "unlocked": change.unlocked, "digest": on, "language": change.language}, as_json, text)


@commands.command()
@click.argument("game_id")
@click.option("--reason", required=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def abandon(app: App, game_id: str, reason: str, as_json: bool) -> None:
    """End a game early (recorded as an event).

    \b
    Example:
      pbem abandon w1 --reason "players dropped out"
    """
    app.service.abandon(game_id, reason)
    emit({"game": game_id, "abandoned": reason}, as_json, f"abandoned {game_id}")


@commands.command()
@click.option("--engines", "engines_", is_flag=True, hidden=True, help="The game types (as pbem engines).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def games(app: App, engines_: bool, as_json: bool) -> None:
    """List the games in the database: id, game type, pending turn, winner.

    \b
    Example:
      pbem games
      pbem engines          # the game types this version can run
    """
    if engines_:
        _list_engines(as_json)
        return
    rows = game_list(app.store)
    lines = [f"{r['game']}  {r['engine']}  " + (f"abandoned: {r['abandoned']}" if r["abandoned"] is not None
                                               else f"over, winner {r['winner'] or 'none'}" if r["over"]
                                               else f"turn {r['turn']}") for r in rows]
    emit(rows, as_json, "\n".join(lines) or "no games")


@commands.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def engines(as_json: bool) -> None:
    """List the game types this version can run (the values of ``pbem new --game``).

    \b
    Example:
      pbem engines
    """
    _list_engines(as_json)


def _list_engines(as_json: bool) -> None:
    names = [n for n in engine_names() if not n.startswith("toy-")]
    emit(names, as_json, "\n".join(names))
