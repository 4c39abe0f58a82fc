"""Commands on games: new, status, adjudicate, show, log, deadline, void, seat, abandon."""

from __future__ import annotations

from typing import Any

import click

from adjudicator import games
from adjudicator.base import GM, PUBLIC, GameError
from adjudicator.registry import engine_names
from pbem.mailin import guard
from pbem.mailout import outqueue
from pbem.cli.app import App, emit, pass_app
from pbem.cli.main import cli
from pbem.club.hooks import ended_text as club_ended_text, status_lines as club_status_lines
from pbem.errors import DomainError
from pbem.mailout.languages import languages_of_log, status_lines as language_lines


def _pairs(values: tuple[str, ...], what: str) -> list[tuple[str, str]]:
    out = []
    for value in values:
        key, sep, val = value.partition("=")
        if not sep or not key or not val:
            raise click.BadParameter(f"{value!r}: expected NAME=VALUE", param_hint=what)
        out.append((key.strip(), val.strip()))
    return out


def _options(values: tuple[str, ...]) -> dict[str, str]:
    """``K=V`` pairs; a value ``@path`` is replaced by the text of that file."""
    from pathlib import Path

    out = {}
    for key, value in _pairs(values, "--option"):
        if value.startswith("@"):
            path = Path(value[1:])
            if not path.is_file():
                raise DomainError(f"option {key}: no such file {path}")
            value = path.read_text(encoding="utf-8")
        out[key] = value
    return out


@cli.command()
@click.argument("game_id")
@click.option("--game", "engine", required=True, help="Which game: " + ", ".join(games.names()) + ".")
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
        data = announce(app.service, game_id, engine, seat_count, seats, _options(options), clocks, seed)
        emit(data, as_json, f"announced {data['engine']} game {game_id} with seats {', '.join(data['seats'])}; "
             f"free: {', '.join(data['free']) or 'none'}; players join by mail (LIST, JOIN {game_id})")
        return
    if not seats or seat_count is not None:
        raise click.UsageError("give each --seat NAME=EMAIL (--seats N goes with --open)")
    from pbem.mailout.colours import GENERIC
    from pbem.mailout.languages import check as check_language, split_seat_value
    from pbem.loop.seeds import check_seed

    seed = check_seed(seed, weak_ok=weak_seed)  # a weak seed is refused unless the GM insists (pbem/loop/seeds.py)
    if language:
        language = check_language(language)
    pairs, chosen, spoken = [], {}, {}
    for name, value in _pairs(seats, "--seat"):
        address, colour, lang = split_seat_value(value, GENERIC)
        pairs.append((name, address))
        if colour:
            chosen[name] = colour
        if lang:
            spoken[name] = lang
    created = app.service.new_game(game_id, engine, pairs, _options(options), seed, deadline,
                                   deadline_every, decision_every, remind_before, chosen, language, spoken)
    game = created.game
    from pbem.mailout.languages import seat_language

    data = {"game": game.game_id, "engine": game.engine.name, "commitment": game.created["commitment"],
            "seats": {s: {"email": game.seats[s]["email"], "password": created.passwords[s],
                          "language": seat_language(game, s)} for s in game.seats},
            "turn": game.pending.turn if game.pending else None, "deadline": game.deadline}
    emit(data, as_json, f"created {game.engine.name} game {game.game_id} with seats "
         f"{', '.join(game.seats)}; welcome mails (with passwords) queued in the outbox")


@cli.command()
@click.argument("game_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def status(app: App, game_id: str | None, as_json: bool) -> None:
    """Turn, who has submitted, who is awaited, deadline — of one game or all.

    Player addresses that mail cannot reach (refused by the SMTP server, or bounced)
    are listed under their game with the seat, and so is what mail made the service do in
    the last 7 days that the GM should know of (password resets, wrong passwords, a seat
    locked, mail commands not answered over their limit: "mail guard").

    \b
    Example:
      pbem status w1 --json
    """
    from pbem.club.hooks import lobby_rows

    lobby = lobby_rows(app.store, game_id)  # open games not started: their open seats (pbem.club.lobby)
    rows = lobby if game_id and lobby else _status_rows(app, game_id) + lobby
    lines = []
    for r in rows:
        if r.get("open"):
            o = r["open"]
            lines.append(f"{r['game']} ({r['engine']}): open, not started; free seats: {', '.join(o['free']) or '-'}; "
                         f"taken: {', '.join(o['taken']) or '-'}"
                         + (f"; {o['asked']} asking to join ('pbem lobby {r['game']}')" if o["asked"] else ""))
            continue
        r["delivery_problems"] = outqueue.problems(app.store, r["game"], *_seat_addresses(app, r))
        r["mail_guard"] = guard.summary(app.store, r["game"])
        if r.get("error"):
            lines.append(f"{r['game']} ({r['engine']}): CANNOT BE LOADED: {r['error']}")
        elif r.get("seed_known") is False:
            lines.append(f"{r['game']} ({r['engine']}): {r['note']}")
        elif r.get("abandoned") is not None:
            lines.append(f"{r['game']} ({r['engine']}): abandoned by the GM: {r['abandoned']}")
        elif r["over"]:
            lines.append(f"{r['game']} ({r['engine']}): over; " + (club_ended_text(r["ended"]) if r.get("ended")
                                                                  else f"winner {r['winner'] or 'none'}"))
        else:
            lines.append(f"{r['game']} ({r['engine']}): turn {r['turn']}; submitted: "
                         f"{', '.join(r['submitted']) or '-'}; awaiting: {_awaiting(r)}; "
                         f"deadline: {r['deadline'] or 'none'}" + ("; OVERDUE" if r.get("overdue") else ""))
            if r.get("deadline_passed_before_turn"):
                lines.append(f"  the deadline for every turn ({r['deadline_passed_before_turn']}) passed before this "
                             f"turn opened, so it does not apply to it: set one with 'pbem deadline {r['game']} +3d'")
        if not r.get("error") and r.get("engine_version") != r.get("newest_version", r.get("engine_version")):
            lines.append(f"  rules: {r['engine']} {r['engine_version']}; this pbem's newest is {r['newest_version']} "
                         f"(pbem upgrade {r['game']} --reason TEXT moves the game to it)")
        if r.get("press") and not r["over"]:
            lines.append("  " + _press_line(r["press"]))
        if r.get("digest") and not r["over"]:
            lines.append(f"  reports as plain text without pictures (DIGEST ON): {', '.join(r['digest'])}")
        lines += language_lines(r)
        lines += [f"  mail to {p['address']} (seat {p['seat'] or '?'}) fails: {p['error']} ({p['source']}, {p['at']}"
                  f"{', ' + str(p['count']) + ' times' if p['count'] > 1 else ''})" for p in r["delivery_problems"]]
        lines += guard.status_lines(r["mail_guard"])
        lines += club_status_lines(r)
    emit(rows if game_id is None else rows[0], as_json, "\n".join(lines) or "no games")


def _seat_addresses(app: App, row: dict[str, Any]) -> tuple[set[str] | None, bool]:
    """The addresses the seats of ``row``'s game use now, and whether it is over: a delivery
    problem of an address no seat uses any more, or of a finished game, is no longer shown."""
    if row.get("error") or row.get("seed_known") is False:
        return None, bool(row.get("over"))
    game = app.service.load(row["game"])  # just loaded for the status: cached
    return {a for s in game.seats.values() for a in (s["email"], *s.get("addresses", ()))}, bool(row["over"])


def _awaiting(row: dict[str, Any]) -> str:
    """``blue, red (white: its plan answers it)``: the seats awaited, those whose standing
    orders or plan answer the decision said apart."""
    planned = row.get("planned") or []
    left = [s for s in row["awaiting"] if s not in planned]
    text = ", ".join(left) or "-"
    if planned:
        text += f" ({', '.join(planned)}: standing orders or plan answer it)"
    return text


def _press_line(press: dict[str, Any]) -> str:
    """The readable status line of a game's press rules and this turn's press."""
    if press["mode"] == "off":
        return "press: off"
    sent = ", ".join(f"{seat} {n}" for seat, n in press["sent_this_turn"].items() if n)
    return (f"press: {press['mode']}; at most {press['per_turn']} per seat and turn, {press['max_bytes']} bytes "
            f"each; sent this turn: {sent or '-'}")


def _status_rows(app: App, game_id: str | None) -> list[dict[str, Any]]:
    """The status of one game or of all; a game whose seed is not known here (an imported
    running game) is listed from its recorded events instead of breaking the list, and in the
    list of all games one that cannot be loaded is named with its problem (the others go on)."""
    from pbem.store.events import ReplayMismatch, SeedUnknown

    ids = [game_id] if game_id else app.store.game_ids()
    rows = []
    for gid in ids:
        try:
            rows += app.service.status(gid)
        except DomainError as exc:
            if isinstance(exc.__context__, SeedUnknown):
                rows.append(unreplayable_status(app, gid))
            elif game_id:
                raise
            else:
                rows.append(broken_status(app, gid, exc))
        except Exception as exc:  # noqa: BLE001 - one game that cannot be loaded must not hide the others
            if game_id and isinstance(exc, (GameError, ReplayMismatch)):
                raise DomainError(f"{gid} cannot be loaded: {exc}") from None
            if game_id:
                raise
            rows.append(broken_status(app, gid, exc))
    return rows


def broken_status(app: App, game_id: str, exc: BaseException) -> dict[str, Any]:
    """The status row of a game that cannot be loaded: its name, engine and the problem."""
    events = app.store.events(game_id)
    created = events[0].payload if events and events[0].type == "GameCreated" else {}
    problem = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return {"game": game_id, "engine": created.get("engine"), "engine_version": created.get("engine_version"),
            "error": problem, "over": None, "turn": None, "seats": [s.get("name") for s in created.get("seats", [])]}


def unreplayable_status(app: App, game_id: str) -> dict[str, Any]:
    """What the log of a game says without replaying it (its seed is not known here): the
    turns recorded, the last state hash and scores; the position itself cannot be rebuilt."""
    events = app.store.events(game_id)
    created = events[0].payload if events else {}
    turns = [e.payload for e in events if e.type == "TurnAdjudicated"]
    last = turns[-1] if turns else {}
    note = (f"the seed is not known here (an imported running game): {len(turns)} turn(s) recorded"
            + (f", the last {last['turn']}" if turns else "") + "; its position cannot be rebuilt until the "
            "seed is revealed ('pbem replay " + game_id + " --verify' checks its hash chain)")
    return {"game": game_id, "engine": created.get("engine"), "engine_version": created.get("engine_version"),
            "seed_known": False, "turn": None,
            "turns_recorded": len(turns), "last_turn": last.get("turn"), "state_hash": last.get("state_hash"),
            "scores": last.get("scores"), "over": bool(last.get("over")), "winner": last.get("winner"),
            "seats": [s["name"] for s in created.get("seats", [])], "note": note, **languages_of_log(events)}


@cli.command()
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
    service = app.service
    game = service.load(game_id)
    if game.pending is None:
        raise DomainError(f"game {game_id} is over")
    from pbem.loop.deadlines import is_due

    now = app.store.clock()
    deadline_passed = is_due(game.deadline, now)  # compared as instants, whatever the zones
    # keyed by the turn looked at: a run that waited for another never forces the next turn
    done = service.adjudicate(game_id, force=force or deadline_passed, force_turn=game.pending.turn, now=now)
    if not done:
        st = service.game_status(service.load(game_id))
        if st["turn"] != game.pending.turn:  # another run (cron's tick?) resolved it meanwhile
            emit([], as_json, f"turn {game.pending.turn} was adjudicated by another run meanwhile; nothing to do")
            return
        message = (f"turn {st['turn']} is still awaiting orders from {_awaiting(st)} "
                   "(use --force to apply the missed-orders policy)")
        if as_json:  # exit status 1, as without --json; the reason as JSON on stdout
            emit({"adjudicated": [], "turn": st["turn"], "awaiting": st["awaiting"], "error": message}, True)
            click.get_current_context().exit(1)
        raise DomainError(message)
    summary = [{"turn": d["turn"], "defaulted": d["defaulted"], "state_hash": d["state_hash"],
                "scores": d["scores"], "over": d["over"], "winner": d["winner"]} for d in done]
    text = "\n".join(f"adjudicated {d['turn']}" + (f" (missed orders: {', '.join(d['defaulted'])})"
                                                   if d["defaulted"] else "") for d in done)
    if done[-1]["over"]:
        text += f"\ngame over; winner: {done[-1]['winner'] or 'none'}"
    emit(summary, as_json, text)


def _viewer(seat: str | None, public: bool, gm: bool) -> str:
    if sum(bool(x) for x in (seat, public, gm)) > 1:
        raise click.UsageError("give at most one of --seat, --public, --gm")
    return seat or (PUBLIC if public else GM)


@cli.command()
@click.argument("game_id")
@click.option("--seat", help="Show what this seat may see.")
@click.option("--public", is_flag=True, help="Show what spectators may see.")
@click.option("--gm", is_flag=True, help="Show everything (the default).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def show(app: App, game_id: str, seat: str | None, public: bool, gm: bool, as_json: bool) -> None:
    """The current view of a game for a seat, the public or the GM.

    \b
    Example:
      pbem show w1 --seat red --json
    """
    from pbem.mailout.colours import of_game

    service = app.service
    game = service.load(game_id)
    view = service.view(game, _viewer(seat, public, gm))
    if isinstance(view, dict):  # every game's seats with their colours, whatever its view's shape
        view = {**view, "seat_colors": of_game(game)}
    emit(view, as_json, _describe(view))


def _describe(view: Any) -> str:
    """A readable summary of a view (``--json`` gives all of it): its plain fields, then one
    line per entry of each table (seats, counties...) with the entry's plain fields."""
    lines, tables = [], []
    for key, value in view.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            tables.append((key, value))
        elif isinstance(value, dict):
            lines.append(f"{key}: " + (", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "-"))
        elif isinstance(value, list):
            lines.append(f"{key}: " + (_plain(value) if len(value) <= 12 else f"{len(value)} entries (see --json)"))
        else:
            lines.append(f"{key}: {_plain(value)}")
    for key, table in tables:
        lines += ["", f"{key}:"]
        for name, entry in table.items():
            fields = ", ".join(f"{k} {_plain(v)}" for k, v in entry.items() if not isinstance(v, (dict, list)) or
                               (isinstance(v, list) and len(v) <= 12))
            lines.append(f"  {name}: {fields}")
    return "\n".join(lines)


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "-"
    return "-" if value is None else str(value)


@cli.command()
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def log(app: App, game_id: str, as_json: bool) -> None:
    """The event log of a game (the GM's view: it includes every seat's orders).

    \b
    Example:
      pbem log w1 --json
    """
    app.store.require_game(game_id)
    events = [e.as_dict() for e in app.store.events(game_id)]
    problems = app.store.verify(game_id)
    lines = [f"{e['seq']:>4} {e['recorded_at']} {e['type']}" + _brief(e) for e in events]
    lines.append("chain: intact" if not problems else "chain BROKEN: " + "; ".join(problems))
    emit({"events": events, "chain_problems": problems}, as_json, "\n".join(lines))


def _brief(e: dict[str, Any]) -> str:
    p = e["payload"]
    if e["type"] == "OrdersSubmitted":
        return f" {p['seat']} {p['turn']} ({len(p['orders'])} orders)"
    if e["type"] == "TurnAdjudicated":
        return f" {p['turn']} hash {p['state_hash'][:12]}"
    if e["type"] == "GameCreated":
        return f" {p['engine']} {p.get('engine_version')} seats {', '.join(s['name'] for s in p['seats'])}"
    if e["type"] == "EngineUpgraded":
        return f" rules {p['from']} -> {p['to']} from turn {p['turn']}; reason: {p['reason']}"
    if e["type"] == "RolledBack":
        return (f" to {p['to']}; set aside {', '.join(p.get('undone', []))}; reason: {p['reason']}"
                + ("; orders kept" if p.get("keep_orders") else ""))
    return " " + ", ".join(f"{k}={v}" for k, v in sorted(p.items()) if isinstance(v, (str, int)))


@cli.command()
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


@cli.command()
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


@cli.command()
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
    from pbem.mailout import languages
    from pbem.loop import lockout

    if not email and not allow and not reset and not unlock and digest is None and not language:
        raise click.UsageError("give --email, --allow, --new-password, --unlock, --digest and/or --language")
    if language:  # refused with the supported list before anything changes
        language = languages.check(language)
        if seat not in app.service.seat_names(game_id):
            raise DomainError(f"no seat {seat!r} in {game_id} (seats: {', '.join(app.service.seat_names(game_id))})")
    password = app.service.change_seat(game_id, seat, email, allow, reset_password=reset) \
        if email or allow or reset else None
    game = app.service.load(game_id)
    if seat not in game.seats:
        raise DomainError(f"no seat {seat!r} in {game_id} (seats: {', '.join(game.seats)})")
    with app.store.transaction():
        unlocked = lockout.unlock(app.service, game, seat) if unlock or reset else False
    if language:
        languages.set_language(app.service, game_id, seat, language, "gm")
    text = f"updated seat {seat} of {game_id}" if email or allow or reset or language else f"seat {seat} of {game_id}"
    if language:
        text += f"; it reads {languages.names()[language]} ({language}) from now on"
    if password:
        text += f"; new password {password} (the old one no longer works); welcome mail queued"
    if unlock or unlocked:
        text += "; unlocked for mail orders" if unlocked else "; it was not locked"
    if digest is not None:
        on = digest.lower() == "on"
        event = app.service.set_digest(game_id, seat, on, {"kind": "gm"})
        state = "plain text without pictures" if on else "whole (text, HTML and pictures)"
        text += f"; {seat}'s reports of {game_id} {'now come' if event else 'already come'} {state}"
    emit({"game": game_id, "seat": seat, "email": email, "allowed": list(allow), "password": password,
          "unlocked": unlocked, "digest": None if digest is None else digest.lower() == "on",
          "language": languages.seat_language(app.service.load(game_id), seat)}, as_json, text)


@cli.command()
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


@cli.command()
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
    import json

    abandoned = {r["game_id"]: json.loads(r["payload"]).get("reason", "")
                 for r in app.store.rows("select game_id, payload from events where type = 'GameAbandoned'")}
    rows = [{"game": r["game_id"], "engine": r["engine"], "turn": r["turn"], "over": bool(r["over"]),
             "winner": r["winner"], "abandoned": abandoned.get(r["game_id"])}
            for r in app.store.db["games"].rows_where(order_by="game_id")]
    lines = [f"{r['game']}  {r['engine']}  " + (f"abandoned: {r['abandoned']}" if r["abandoned"] is not None
                                               else f"over, winner {r['winner'] or 'none'}" if r["over"]
                                               else f"turn {r['turn']}") for r in rows]
    emit(rows, as_json, "\n".join(lines) or "no games")


@cli.command()
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
