"""``pbem tick``: one run of the turn loop, for cron.

In order: ingest the given mailboxes (only mail not seen before is listed), send due
reminders, adjudicate every game whose orders are all in or whose deadline has passed
(the missed-orders default for seats without orders), then deliver the outbox. Each thing
done is one :class:`Done` line; a run that did nothing prints nothing.

Adjudication is keyed by the turn this run looked at (see
:meth:`pbem.loop.service.Service.adjudicate`): two overlapping runs never resolve a turn that
one of them did not see, and a deadline forces only the turn it belongs to.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pbem.loop import deadlines
from pbem.errors import DomainError
from pbem.loop.service import Service

if TYPE_CHECKING:
    from pbem.mailout.config import Config

log = logging.getLogger("pbem.tick")


@dataclass
class Done:
    """One thing a tick did: what (``ingest``, ``remind``, ``adjudicate``, ``send``...), the
    game, a one-line text, and whether it failed."""

    what: str
    text: str
    game: str | None = None
    failed: bool = False
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"what": self.what, "game": self.game, "text": self.text, "failed": self.failed, **self.data}


def ingest_paths(service: Service, paths: Sequence[str]) -> list[Done]:
    """Ingest every mail of ``paths``; one line per mail not ingested before."""
    from pbem.loop.ingest import Ingestor
    from pbem.mailin.parse import read_sources

    ingestor = Ingestor(service)
    out = []
    for outcome in ingestor.ingest_all(read_sources(tuple(paths), None)):
        if outcome.outcome == "duplicate":
            continue
        out.append(Done("ingest", outcome.line(), failed=outcome.outcome == "error",
                        data={"outcome": outcome.outcome}))
    return out


def _load(service: Service, game_id: str, out: list[Done]) -> Any:
    """``game_id`` loaded, or None with a FAILED line in ``out`` (one broken game must never
    stop the others)."""
    try:
        return service.load(game_id)
    except Exception as exc:  # noqa: BLE001 - one broken game must not stop the others
        problem = getattr(exc, "message", None) or str(exc) or type(exc).__name__
        out.append(Done("load", f"FAILED {game_id}: cannot be loaded: {problem}", game_id, True))
        return None


def refresh_stale(service: Service) -> list[Done]:
    """Derive the due index again of every game whose index is not at its log's last event
    (:func:`pbem.store.projection.refresh_stale`): the index is never read stale. A game that cannot
    be loaded is named (one FAILED line)."""
    from pbem.store import projection

    return [Done("load", f"FAILED {game_id}: cannot be loaded: {problem}", game_id, True)
            for game_id, problem in projection.refresh_stale(service)]


def send_reminders(service: Service, now: datetime) -> list[Done]:
    """Remind the awaited seats of every game whose deadline is near (once per seat and turn);
    the games come from the due index (:mod:`pbem.store.projection`), not from loading every game."""
    from pbem.store import projection

    out: list[Done] = []
    for game_id in projection.remind_games(service.store, deadlines.utc_text(now)):
        with service.store.transaction():
            game = _load(service, game_id, out)
            if game is None or game.pending is None or game.deadline is None:
                continue
            due, remind = deadlines.instant(game.deadline), deadlines.remind_at(game)
            if remind is not None and remind <= now < due:
                from pbem.mailout import notify

                for seat in service.awaited(game):
                    msgid, mail = deadlines.reminder(game, seat, service.sender)
                    if service.store.conn.execute("select 1 from outbox where message_id = ?", [msgid]).fetchone():
                        continue
                    notify.queue(service.store, game, mail, cause_seq=game.last_seq)
                    out.append(Done("remind", f"reminded {game_id} {seat} (turn {game.pending.turn})", game_id))
            projection.refresh_index(service.store, game)
    return out


def adjudicate_due(service: Service, now: datetime) -> list[Done]:
    """Adjudicate every game whose pending turn is ready or past its deadline (from the due
    index: a game with nothing due is not loaded)."""
    from pbem.store import projection

    out: list[Done] = []
    for game_id in projection.due_games(service.store, deadlines.utc_text(now)):
        game = _load(service, game_id, out)
        if game is None:
            continue
        pending = game.pending
        if pending is None:
            continue
        due = deadlines.is_due(game.deadline, now)
        if not (due or service.ready(game)):
            continue
        try:
            done = service.adjudicate(game_id, force=due, force_turn=pending.turn, now=now)
        except DomainError as exc:
            out.append(Done("adjudicate", f"FAILED {game_id} {pending.turn}: {exc.message}", game_id, True))
            continue
        except Exception as exc:  # noqa: BLE001 - one broken game must not stop the others
            log.exception("tick: adjudicating %s failed", game_id)
            out.append(Done("adjudicate", f"FAILED {game_id} {pending.turn}: internal error "
                            f"{type(exc).__name__}: {exc}", game_id, True))
            continue
        for payload in done:
            missed = f" (missed orders: {', '.join(payload['defaulted'])})" if payload["defaulted"] else ""
            over = f"; game over, winner {payload['winner'] or 'none'}" if payload["over"] else ""
            out.append(Done("adjudicate", f"adjudicated {game_id} {payload['turn']}{missed}{over}", game_id,
                            data={"turn": payload["turn"], "defaulted": payload["defaulted"]}))
    return out


def deliver(service: Service, transport: Any) -> list[Done]:
    """Send the outbox through ``transport``; one line per message that failed, one in all."""
    from pbem.mailout.deliver import send_outbox

    results = send_outbox(service.store, transport)
    out = [Done("send", f"FAILED to send {r.id} to {r.to}: {r.error}", failed=True) for r in results if not r.ok]
    sent = sum(r.ok for r in results)
    if sent:
        out.append(Done("send", f"sent {sent} message(s)", data={"sent": sent}))
    return out


def tick(service: Service, paths: Sequence[str] = (), transport: Any = None,
         make_transport: Callable[[], Any] | None = None) -> list[Done]:
    """One run of the loop at the store clock's time; every thing done, in order.
    ``make_transport``: makes the transport when there is mail to send (a run with nothing
    to send connects to no server and imports none of the mail machinery)."""
    done = refresh_stale(service)  # first: ingest finds seats by address in the index; a broken game is named once
    done += ingest_paths(service, paths) if paths else []
    now = service.store.clock()
    from pbem.club.hooks import tick as club_tick

    done += [Done("club", text, game) for game, text in club_tick(service, now)]  # bots, absences
    done += [d for d in send_reminders(service, now) if d.what != "load"]
    done += [d for d in adjudicate_due(service, now) if d.what != "load"]
    if transport is None and make_transport is not None:
        from pbem.mailout.outqueue import any_due

        transport = make_transport() if any_due(service.store) else None
    if transport is not None:
        done += deliver(service, transport)
    return done


def transport_maker(config: Config, smtp: str | None = None, smtps: str | None = None, starttls: bool = False,
                    maildir: str | None = None) -> Callable[[], Any] | None:
    """How a run makes its transport once there is mail to send: into ``maildir`` (a folder
    that cannot be written is refused now, before anything is done), else through the SMTP
    server of the command line, ``PBEM_SMTP_HOST`` or pbem.toml; None when no server is set
    (the mail stays queued). Nothing of the mail machinery is imported until it is made."""
    import os

    if maildir:
        from pbem.outfiles import out_dir

        out_dir(maildir)

        def into_maildir() -> Any:
            from pbem.mailout.deliver import MaildirTransport

            return MaildirTransport(maildir)
        return into_maildir
    if smtp or smtps or os.environ.get("PBEM_SMTP_HOST") or config.value("smtp", "host", "PBEM_SMTP_HOST"):
        def over_smtp() -> Any:
            from pbem.mailout.deliver import transport_for

            return transport_for(config, smtp=smtp, smtps=smtps, starttls=starttls)  # else from pbem.toml
        return over_smtp
    return None


def ingest_mailbox(service: Service, config: Config) -> list[Done]:
    """Ingest the configured IMAP mailbox ([mailbox] url / ``PBEM_IMAP_URL``); one line per new mail."""
    if not config.value("mailbox", "url", "PBEM_IMAP_URL"):
        return []  # no mailbox: the mail machinery is not even imported (a cron run starts fast)
    from pbem.loop.ingest import Ingestor
    from pbem.mailin.imap import ingest_configured

    outcomes = ingest_configured(Ingestor(service), config)
    return [Done("ingest", o.line(), failed=o.outcome == "error", data={"outcome": o.outcome})
            for o in outcomes if o.outcome != "duplicate"]


def tick_configured(service: Service, config: Config, paths: Sequence[str] = (),
                    make_transport: Callable[[], Any] | None = None) -> list[Done]:
    """``pbem tick``: the mailbox of ``config`` when no ``paths`` are given, then one run of the
    loop (:func:`tick`); every thing done, in order."""
    done = [] if paths else ingest_mailbox(service, config)
    return done + tick(service, paths, make_transport=make_transport)
