"""The GM's commands of the club (:mod:`pbem.club`): absences, civil disorder, the standby list,
replacements."""

from __future__ import annotations

import click

from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command()
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
    begin, until, event = absence.gm_away(app.service, game_id, seat, [str(w) for w in words])
    emit({"game": game_id, "seat": seat, "from": begin, "to": until, "event": event.seq}, as_json,
         f"{seat} is away from {begin} to {until} in {game_id} (event {event.seq}); the seat is told by mail")


@commands.command()
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


@commands.command()
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

    game = absence.gm_disorder(app.service, game_id, seat, reason)
    emit({"game": game_id, "seat": seat, "event": game.last_seq}, as_json,
         f"{seat} of {game_id} is in civil disorder: the bot plays it; every seat is told")


@commands.command()
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
    if from_standby:
        email, password = absence.replace_from_standby(app.service, game_id, seat)
    else:
        password = absence.replace(app.service, game_id, seat, str(email))
    emit({"game": game_id, "seat": seat, "email": email, "password": password}, as_json,
         f"{email} plays {seat} of {game_id} from now on; new password {password}; welcome mail queued")


@commands.command()
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
    from pbem.club import absence

    if add or remove:
        absence.gm_standby(app.store, add, remove, game_id)
    rows = absence.standby_list(app.store, game_id)
    emit(rows, as_json, "\n".join(f"{r['address']}  {r['game'] or 'any game'}  since {r['since']} ({r['how']})"
                                  for r in rows) or "nobody on the standby list")


@commands.command()
@click.argument("game_id")
@click.argument("address", required=False)
@click.option("--stop", "stop_", is_flag=True, help="The address no longer observes the game.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def observe(app: App, game_id: str, address: str | None, stop_: bool, as_json: bool) -> None:
    """Let an address follow a game: the public report after each turn, the record at the end
    (never a seat's view). Without ADDRESS: the game's observers.

    \b
    Example:
      pbem observe w1 watcher@example.org
      pbem observe w1 watcher@example.org --stop
      pbem observe w1 --json
    """
    from pbem.club import observers

    if address is None:
        rows = observers.current(app.store, game_id)
        emit(rows, as_json, "\n".join(f"{r['observer']}  {r['address']}  since {r['since']} ({r['how']})"
                                      for r in rows) or f"nobody observes {game_id}")
        return
    from pbem.club.observing import gm_observe

    observer, bare = gm_observe(app.service, game_id, address, stop_)
    emit({"game": game_id, "observer": observer, "address": bare, "observing": not stop_}, as_json,
         f"{bare} {'no longer observes' if stop_ else 'observes'} {game_id} ({observer})")


@commands.command()
@click.argument("game_id", required=False)
@click.option("--approve", "approve_", metavar="ADDRESS", help="Take a player who asked to join (join=approve).")
@click.option("--reject", metavar="ADDRESS", help="Do not take a player who asked to join.")
@click.option("--seat", "seats", multiple=True, metavar="SEAT=ADDRESS", help="Seat a player yourself.")
@click.option("--cancel", is_flag=True, help="Call the open game off (everyone who joined is told).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def lobby(app: App, game_id: str | None, approve_: str | None, reject: str | None, seats: tuple[str, ...],
          cancel: bool, as_json: bool) -> None:
    """The open games not started yet: seats taken and free, waiting lists, requests to join.

    \b
    Example:
      pbem lobby
      pbem lobby o1 --approve ann@example.org
      pbem lobby o1 --seat blue=bob@example.org
    """
    from pbem.club import lobby as club_lobby

    if (approve_ or reject or seats or cancel) and not game_id:
        raise click.UsageError("name the game")
    pairs = []
    for pair in seats:
        seat, _, address = pair.partition("=")
        if not address:
            raise click.BadParameter(f"{pair!r}: expected SEAT=ADDRESS", param_hint="--seat")
        pairs.append((seat, address))
    said = club_lobby.gm_decides(app.service, str(game_id), approve_, reject, pairs, cancel) \
        if approve_ or reject or seats or cancel else []
    if said:
        emit({"game": game_id, "done": said}, as_json, "\n".join(said))
        return
    rows = [club_lobby.describe(app.store, game_id)] if game_id else club_lobby.open_games(app.store)
    emit(rows[0] if game_id else rows, as_json, "\n".join(
        f"{r['game']} ({r['engine']}, join: {r['join']}): "
        + ", ".join(f"{s} {r['taken'].get(s, '-')}" for s in r["seats"])
        + (f"; asking: {', '.join(a['address'] + ' (' + a['seat'] + ')' for a in r['asked'])}" if r["asked"] else "")
        + (" [started]" if r["started"] else " [cancelled]" if r["cancelled"] else "")
        for r in rows) or "no open game")


@commands.command()
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def start(app: App, game_id: str, as_json: bool) -> None:
    """Start an open game now: the game's bot plays the seats nobody took (the GM may give them
    to new players later: pbem replace, pbem offer); welcome mails go out.

    \b
    Example:
      pbem start o1
    """
    from pbem.club import lobby as club_lobby

    info, game = club_lobby.gm_start(app.service, game_id)
    emit({"game": game_id, "seats": info["taken"], "bots": info["free"], "turn": game.pending.turn if game.pending else None},
         as_json, f"started {game_id}: " + ", ".join(f"{s} {a}" for s, a in info["taken"].items())
         + (f"; the bot plays {', '.join(info['free'])}" if info["free"] else "") + "; welcome mails queued")


@commands.command()
@click.argument("game_id")
@click.argument("seat")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def offer(app: App, game_id: str, seat: str, as_json: bool) -> None:
    """Offer a seat the bot plays to a new player: LIST names it, the first JOIN GAME SEAT by
    mail takes it; the game's standby list is mailed the offer.

    \b
    Example:
      pbem offer w1 green
    """
    from pbem.club import lobby as club_lobby

    told = club_lobby.gm_offer(app.service, game_id, seat)
    emit({"game": game_id, "seat": seat, "told": told}, as_json,
         f"{seat} of {game_id} is offered; told: {', '.join(told) or 'nobody on the standby list'}")


@commands.command()
@click.option("--public-table", "public", type=click.Choice(["on", "off"]),
              help="Let players ask for every player's figures by mail (STATS ALL): names, never addresses.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def players(app: App, public: str | None, as_json: bool) -> None:
    """Every player across the games: games played, results, reliability (turns sent on time).

    \b
    Example:
      pbem players
      pbem players --public-table on
    """
    from pbem.club import players as club_players

    if public:
        club_players.set_public_table(app.store, public == "on")
    rows = club_players.figures(app.store)
    on = club_players.public_table(app.store)
    lines = [f"{f.player}" + (f" ({', '.join(f.addresses[1:])})" if len(f.addresses) > 1 else "") + ": "
             + " ".join(f.lines()) for f in rows.values()]
    lines.append(f"public table (STATS ALL by mail): {'on' if on else 'off'}")
    emit([f.as_dict() for f in rows.values()], as_json, "\n".join(lines))
