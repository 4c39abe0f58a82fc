"""Absences, missed turns and civil disorder, coming back, and replacements.

A player declares an absence (``ABSENT FROM 2026-12-10 TO 2026-12-20`` in a GAME block, or
the GM with ``pbem absent``): an ``AbsenceDeclared`` event. What happens meanwhile is the
game's ``absence`` option (:mod:`pbem.club.options`):

- ``wait``: a turn that awaits an absent seat gets its deadline moved (a ``DeadlineSet`` that
  names the absent seats and the deadline it had before) to the end of the absence, but never
  more than ``absence_cap`` after the deadline it had; every seat is told;
- ``bot``: the game's heuristic bot writes the seat's orders when its turn comes (an
  ``OrdersSubmitted`` whose source is ``bot``); the player may still send their own, which
  replace the bot's, as any later orders do.

A seat that misses ``disorder_after`` turns in a row (the missed-orders default played for it,
not while away by a declared absence) falls into civil disorder: a ``CivilDisorder`` event,
every seat is told, and the bot plays it from then on. The player comes back with their
password (a GAME block with ``BACK``, or any accepted orders), or the GM gives the seat to a
new player (``pbem replace``: a standby player, or any address): a ``SeatReturned`` event.

The standby list (``STANDBY`` by mail, ``pbem standby``) is a service record: the addresses
of players willing to take over a seat, for one game or any.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from pbem.club import log, options
from pbem.mailout import clubmail as mailing
from pbem.store.clubstate import instant
from pbem.errors import DomainError
from pbem.store.db import NewEvent


# The players' language (reports.i18n), imported when a notice is written: ``pbem status`` reads
# the club's state without loading the mail and report packages.
def _(message: str) -> str:
    from reports.i18n import _ as said

    return said(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    from reports.i18n import ngettext as said

    return said(singular, plural, n)


def N_(message: str) -> str:
    return message


def wrapped(*texts: str, width: int = 76) -> list[str]:
    from pbem.mailout.mailbase import wrapped as lines

    return lines(*texts, width=width)

#: Why the bot played a seat (:meth:`pbem.store.clubstate.Club.bot_played`), as a player reads it.
WHY = {"resigned": N_("resigned"), "civil disorder": N_("civil disorder")}

#: The longest absence a player may declare.
LONGEST = timedelta(days=90)


# -- declaring ------------------------------------------------------------------------
def parse_period(words: list[str], now: datetime) -> tuple[str, str]:
    """``FROM <when> TO <when>``, ``TO <when>`` or ``FOR <duration>`` (the words after
    ABSENT) as two UTC instants; a date alone is the whole day in UTC. One-line errors."""
    upper = [w.upper() for w in words]
    start, end = now, None
    try:
        if upper[:1] == ["FOR"] and len(words) == 2:
            from pbem.store.clock import parse_duration

            end = now + parse_duration(words[1])
        elif upper[:1] == ["FROM"] and len(words) == 4 and upper[2] == "TO":
            start, end = _when(words[1], False), _when(words[3], True)
        elif upper[:1] == ["TO"] and len(words) == 2:
            end = _when(words[1], True)
    except ValueError:
        end = None
    if end is None:
        raise DomainError(_("write ABSENT FROM 2026-12-10 TO 2026-12-20 (dates in UTC, or ISO times with a zone), "
                            "ABSENT TO 2026-12-20 or ABSENT FOR 10d"))
    return check_period(start, end, now)


def check_period(start: datetime, end: datetime, now: datetime) -> tuple[str, str]:
    """The period as UTC texts, refused when it ends before it begins, is over, or is too long."""
    from pbem.store.clock import utc_text

    start = max(start, now)  # an absence that began already is noted from now
    if end <= start:
        raise DomainError(_("the absence ends before it begins (or has ended already)"))
    if end - start > LONGEST:
        raise DomainError(_("an absence may last at most {days} days; ask the GM for a replacement instead").format(
            days=LONGEST.days))
    return utc_text(start), utc_text(end)


def _when(text: str, end: bool) -> datetime:
    """A date (the day's start, or its end for ``end``, in UTC) or an ISO time with a zone."""
    if len(text) == 10:
        day = datetime.fromisoformat(text).replace(tzinfo=timezone.utc)
        return day + timedelta(days=1, seconds=-1) if end else day
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError("no zone")
    return moment.astimezone(timezone.utc)


def gm_away(service: Any, game_id: str, seat: str, words: list[str]) -> tuple[str, str, Any]:
    """The GM notes that ``seat`` is away (``pbem absent``) for the period ``words`` say, as the
    words after ABSENT by mail (:func:`parse_period`, counted from now): its start, its end
    and the event recorded (:func:`declare`)."""
    start, end = parse_period(words, service.store.clock())
    return start, end, declare(service, game_id, seat, start, end, "gm")


def declare(service: Any, game_id: str, seat: str, start: str, end: str, by: str) -> Any:
    """Record ``seat``'s absence (inside one transaction) and apply the game's policy now."""
    with service.store.transaction():
        game = _running(service, game_id, seat)
        payload = {"seat": seat, "from": start, "to": end, "by": by}
        (event,), game = log.append(service, game, [NewEvent("AbsenceDeclared", payload)])
        game = settle(service, game, service.store.clock())
        if by == "gm":
            mailing.tell_seats(service, game, lambda: _("your absence is noted"), lambda: [
                *wrapped(_("Game {game}: the GM noted that you are away from {start} to {end}.").format(
                    game=game_id, start=start, end=end)), "", *policy_lines(game)], "absence", event.seq, only=[seat])
        return event


def policy_lines(game: Any) -> list[str]:
    """What the game does while a seat is away, for the player."""
    opts = options.of(game)
    if opts["absence"] == "bot":
        return wrapped(_("Meanwhile the game's bot writes your orders when they are due; orders you send yourself "
                         "replace the bot's. Send BACK in a GAME block when you are back early."))
    cap = timedelta(seconds=int(opts["absence_cap"]))
    return wrapped(_("Meanwhile a turn that awaits your orders waits for you, at most {span} past its deadline; after "
                     "that the missed-orders default is played for you (not counted as a missed turn while you are "
                     "away). Send BACK in a GAME block when you are back early.").format(span=_span(cap)))


def _span(delta: timedelta) -> str:
    """``2 days 12 hours`` in the current language (the catalogue's plural forms)."""
    days, hours = delta.days, delta.seconds // 3600
    return " ".join(p for p in (ngettext("{n} day", "{n} days", days).format(n=days) if days else "",
                                ngettext("{n} hour", "{n} hours", hours).format(n=hours) if hours else "") if p) \
        or ngettext("{n} hour", "{n} hours", 0).format(n=0)


def end_absence(service: Any, game_id: str, seat: str, by: str) -> Any:
    """End ``seat``'s absence now (the player is back early, or the GM says so)."""
    with service.store.transaction():
        game = _running(service, game_id, seat)
        if seat not in game.club.absences:
            raise DomainError(_("{seat} has no absence declared in {game}").format(seat=seat, game=game_id))
        (event,), _after = log.append(service, game, [NewEvent("AbsenceEnded", {"seat": seat, "by": by})])
        return event


def _running(service: Any, game_id: str, seat: str) -> Any:
    game = service.load(game_id)
    if seat not in game.seats:
        raise DomainError(_("no seat {seat} in {game}").format(seat=repr(seat), game=game_id))
    if game.pending is None:
        raise DomainError(_("game {game} is over").format(game=game_id))
    return game


# -- the policy, applied --------------------------------------------------------------
def bot_seats(game: Any, now: datetime) -> dict[str, str]:
    """The seats the bot plays at ``now``, each with why (civil disorder, resigned, absent)."""
    out = {}
    bot_absent = options.of(game)["absence"] == "bot"
    for seat in game.seats:
        why = game.club.bot_played(seat) or ("absent" if bot_absent and game.club.absent(seat, now) else None)
        if why:
            out[seat] = why
    return out


def settle(service: Any, game: Any, now: datetime) -> Any:
    """The pending turn made right for the seats away or played by the bot at ``now`` (inside the
    caller's transaction): the bot's orders for each awaited seat it plays, and under
    ``absence=wait`` the deadline moved for awaited absent seats. Returns the game, reloaded
    when anything was recorded."""
    game = play_bots(service, game, now)
    return wait_for_absent(service, game)


def play_bots(service: Any, game: Any, now: datetime) -> Any:
    """The bot's orders for every awaited seat it plays now (``OrdersSubmitted``, source ``bot``)."""
    pending = game.pending
    club = game.club
    if pending is None or game.created.get("chance") == "recorded" or not (club.absences or club.disorder
                                                                            or club.resigned):
        return game  # nobody is away or played by the bot: nothing to look at (the usual case)
    playing = bot_seats(game, now)
    due = [s for s in service.awaited(game) if s in playing] if playing else []
    if not due:
        return game
    from adjudicator.chance import Chance
    from pbem.club.bots import bot_for
    from turns.games import format_orders

    bot = bot_for(game, "heuristic")
    key = game.mail_key(pending.turn)
    for seat in due:
        orders = bot(game.state, seat, Chance(f"bots:{game.game_id}").stream(f"{key}/{seat}"))
        source = {"kind": "bot", "bot": "heuristic", "reason": playing[seat]}
        service.submit(game.game_id, seat, orders, format_orders(game.engine.name, orders), source,
                       key=f"bot:{game.game_id}:{key}:{seat}", game=game)
    return service.load(game.game_id)


def wait_for_absent(service: Any, game: Any) -> Any:
    """Under ``absence=wait``: move the pending turn's deadline to the end of the absences of
    the awaited seats away at that deadline, at most ``absence_cap`` past the deadline it had."""
    from pbem.store.clock import utc_text

    if not game.club.absences:
        return game
    pending, deadline = game.pending, game.deadline
    opts = options.of(game)
    if pending is None or deadline is None or opts["absence"] != "wait":
        return game
    due = instant(deadline)
    away = [s for s in service.awaited(game) if game.club.absent(s, due)]
    if not away:
        return game
    base = game.club.waited.get(pending.turn) or deadline
    until = max(instant(game.club.absences[s]["to"]) for s in away)
    moved = min(until, instant(base) + timedelta(seconds=int(opts["absence_cap"])))
    if moved <= due:
        return game
    payload = {"turn": pending.turn, "deadline": utc_text(moved), "utc": utc_text(moved), "absence": away,
               "base": base}
    (event,), after = log.append(service, game, [NewEvent("DeadlineSet", payload)])
    from pbem.mailout.mailbase import format_deadline

    mailing.tell_seats(service, after, lambda: _("deadline of {turn} moved").format(turn=pending.turn), lambda: [
        *wrapped(_("Game {game}: the deadline of turn {turn} waits for {away}, away by a declared absence. The new "
                   "deadline:").format(game=game.game_id, turn=pending.turn, away=", ".join(away))),
        f"  {format_deadline(payload['deadline'])}"], "deadline", event.seq)
    return after


# -- missed turns and civil disorder ----------------------------------------------------
def after_turn(service: Any, game: Any, payload: dict[str, Any]) -> Any:
    """After an adjudication (inside its transaction): each seat that has now missed the game's
    limit of turns in a row falls into civil disorder. Returns the game, reloaded if so."""
    limit = int(options.of(game)["disorder_after"])
    if not limit or game.pending is None:
        return game
    for seat in payload.get("defaulted") or []:
        missed = game.club.missed.get(seat, 0)
        if missed >= limit and game.club.bot_played(seat) is None:
            game = fall(service, game, seat, "missed", missed)
    return game


def fall(service: Any, game: Any, seat: str, by: str, missed: int | None = None, reason: str = "") -> Any:
    """Record that ``seat`` falls into civil disorder and tell every seat (inside the caller's
    transaction). Returns the game reloaded."""
    pending = game.pending
    payload = {"seat": seat, "turn": pending.turn if pending else None,
               "missed": game.club.missed.get(seat, 0) if missed is None else missed, "by": by}
    if reason:
        payload["reason"] = reason
    (event,), after = log.append(service, game, [NewEvent("CivilDisorder", payload)])
    from pbem.club.notes import turns

    def why() -> str:
        return {"missed": _("after {turns} in a row").format(turns=turns(payload["missed"])),
                "gm": _("by the GM's decision"), "start": _("as nobody took it when the game started")}.get(by, "")

    mailing.tell_seats(service, after, lambda: _("{seat} is in civil disorder").format(seat=seat), lambda: wrapped(
        _("Game {game}: seat {seat} is in civil disorder {why}.").format(game=game.game_id, seat=seat, why=why())
        .replace("  ", " "),
        _("The game's bot plays it from now on, until its player comes back or the GM gives it to a new player.")),
        "disorder", event.seq, only=[s for s in after.seats if s != seat])
    mailing.tell_seats(service, after, lambda: _("your seat is in civil disorder"), lambda: [
        *wrapped(_("Game {game}: your seat is in civil disorder {why}.").format(game=game.game_id, why=why())
                 .replace("  ", " "), _("The game's bot plays it from now on.")), "",
        *wrapped(_("To play it again yourself, send a GAME block with your password and the one line BACK ({block}), "
                   "or simply your orders.").format(block=f"GAME {game.game_id} {seat} " + _("<your password>")
                                                    + " / BACK / END"))],
        "disorder", event.seq, only=[seat])
    return after


def come_back(service: Any, game_id: str, seat: str, how: str) -> Any:
    """``seat`` is played by its player again (``how``: password, gm): ends its civil disorder
    (or, for the GM, its resignation) and its absence; every seat is told. Refused when the
    seat is neither away nor played by the bot."""
    with service.store.transaction():
        game = _running(service, game_id, seat)
        why = game.club.bot_played(seat)
        if why == "resigned" and how != "gm":
            raise DomainError(_("{seat} resigned from {game}; only the GM can give the seat back").format(
                seat=seat, game=game_id))
        new = []
        if seat in game.club.absences:
            new.append(NewEvent("AbsenceEnded", {"seat": seat, "by": "player" if how == "password" else how}))
        if why is not None:
            new.append(NewEvent("SeatReturned", {"seat": seat, "how": how}))
        if not new:
            raise DomainError(_("{seat} is neither away nor in civil disorder in {game}").format(seat=seat, game=game_id))
        stored, after = log.append(service, game, new)
        if why is not None:
            mailing.tell_seats(service, after, lambda: _("{seat} is back").format(seat=seat), lambda: wrapped(
                _("Game {game}: seat {seat} is played by its player again ({why} ended).").format(
                    game=game_id, seat=seat, why=_(WHY.get(why, why)))),
                "disorder", stored[-1].seq)
        return after


def returned_by_orders(service: Any, game_id: str, seat: str) -> bool:
    """After a seat's own orders were accepted: a seat in civil disorder is its player's again."""
    game = service.load(game_id)
    if game.club.disorder.get(seat) is None or game.pending is None:
        return False
    come_back(service, game_id, seat, "password")
    return True


def replace(service: Any, game_id: str, seat: str, email: str) -> str:
    """A new player (``email``) takes ``seat``: a new password and a welcome mail with the current
    position (:meth:`pbem.loop.service.Service.change_seat`), the seat out of civil disorder or
    resignation, every other seat told, the address off the standby list. Returns the password."""
    with service.store.transaction():
        game = _running(service, game_id, seat)
        password = service.change_seat(game_id, seat, email, reset_password=True)
        game = service.load(game_id)
        new = [NewEvent("SeatReturned", {"seat": seat, "how": "replacement"})] if game.club.bot_played(seat) else []
        if seat in game.club.absences:
            new.insert(0, NewEvent("AbsenceEnded", {"seat": seat, "by": "gm"}))
        stored, after = log.append(service, game, new) if new else ([], game)
        seq = stored[-1].seq if stored else game.last_seq
        mailing.tell_seats(service, after, lambda: _("{seat} has a new player").format(seat=seat), lambda: wrapped(
            _("Game {game}: seat {seat} is played by a new player from now on.").format(game=game_id, seat=seat)),
            "disorder", seq, only=[s for s in after.seats if s != seat])
        standby_remove(service.store, after.seats[seat]["email"])
        return str(password)


# -- the standby list ------------------------------------------------------------------
def gm_disorder(service: Any, game_id: str, seat: str, reason: str) -> Any:
    """The GM puts ``seat`` in civil disorder now (``pbem disorder``): the game's bot plays it
    and every seat is told; the game as it is after. Refused in one line for an unknown seat,
    a game over, or a seat the bot plays already."""
    with service.store.transaction():
        game = service.load(game_id)
        game.require_running_seat(seat)
        if game.club.bot_played(seat):
            raise DomainError(f"{seat} is already played by the bot ({game.club.bot_played(seat)})")
        game = fall(service, game, seat, "gm", reason=reason)
        game = settle(service, game, service.store.clock())
        service._project(game)
    return game


def replace_from_standby(service: Any, game_id: str, seat: str) -> tuple[str, str]:
    """Give ``seat`` to the address longest on the game's standby list that plays no seat of
    it (:func:`replace`); ``(the address, its new password)``."""
    game = service.load(game_id)
    taken = {a.lower() for row in game.seats.values() for a in [row["email"], *row.get("addresses", [])]}
    email = first_standby(service.store, game_id, taken)
    if email is None:
        raise DomainError(f"nobody on the standby list for {game_id} (players join it with STANDBY by mail)")
    return email, replace(service, game_id, seat, email)


def gm_standby(store: Any, add: str | None = None, remove: str | None = None, game_id: str | None = None) -> None:
    """The GM puts an address (as written in a mail header) on the standby list and/or takes
    one off it, for ``game_id`` or any game, in one transaction; removing an address not on
    it is refused in one line."""
    from pbem.store.auth import parse_address

    with store.transaction():
        if add:
            standby_add(store, parse_address(add)[1], game_id, "gm")
        if remove and not standby_remove(store, parse_address(remove)[1], game_id):
            raise DomainError(f"{remove} is not on the standby list" + (f" for {game_id}" if game_id else ""))


def standby_add(store: Any, address: str, game_id: str | None, how: str) -> bool:
    """Put ``address`` on the standby list (for ``game_id``, or any game); False if it was."""
    address = address.strip().lower()
    row = store.conn.execute("select 1 from club_standby where address = ? and game_id = ?",
                             [address, game_id or ""]).fetchone()
    if row:
        return False
    store.conn.execute("insert into club_standby (address, game_id, at, how) values (?, ?, ?, ?)",
                       [address, game_id or "", store.now(), how])
    return True


def standby_remove(store: Any, address: str, game_id: str | None = None) -> int:
    """Take ``address`` off the standby list (for ``game_id``, or every entry); how many rows went."""
    sql, params = "delete from club_standby where address = ?", [address.strip().lower()]
    if game_id is not None:
        sql += " and game_id = ?"
        params.append(game_id)
    return int(store.conn.execute(sql, params).rowcount)


def standby_list(store: Any, game_id: str | None = None) -> list[dict[str, Any]]:
    """The standby list, oldest first (for ``game_id``: its own entries and those for any game)."""
    sql = "select address, game_id, at, how from club_standby"
    params: list[Any] = []
    if game_id is not None:
        sql += " where game_id in (?, '')"
        params.append(game_id)
    rows = store.conn.execute(sql + " order by at, address", params).fetchall()
    return [{"address": a, "game": g or None, "since": at, "how": how} for a, g, at, how in rows]


def first_standby(store: Any, game_id: str, exclude: set[str]) -> str | None:
    """The address longest on the standby list for ``game_id`` that plays no seat of it."""
    return next((r["address"] for r in standby_list(store, game_id) if r["address"] not in exclude), None)


# -- status --------------------------------------------------------------------------------
def status_fields(game: Any, now: datetime) -> dict[str, Any]:
    """Absences, missed turns in a row and bot-played seats for ``pbem status``."""
    club = game.club
    return {"absences": {s: {"from": a["from"], "to": a["to"], "now": club.absent(s, now)}
                         for s, a in club.absences.items() if instant(a["to"]) >= now},
            "missed": {s: n for s, n in club.missed.items() if n},
            "missed_total": {s: n for s, n in club.missed_total.items() if n},
            "bot_played": bot_seats(game, now) if game.pending is not None else {},
            "observers": sorted(game.club.observers),
            "club_options": options.of(game)}
