"""Open games that players join by mail, and seats offered to new players.

``pbem new G --game GAME --open --seats 4`` announces a game instead of creating it:
a row of ``club_lobby`` (the game, its seats, options and clocks), the seats still empty.
Players mail ``LIST`` (the open games and the offered seats) and ``JOIN G [SEAT]`` (the
first free seat when none is named): first come, first seated, or, with ``--option
join=approve``, each request waits for the GM (``pbem lobby G --approve ADDRESS``). ``LEAVE G``
gives a seat back before the game starts. Once every seat is taken the game has started, and a
JOIN puts the player on its waiting list, which is the game's standby list (:mod:`pbem.club.absence`):
the GM gives them a seat that needs a new player (``pbem replace G SEAT --standby``), or offers
it (``pbem offer G SEAT``) and the first ``JOIN G SEAT`` takes it.

The game starts, as ``pbem new`` would create it (``GameCreated``, welcome mails with the
passwords and the opening positions), when its last seat is taken, or when the GM says so
(``pbem start G``): the empty seats are then played by the game's bot from the start (a
``CivilDisorder`` by ``start`` each; no address, no mail), and the GM may give them to new
players later (``pbem replace``, or ``pbem offer`` and a ``JOIN`` by mail). A started open game is open to
observers by mail (``OBSERVE G``).

The lobby is a service record like the standby list: the game's log begins when it starts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pbem.club import absence
from pbem.mailout import clubmail as mailing
from pbem.errors import DomainError

#: Seat names of an open game when the GM names none: the engine's own colours first (its
#: registry entry's ``seat_names``, :func:`seat_names`), then these.
DEFAULT_NAMES = ("red", "blue", "green", "yellow", "purple", "orange")


def seat_names(engine: str) -> tuple[str, ...]:
    """The seat names of an open game of ``engine`` when the GM names none."""
    from adjudicator import games

    return games.info(engine).seat_names or DEFAULT_NAMES


# -- announcing -----------------------------------------------------------------------------
def announce(service: Any, game_id: str, engine_name: str, seats: list[tuple[str, str | None]],
             options: dict[str, str], clocks: dict[str, str | None]) -> dict[str, Any]:
    """Announce an open game (``seats``: names, each with the address of a player the GM seats
    at once, or None); checked as ``pbem new`` checks a game, nothing created on a problem."""
    from adjudicator.registry import get_engine
    from adjudicator.base import GameError
    from pbem.store.auth import check_game_id, check_seat_name, parse_address
    from pbem.club.options import split as club_split
    from pbem.mailout.press import split_options

    check_game_id(game_id)
    try:
        engine = get_engine(engine_name)
    except GameError as exc:
        raise DomainError(str(exc)) from None
    names = [check_seat_name(n) for n, _ in seats]
    if len(set(names)) != len(names):
        raise DomainError("seat names must be different")
    if not engine.min_seats <= len(names) <= engine.max_seats:
        raise DomainError(f"{engine.name} needs {engine.min_seats}-{engine.max_seats} seats, got {len(names)}")
    rest, _ = split_options(dict(options))
    rest, _ = club_split(rest)
    check = getattr(engine, "check_options", None)
    problems = check(rest) if check is not None else []
    if problems:
        raise DomainError(f"{len(problems)} problem(s) in the options; nothing was announced:\n"
                          + "\n".join(f"  - {p}" for p in problems))
    with service.store.transaction():
        if service.store.game_row(game_id) is not None or _row(service.store, game_id) is not None:
            raise DomainError(f"game {game_id!r} already exists")
        spec = {"engine": engine.name, "seats": names, "options": {**options, "open": "yes"}, "clocks": clocks}
        service.store.conn.execute("insert into club_lobby (game_id, spec, created_at) values (?, ?, ?)",
                                   [game_id, json.dumps(spec, sort_keys=True), service.store.now()])
        for name, address in seats:
            if address:
                _seat(service.store, game_id, parse_address(address)[1], name, "gm")
        return describe(service.store, game_id)


def _(message: str) -> str:
    """``message`` in the current language (the catalogue is loaded only when a text is
    written: ``pbem status`` imports this module without the reports package)."""
    from reports.i18n import _ as gettext

    return gettext(message)


def _row(store: Any, game_id: str) -> dict[str, Any] | None:
    row = store.conn.execute("select spec, created_at, started_at, cancelled_at from club_lobby where game_id = ?",
                             [game_id]).fetchone()
    if row is None:
        return None
    return {"spec": json.loads(row[0]), "created_at": row[1], "started_at": row[2], "cancelled_at": row[3]}


def _entries(store: Any, game_id: str) -> list[dict[str, Any]]:
    rows = store.conn.execute("select id, address, seat, status, at, how from club_lobby_entries where game_id = ? "
                              "order by id", [game_id]).fetchall()
    return [{"id": i, "address": a, "seat": s, "status": st, "at": at, "how": how} for i, a, s, st, at, how in rows]


def _seat(store: Any, game_id: str, address: str, seat: str | None, how: str, status: str = "seated") -> None:
    store.conn.execute("insert into club_lobby_entries (game_id, address, seat, status, at, how) values "
                       "(?, ?, ?, ?, ?, ?)", [game_id, address.lower(), seat, status, store.now(), how])


def describe(store: Any, game_id: str) -> dict[str, Any]:
    """An open game as ``pbem lobby`` and ``LIST`` show it: seats taken (by whom: GM only),
    free, the waiting list, the requests awaiting the GM."""
    row = _row(store, game_id)
    if row is None:
        raise DomainError(f"there is no open game {game_id!r}")
    entries = _entries(store, game_id)
    seated = {e["seat"]: e["address"] for e in entries if e["status"] == "seated"}
    return {"game": game_id, "engine": row["spec"]["engine"], "seats": row["spec"]["seats"], "taken": seated,
            "free": [s for s in row["spec"]["seats"] if s not in seated],
            "asked": [{"address": e["address"], "seat": e["seat"]} for e in entries if e["status"] == "asked"],
            "join": _join_rule(row), "announced": row["created_at"], "started": row["started_at"],
            "cancelled": row["cancelled_at"]}


def _join_rule(row: dict[str, Any]) -> str:
    return "approve" if str(row["spec"]["options"].get("join", "first")).lower() == "approve" else "first"


def open_games(store: Any) -> list[dict[str, Any]]:
    """Every announced game that has not started (nor been cancelled)."""
    rows = store.conn.execute("select game_id from club_lobby where started_at is null and cancelled_at is null "
                              "order by created_at, game_id").fetchall()
    return [describe(store, r[0]) for r in rows]


# -- joining ----------------------------------------------------------------------------------
def join(service: Any, game_id: str, address: str, seat: str | None, how: str) -> tuple[Any, list[str]]:
    """``address`` joins ``game_id`` (an open game, or a running game's offered seat):
    ``(the game once started or None, the answer lines)``; a misuse is a one-line DomainError."""
    address = address.strip().lower()
    row = _row(service.store, game_id)
    if row is None:
        if service.store.game_row(game_id) is not None and offered(service.store, game_id):
            return None, take_offer(service, game_id, address, seat)
        if service.store.game_row(game_id) is not None:
            raise DomainError(_("game {game} is not open to players joining by mail").format(game=game_id))
        raise DomainError(_("there is no open game {game} (LIST names the open games)").format(game=repr(game_id)))
    if row["cancelled_at"]:
        raise DomainError(_("game {game} was cancelled").format(game=game_id))
    if row["started_at"]:
        if offered(service.store, game_id):
            return None, take_offer(service, game_id, address, seat)
        game = service.load(game_id)
        if game.pending is None:
            raise DomainError(_("game {game} is over").format(game=game_id))
        if any(address in {a.lower() for a in [r["email"], *r.get("addresses", [])]} for r in game.seats.values()):
            raise DomainError(_("you play a seat of {game} already").format(game=game_id))
        if seat is not None:
            raise DomainError(_("seat {seat} of {game} is not offered: it has a player (JOIN {game} alone puts you on "
                                "its standby list)").format(seat=seat, game=game_id))
        absence.standby_add(service.store, address, game_id, "join")
        return None, [_("Every seat of {game} is taken and the game has started: you are on its waiting list, its "
                        "standby list. If a seat needs a new player, the GM may give it to you, or offer it: LIST "
                        "names the seats offered.").format(game=game_id)]
    info = describe(service.store, game_id)
    mine = [e for e in _entries(service.store, game_id) if e["address"] == address]
    if mine:
        status = mine[0]["status"]
        where = (_("seat {seat}").format(seat=mine[0]["seat"]) if status == "seated" else
                 _("asked the GM") if status == "asked" else status)
        raise DomainError(_("you have joined {game} already ({where})").format(game=game_id, where=where))
    names = {s.lower(): s for s in info["seats"]}
    if seat is not None and seat.lower() not in names:
        raise DomainError(_("{game} has no seat {seat} (seats: {seats})").format(game=game_id, seat=repr(seat),
                                                                                 seats=", ".join(info["seats"])))
    seat = names[seat.lower()] if seat else None
    if seat is not None and seat not in info["free"]:
        raise DomainError(_("seat {seat} of {game} is taken; free: {free}").format(
            seat=seat, game=game_id, free=", ".join(info["free"]) or _("none")))
    chosen = seat or info["free"][0]
    if info["join"] == "approve" and how == "mail":
        _seat(service.store, game_id, address, chosen, how, "asked")
        return None, [_("Your request for seat {seat} of {game} is sent to the GM, who approves the players of this "
                        "game; you will be mailed the answer.").format(seat=chosen, game=game_id)]
    _seat(service.store, game_id, address, chosen, how)
    return _seated(service, game_id, chosen)


def _seated(service: Any, game_id: str, seat: str) -> tuple[Any, list[str]]:
    """The answer to a player just seated; the game starts when it was the last free seat."""
    info = describe(service.store, game_id)
    if not info["free"]:
        game = start(service, game_id, bots=False)
        return game, [_("You have seat {seat} of {game} ({engine}). Every seat is taken: the game starts now, and "
                        "your welcome mail with your password and the opening position follows.").format(
                            seat=seat, game=game_id, engine=info["engine"])]
    return None, [_("You have seat {seat} of {game} ({engine}). The game starts when every seat is taken ({n} free "
                    "now: {free}) or when the GM starts it;").format(seat=seat, game=game_id, engine=info["engine"],
                                                                     n=len(info["free"]), free=", ".join(info["free"])),
                  _("your password comes in the welcome mail then. LEAVE {game} gives the seat back.").format(
                      game=game_id)]


def leave(service: Any, game_id: str, address: str) -> list[str]:
    """``address`` leaves an open game before it starts (the first on the waiting list takes the seat)."""
    address = address.strip().lower()
    row = _row(service.store, game_id)
    if row is None:
        raise DomainError(_("there is no open game {game}").format(game=repr(game_id)))
    if row["started_at"]:
        raise DomainError(_("game {game} has started: send RESIGN in a GAME block to leave it").format(game=game_id))
    mine = [e for e in _entries(service.store, game_id) if e["address"] == address]
    if not mine:
        raise DomainError(_("you have not joined {game}").format(game=game_id))
    service.store.conn.execute("delete from club_lobby_entries where id = ?", [mine[0]["id"]])
    return [(_("You have left {game}: seat {seat} is free again.") if mine[0]["status"] == "seated" else
             _("You have left {game}.")).format(game=game_id, seat=mine[0]["seat"])]


def approve(service: Any, game_id: str, address: str, yes: bool) -> list[str]:
    """The GM's answer to a request to join (``join=approve``); the player is told."""
    address = address.strip().lower()
    asked = [e for e in _entries(service.store, game_id) if e["address"] == address and e["status"] == "asked"]
    if not asked:
        raise DomainError(f"{address} has not asked to join {game_id}")
    entry = asked[0]
    if not yes:
        service.store.conn.execute("delete from club_lobby_entries where id = ?", [entry["id"]])
        mailing.answer(service, None, address, f"join {game_id}", [f"The GM did not take you into {game_id}."])
        return [f"{address} is not taken into {game_id}"]
    if entry["seat"] in [e["seat"] for e in _entries(service.store, game_id) if e["status"] == "seated"]:
        raise DomainError(f"seat {entry['seat']} of {game_id} is taken meanwhile")
    service.store.conn.execute("update club_lobby_entries set status = 'seated' where id = ?", [entry["id"]])
    game, lines = _seated(service, game_id, entry["seat"])
    mailing.answer(service, game, address, f"join {game_id}", ["The GM approved you. " + lines[0], *lines[1:]])
    return [f"{address} has seat {entry['seat']} of {game_id}"]


# -- starting ----------------------------------------------------------------------------------
def start(service: Any, game_id: str, bots: bool = True) -> Any:
    """Create the game from its lobby (inside the caller's transaction): the seated players,
    the game's bot in every empty seat (``bots``; else every seat must be taken), the observers
    recorded. Returns the game."""
    from pbem.club import observers

    row = _row(service.store, game_id)
    if row is None or row["cancelled_at"]:
        raise DomainError(f"there is no open game {game_id!r}")
    if row["started_at"]:
        raise DomainError(f"game {game_id} has started already")
    info = describe(service.store, game_id)
    if info["free"] and not bots:
        raise DomainError(f"{game_id} has free seats ({', '.join(info['free'])})")
    spec = row["spec"]
    empty = list(info["free"])
    seats = [(s, info["taken"].get(s) or f"{s}.{game_id}@{mailing.BOT_DOMAIN}".lower()) for s in spec["seats"]]
    if not info["taken"]:
        raise DomainError(f"nobody has joined {game_id}: a game of bots alone is 'pbem demo'")
    clocks = spec.get("clocks") or {}
    created = service.new_game(game_id, spec["engine"], seats, spec["options"], None, clocks.get("deadline"),
                               clocks.get("deadline_every"), clocks.get("decision_every"), clocks.get("remind_before"))
    service.store.conn.execute("update club_lobby set started_at = ? where game_id = ?", [service.store.now(), game_id])
    game = created.game
    for seat in empty:
        game = absence.fall(service, service.load(game_id), seat, "start")
    observers.record_started(service, game_id)
    return absence.settle(service, service.load(game_id), service.store.clock())


def cancel(service: Any, game_id: str) -> list[str]:
    """The GM calls an open game off before it starts; everyone who joined is told."""
    row = _row(service.store, game_id)
    if row is None or row["started_at"] or row["cancelled_at"]:
        raise DomainError(f"there is no open game {game_id!r} to cancel")
    service.store.conn.execute("update club_lobby set cancelled_at = ? where game_id = ?", [service.store.now(), game_id])
    told = sorted({e["address"] for e in _entries(service.store, game_id)})
    for address in told:
        mailing.answer(service, None, address, f"{game_id} cancelled", [f"The GM has called off the open game {game_id}."])
    return told


def gm_start(service: Any, game_id: str) -> tuple[dict[str, Any], Any]:
    """The GM starts an open game now (``pbem start``), the game's bot in every seat nobody took:
    the lobby as it was (:func:`describe`: seats taken and free) and the game created."""
    info = describe(service.store, game_id)
    with service.store.transaction():
        return info, start(service, game_id, bots=True)


def gm_offer(service: Any, game_id: str, seat: str) -> list[str]:
    """The GM offers a seat the bot plays (``pbem offer``, :func:`offer`) in one transaction;
    the addresses told."""
    with service.store.transaction():
        return offer(service, game_id, seat)


def gm_decides(service: Any, game_id: str, approve_: str | None = None, reject: str | None = None,
               seats: Sequence[tuple[str, str]] = (), cancel_: bool = False) -> list[str]:
    """The GM's decisions on an open game, all in one transaction (one refused: none made):
    approve or reject a request to join (by the address, as written in a mail header), seat a
    player (``(seat, address)`` pairs), call the game off. What was done, one line each."""
    from pbem.store.auth import parse_address

    said: list[str] = []
    with service.store.transaction():
        if approve_:
            said += approve(service, game_id, parse_address(approve_)[1], True)
        if reject:
            said += approve(service, game_id, parse_address(reject)[1], False)
        for seat, address in seats:
            _, lines = join(service, game_id, parse_address(address)[1], seat.strip(), "gm")
            said.append(f"{address}: {lines[0]}")
        if cancel_:
            told = cancel(service, game_id)
            said.append(f"{game_id} cancelled; told: {', '.join(told) or 'nobody'}")
    return said

# -- seats offered in running games -------------------------------------------------------------
def offer(service: Any, game_id: str, seat: str) -> list[str]:
    """Offer a seat the bot plays (civil disorder, resigned, empty from the start) to a new player:
    listed by LIST, taken by the first ``JOIN G SEAT``; the standby list of the game is mailed."""
    game = service.load(game_id)
    game.require_running_seat(seat)
    if not game.club.bot_played(seat):
        raise DomainError(f"{seat} of {game_id} has a player; only a seat the bot plays is offered")
    if seat in offered(service.store, game_id):
        raise DomainError(f"{seat} of {game_id} is offered already")
    service.store.conn.execute("insert into club_offers (game_id, seat, at) values (?, ?, ?)",
                               [game_id, seat, service.store.now()])
    told = [r["address"] for r in absence.standby_list(service.store, game_id)]
    for address in told:
        mailing.answer(service, None, address, f"a seat of {game_id} needs a player", [
            f"Seat {seat} of {game_id} ({game.engine.name}) needs a new player; the game's bot plays it meanwhile.",
            f"Mail JOIN {game_id} {seat} (as the subject or the first line) to take it: the first to do so gets it,",
            "with a welcome mail holding its password and the current position."])
    return told


def offered(store: Any, game_id: str) -> list[str]:
    """The seats of ``game_id`` offered and not taken."""
    rows = store.conn.execute("select seat from club_offers where game_id = ? and taken_at is null order by at",
                              [game_id]).fetchall()
    return [r[0] for r in rows]


def all_offers(store: Any) -> list[tuple[str, str]]:
    """(game, seat) of every offer not taken, of running games."""
    rows = store.conn.execute("select o.game_id, o.seat from club_offers o join games g on g.game_id = o.game_id "
                              "where o.taken_at is null and g.over = 0 order by o.at").fetchall()
    return [(g, s) for g, s in rows]


def take_offer(service: Any, game_id: str, address: str, seat: str | None) -> list[str]:
    """A JOIN for a running game: takes the offered ``seat`` (the first offered when none is named)."""
    seats = offered(service.store, game_id)
    if not seats:
        raise DomainError(_("game {game} is not open: it has started and offers no seat").format(game=game_id))
    game = service.load(game_id)
    if any(address in {a.lower() for a in [r["email"], *r.get("addresses", [])]} for r in game.seats.values()):
        raise DomainError(_("you play a seat of {game} already").format(game=game_id))
    names = {s.lower(): s for s in seats}
    if seat is not None and seat.lower() not in names:
        raise DomainError(_("seat {seat} of {game} is not offered; offered: {seats}").format(
            seat=seat, game=game_id, seats=", ".join(seats)))
    chosen = names[seat.lower()] if seat else seats[0]
    absence.replace(service, game_id, chosen, address)
    service.store.conn.execute("update club_offers set taken_at = ?, address = ? where game_id = ? and seat = ? "
                               "and taken_at is null", [service.store.now(), address, game_id, chosen])
    return [_("You have seat {seat} of {game} from now on: your welcome mail with its password and the current "
              "position follows.").format(seat=chosen, game=game_id)]


# -- LIST -----------------------------------------------------------------------------------------
def list_lines(service: Any) -> list[str]:
    """The answer to LIST: the open games, the offered seats, the games open to observers."""
    lines = []
    games = open_games(service.store)
    if games:
        lines.append(_("Open games (JOIN <game> [seat] takes a seat; the game starts when every seat is taken):"))
        for g in games:
            said = (_("{engine}, {n} seats, free: {free}; the GM approves each player") if g["join"] == "approve" else
                    _("{engine}, {n} seats, free: {free}")).format(engine=g["engine"], n=len(g["seats"]),
                                                                   free=", ".join(g["free"]))
            lines.append(f"  {g['game']}: {said}")
    offers = all_offers(service.store)
    if offers:
        lines.append(_("Seats that need a new player (JOIN <game> <seat>):"))
        lines += [f"  {g} {s}" for g, s in offers]
    watch = observable(service)
    if watch:
        lines.append(_("Games you may follow as an observer (OBSERVE <game>; STOP <game> ends it): {games}").format(
            games=", ".join(watch)))
    return lines or [_("No game is open to join now, and no seat needs a new player.")]


def observable(service: Any) -> list[str]:
    """The games open to observers by mail: open games, announced or running."""
    rows = service.store.conn.execute("select l.game_id from club_lobby l left join games g on g.game_id = l.game_id "
                                      "where l.cancelled_at is null and (g.over is null or g.over = 0) "
                                      "order by l.created_at").fetchall()
    return [r[0] for r in rows]


def is_open(store: Any, game_id: str) -> bool:
    """Whether ``game_id`` was announced as an open game (and not cancelled)."""
    row = _row(store, game_id)
    return row is not None and not row["cancelled_at"]
