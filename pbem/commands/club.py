"""The GM's commands of the club (:mod:`pbem.club`): absences, civil disorder, the standby list,
replacements."""

from __future__ import annotations

import click

from pbem.app import App, emit, pass_app
from pbem.cli import cli
from pbem.errors import DomainError


@cli.command()
@click.argument("game_id")
@click.argument("seat")
@click.option("--from", "start", metavar="WHEN", help="When the absence begins: a date (UTC) or an ISO time "
                                                     "with zone (default: now).")
@click.option("--to", "end", metavar="WHEN", help="When it ends: a date (the whole day, UTC) or an ISO time.")
@click.option("--for", "span", metavar="DURATION", help="Or how long it lasts from now, e.g. 10d.")
@click.option("--end", "finish", is_flag=True, help="End the seat's absence now.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def absent(app: App, game_id: str, seat: str, start: str | None, end: str | None, span: str | None,
           finish: bool, as_json: bool) -> None:
    """Note that a seat's player is away (as ABSENT by mail does), or end the absence.

    The game's absence option says what happens meanwhile: the deadline waits (up to a cap)
    or the bot plays the seat.

    \b
    Example:
      pbem absent w1 red --from 2026-12-10 --to 2026-12-20
      pbem absent w1 red --end
    """
    from pbem.club import absence

    if finish:
        event = absence.end_absence(app.service, game_id, seat, "gm")
        emit({"game": game_id, "seat": seat, "event": event.seq, "absent": False}, as_json,
             f"{seat}'s absence in {game_id} ended (event {event.seq})")
        return
    if span and (start or end) or (start and not end):
        raise click.UsageError("give --for DURATION alone, or --to (with --from if it does not begin now)")
    words = ["FOR", span] if span else (["FROM", start, "TO", end] if start and end else ["TO", end] if end else [])
    if not words:
        raise click.UsageError("give --to (and --from) or --for, or --end")
    begin, until = absence.parse_period([str(w) for w in words], app.store.clock())
    event = absence.declare(app.service, game_id, seat, begin, until, "gm")
    emit({"game": game_id, "seat": seat, "from": begin, "to": until, "event": event.seq}, as_json,
         f"{seat} is away from {begin} to {until} in {game_id} (event {event.seq}); the seat is told by mail")


@cli.command()
@click.argument("game_id")
@click.argument("seat")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def back(app: App, game_id: str, seat: str, as_json: bool) -> None:
    """Give a seat back to its player: ends its civil disorder, resignation and absence.

    \b
    Example:
      pbem back w1 red
    """
    from pbem.club import absence

    game = absence.come_back(app.service, game_id, seat, "gm")
    emit({"game": game_id, "seat": seat, "event": game.last_seq}, as_json,
         f"{seat} of {game_id} is played by its player again; every seat is told")


@cli.command()
@click.argument("game_id")
@click.argument("seat")
@click.option("--reason", default="", help="Why (recorded with the event).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def disorder(app: App, game_id: str, seat: str, reason: str, as_json: bool) -> None:
    """Put a seat in civil disorder now: the game's bot plays it; every seat is told.

    \b
    Example:
      pbem disorder w1 red --reason "no word from the player for a month"
    """
    from pbem.club import absence

    service = app.service
    with service.store.transaction():
        game = service.load(game_id)
        if seat not in game.seats:
            raise DomainError(f"no seat {seat!r} in {game_id}")
        if game.pending is None:
            raise DomainError(f"game {game_id} is over")
        if game.club.bot_played(seat):
            raise DomainError(f"{seat} is already played by the bot ({game.club.bot_played(seat)})")
        game = absence.fall(service, game, seat, "gm", reason=reason)
        game = absence.settle(service, game, app.store.clock())
        service._project(game)
    emit({"game": game_id, "seat": seat, "event": game.last_seq}, as_json,
         f"{seat} of {game_id} is in civil disorder: the bot plays it; every seat is told")


@cli.command()
@click.argument("game_id")
@click.argument("seat")
@click.option("--email", help="The new player's address.")
@click.option("--standby", "from_standby", is_flag=True, help="The address longest on the standby list.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (with the new password).")
@pass_app
def replace(app: App, game_id: str, seat: str, email: str | None, from_standby: bool, as_json: bool) -> None:
    """Give a seat to a new player (a standby player, or any address): a new password and a
    welcome mail with the current position; the seat leaves civil disorder; every seat is told.

    \b
    Example:
      pbem replace w1 red --standby
      pbem replace w1 red --email zoe@example.org
    """
    from pbem.club import absence

    if bool(email) == from_standby:
        raise click.UsageError("give --email ADDRESS or --standby")
    service = app.service
    if from_standby:
        game = service.load(game_id)
        taken = {a.lower() for row in game.seats.values() for a in [row["email"], *row.get("addresses", [])]}
        email = absence.first_standby(app.store, game_id, taken)
        if email is None:
            raise DomainError(f"nobody on the standby list for {game_id} (players join it with STANDBY by mail)")
    password = absence.replace(service, game_id, seat, str(email))
    emit({"game": game_id, "seat": seat, "email": email, "password": password}, as_json,
         f"{email} plays {seat} of {game_id} from now on; new password {password}; welcome mail queued")


@cli.command()
@click.option("--add", "add", metavar="ADDRESS", help="Put an address on the standby list.")
@click.option("--remove", "remove", metavar="ADDRESS", help="Take an address off it.")
@click.option("--game", "game_id", help="For one game only (default: any game).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def standby(app: App, add: str | None, remove: str | None, game_id: str | None, as_json: bool) -> None:
    """The standby list: players willing to take over a seat (STANDBY by mail puts them on it).

    \b
    Example:
      pbem standby
      pbem standby --add zoe@example.org --game w1
    """
    from pbem.auth import parse_address
    from pbem.club import absence

    if add or remove:
        with app.store.transaction():
            if add:
                absence.standby_add(app.store, parse_address(add)[1], game_id, "gm")
            if remove and not absence.standby_remove(app.store, parse_address(remove)[1], game_id):
                raise DomainError(f"{remove} is not on the standby list" + (f" for {game_id}" if game_id else ""))
    rows = absence.standby_list(app.store, game_id)
    emit(rows, as_json, "\n".join(f"{r['address']}  {r['game'] or 'any game'}  since {r['since']} ({r['how']})"
                                  for r in rows) or "nobody on the standby list")
