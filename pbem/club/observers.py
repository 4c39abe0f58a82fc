"""Observers: addresses that follow a game without playing it.

``pbem observe G ADDRESS`` (any game), or ``OBSERVE G`` by mail (open games only: the GM
made them with ``pbem new --open``); ``STOP G`` by mail or ``pbem observe G ADDRESS --stop``
ends it. An observer gets, and only gets, what the public may see:

- after each adjudicated turn whose reports went out, a copy of the **public report** (the
  report the GM's mailbox gets for ``@public``, made from the ``@public`` view only);
- when the game ends, the **final record** (:mod:`pbem.archives.records`: nothing of it is sealed
  once the game is over, and it never holds press) and, for a game the players ended, the
  final public report naming how it ended.

An observer never gets a seat's view, a seat's reply, press or a vote. The game's log records
each observer as ``ObserverAdded``/``ObserverRemoved`` with an opaque id (``o1``, ``o2``...);
the address lives in the ``club_observers`` table, a service record never published.
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.club import log
from pbem.mailout import clubmail as mailing
from pbem.errors import DomainError
from pbem.store.db import NewEvent


def _(message: str) -> str:
    """``message`` in the current language (English outside a mail's answer: the GM's command
    line); the catalogue is loaded only when a text is written."""
    from reports.i18n import _ as said

    return said(message)


def _rows(store: Any, game_id: str) -> list[dict[str, Any]]:
    rows = store.conn.execute(
        "select observer, address, since, until, how from club_observers where game_id = ? order by since, observer",
        [game_id]).fetchall()
    return [{"observer": o, "address": a, "since": s, "until": u, "how": h} for o, a, s, u, h in rows]


def current(store: Any, game_id: str) -> list[dict[str, Any]]:
    """The observers of ``game_id`` now (id, address, since, how)."""
    return [r for r in _rows(store, game_id) if r["until"] is None]


def add(service: Any, game_id: str, address: str, how: str) -> str:
    """``address`` observes ``game_id`` from now on (inside the caller's transaction); its id.
    A game not started yet (an open game) records ``ObserverAdded`` when it starts."""
    address = address.strip().lower()
    if any(r["address"] == address for r in current(service.store, game_id)):
        raise DomainError(_("{address} observes {game} already").format(address=address, game=game_id))
    started = service.store.game_row(game_id) is not None
    if started:
        game = service.load(game_id)
        if game.pending is None:
            raise DomainError(_("game {game} is over: its record is what there is to see").format(game=game_id))
        if any(address in {a.lower() for a in [row["email"], *row.get("addresses", [])]} for row in game.seats.values()):
            raise DomainError(_("{address} plays a seat of {game}: a player does not observe the game").format(
                address=address, game=game_id))
    count = int(service.store.conn.execute("select count(*) from club_observers where game_id = ?",
                                           [game_id]).fetchone()[0])
    observer = f"o{count + 1}"
    service.store.conn.execute("insert into club_observers (game_id, observer, address, since, how) values "
                               "(?, ?, ?, ?, ?)", [game_id, observer, address, service.store.now(), how])
    if started:
        log.append(service, game, [NewEvent("ObserverAdded", {"observer": observer})])
    return observer


def record_started(service: Any, game_id: str) -> None:
    """When an open game starts: ``ObserverAdded`` for each observer who joined before."""
    game = service.load(game_id)
    new = [NewEvent("ObserverAdded", {"observer": r["observer"]}) for r in current(service.store, game_id)]
    if new:
        log.append(service, game, new)


def stop(service: Any, game_id: str, address: str, by: str) -> str:
    """``address`` no longer observes ``game_id``; its id. A one-line DomainError if it did not."""
    address = address.strip().lower()
    found = [r for r in current(service.store, game_id) if r["address"] == address]
    if not found:
        raise DomainError(_("{address} does not observe {game}").format(address=address, game=game_id))
    observer = found[0]["observer"]
    service.store.conn.execute("update club_observers set until = ? where game_id = ? and observer = ?",
                               [service.store.now(), game_id, observer])
    if service.store.game_row(game_id) is not None:
        game = service.load(game_id)
        if observer in game.club.observers:
            log.append(service, game, [NewEvent("ObserverRemoved", {"observer": observer, "by": by})])
    return observer


def observed_by(store: Any, address: str) -> list[str]:
    """The games ``address`` observes now."""
    rows = store.conn.execute("select game_id from club_observers where address = ? and until is null "
                              "order by game_id", [address.strip().lower()]).fetchall()
    return [r[0] for r in rows]


def turn_copies(service: Any, game: Any, reports: list[Any], cause_seq: int) -> None:
    """A copy of the turn's public report for each observer (inside the turn's transaction)."""
    public = next((m for m in reports if m.kind == "report-public"), None)
    if public is None or not game.club.observers:
        return
    from pbem.mailout.mailbase import Outgoing
    from pbem.mailout.notify import queue

    for row in current(service.store, game.game_id):
        msg = copy.deepcopy(public.message)  # the public report: made from the @public view only
        msg.replace_header("To", row["address"])
        msg.replace_header("Message-ID", str(public.message["Message-ID"]).replace(".public@", f".public.{row['observer']}@"))
        msg.replace_header("Subject", f"{public.subject} (you observe this game)")
        queue(service.store, game, Outgoing(row["address"], str(msg["Subject"]), msg, "report-observer"),
              cause_seq=cause_seq)


def final(service: Any, game: Any, intro: list[str], rendered: Any, cause_seq: int) -> None:
    """The final mail of each observer: how the game ended, the final public report (when the
    players ended it) and the game's record."""
    from pbem.mailout.notify import queue
    from pbem.mailout.turnmail import compose

    rows = current(service.store, game.game_id)
    if not rows:
        return
    record = service.game_record(game)  # the archives' record, through the loop above the club
    for row in rows:
        out = compose(game, row["address"], f"[{game.game_id}] the game is over: its record", service.sender,
                      "final-observer", [*intro, "", "The game's record (every turn, the seed to check each draw):",
                                         "", record], rendered)
        queue(service.store, game, out, cause_seq=cause_seq)


def after_turn(service: Any, game: Any, payload: dict[str, Any], reports: list[Any], cause_seq: int) -> None:
    """After an adjudication: the observers' copies of the public report, and at the game's
    end their record."""
    if not game.club.observers:
        return
    turn_copies(service, game, reports, cause_seq)
    if payload.get("over"):
        winner = payload.get("winner")
        final(service, game, [f"Game {game.game_id} is over. Winner: {winner or 'none'}."], None, cause_seq)


def notice(service: Any, game_id: str, to: str, lines: list[str]) -> None:
    """A short notice to an observer's address (outside any game thread when not started)."""
    game = service.load(game_id) if service.store.game_row(game_id) is not None else None
    mailing.queue(service, game, mailing.text_mail(game, to, f"observing {game_id}", lines, service.sender,
                                                    "observer"))
