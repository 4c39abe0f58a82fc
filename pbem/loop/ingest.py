"""Processing one inbound mail: keep, dedupe, read the envelope, authenticate, validate,
record, reply.

For every mail, in ONE transaction (a savepoint of the transaction of its batch, see
:meth:`Ingestor.ingest_all`): the raw bytes are kept (keyed by Message-ID + body
hash, so the same mail twice is a no-op), each ``GAME`` block is authenticated and its
orders checked against the game's current state, accepted blocks are recorded as
``OrdersSubmitted`` events, and the one reply is put in the outbox. Mail that must not be
answered (auto-replies, bulk mail, our own mail, bounces) is kept and marked ``ignored``.

A source item without mail headers is an order text typed by the GM: trusted, the
password may be omitted, and the reply is returned to be printed instead of mailed.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from email.utils import parseaddr
from functools import lru_cache
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from pbem.mailin import bounce, guard, maillimits
from pbem.loop import lockout, passwords
from pbem.mailout import notify, planmail, replies
from pbem.store.auth import check_password
from pbem.errors import DomainError
from pbem.store.events import Game
from pbem.mailout.languages import seat_language
from pbem.mailin.parse import ParsedMail, RawMail, parse_headers, parse_mail
from pbem.mailout.replies import BlockResult
from pbem.mailin.senders import Registry
from pbem.loop.service import Service, submitted_and_awaiting
from pbem.store.db import StoreBusy
from reports.i18n import _
from turns.base import LineProblem, PlanChecker, check_orders, format_orders, grammar_for, plan_checker_for
from turns.envelope import Block, EnvelopeResult, looks_like_password, parse_blocks, shown_word
from turns.warnings import order_warnings

log = logging.getLogger("pbem.ingest")

OUTCOMES = ("accepted", "partial", "rejected", "ignored", "refused", "duplicate", "error", "command")
#: The most GAME blocks read in one mail; the blocks after them are refused unread, so that
#: one mail cannot make the service check a thousand passwords.
MAX_BLOCKS = 10
#: The most games an :class:`Ingestor` keeps its own copies of (see ``Ingestor._copies``).
COPIES = 64
#: Mails ingested in one transaction by :meth:`Ingestor.ingest_all` (each in a savepoint).
BATCH = 50
#: The note of a mail from an address no game knows (read again by ``--retry-rejected``).
UNKNOWN_SENDER = "unknown sender"
#: Why a block for a locked seat was refused (for the GM; :mod:`pbem.loop.lockout`).
SEAT_LOCKED = "seat locked"
#: Replies to one address in :data:`pbem.mailin.guard.WINDOW` to mails that proved nothing: without a
#: GAME block, or with GAME blocks none of which was authenticated. The rest are kept, not
#: answered (an autoresponder, or someone forging a player's address, gets no endless replies).
NO_BLOCK_REPLIES = 3
UNAUTHENTICATED_REPLIES = 5
#: Replies to one address in the window to mails refused over a size limit (pbem.mailin.maillimits).
REFUSED_REPLIES = 3
#: Raw bytes of the mails parsed and held at once (a batch ends early when they exceed it).
BATCH_BYTES = 8 * 1024 * 1024


@dataclass
class Outcome:
    """What ingest did with one mail (printed by ``pbem ingest``; never holds a password)."""

    key: str
    origin: str
    sender: str | None
    outcome: str
    blocks: list[BlockResult] = field(default_factory=list)
    problems: int = 0
    note: str = ""
    reply: str | None = None
    outbox_id: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"key": self.key, "origin": self.origin, "sender": self.sender or "GM",
                "outcome": self.outcome, "blocks": [b.as_dict() for b in self.blocks],
                "problems": self.problems, "note": self.note, "reply": self.reply,
                "outbox_id": self.outbox_id}

    def line(self) -> str:
        """One line for the GM's terminal."""
        seats = ", ".join(f"{b.game}/{b.seat}:{'ok' if b.accepted else 'rejected'}"
                          for b in self.blocks if not b.auth_failed and b.game)
        seats += ", more blocks refused" if any(not b.game and b.reason for b in self.blocks) else ""
        seats = seats.lstrip(", ")
        hidden = [b.auth_reason or "not authenticated" for b in self.blocks if b.auth_failed]
        seats += (", " if seats and hidden else "") + (f"{len(hidden)} unauthenticated block(s): "
                                                        f"{', '.join(sorted(set(hidden)))}" if hidden else "")
        extra = f" [{seats}]" if seats else ""
        shown = self.outcome in ("ignored", "refused", "error", "duplicate", "command") or self.note.startswith("still ") \
            or "new password" in self.note or "not answered" in self.note
        note = f" ({self.note})" if self.note and shown else ""
        return (f"{self.outcome:9} {self.sender or 'GM'} {self.key}{extra}"
                f"{f' {self.problems} problem(s)' if self.problems else ''}{note}")


class Ingestor:
    """Ingests mails into the games of one :class:`pbem.loop.service.Service`."""

    def __init__(self, service: Service, retry_rejected: bool = False) -> None:
        self.service = service
        self.store = service.store
        #: Process again mails that were rejected before (e.g. after ``pbem seat --allow``).
        self.retry_rejected = retry_rejected
        #: Our own copy of each game the mails were checked against, and the hash of the
        #: last event it holds: the next mail for that game uses it (no new copy of the
        #: state, no replay) while the game's log ends with that event (see :meth:`_copy`).
        #: Ingest only reads a copy, but for the orders it records (``Service.submit``).
        #: At most :data:`COPIES` games, the most recently used last: a mailbox for thousands
        #: of games keeps its memory flat (a game not kept is loaded from its head again).
        self._copies: OrderedDict[str, Game] = OrderedDict()
        self._heads: dict[str, str] = {}
        #: The addresses the games know (read once a run): mail from any other is not answered.
        self.senders = Registry(self.store)
        #: The seats of the mail being processed that had a wrong password in one of its blocks.
        self._guessed: set[tuple[str, str]] = set()
        #: The order lines of the mail being processed read so far (see pbem.mailin.maillimits).
        self._lines = 0

    def ingest_all(self, items: Iterable[RawMail]) -> list[Outcome]:
        """Ingest ``items`` in order as one group commit (:meth:`pbem.store.db.Store.group_commit`):
        when this returns, every mail is durably recorded, so the caller may flag, move or
        acknowledge them.

        The mails go in batches of :data:`BATCH`: each batch is parsed and its passwords
        hashed first, then ingested in ONE transaction, each mail in a savepoint of its own (a
        mail that fails is undone alone and kept as ``error``, as :meth:`ingest` does). A commit
        costs more than checking a mail; a crash undoes at most the batch being ingested, whose
        mails are still in the mailbox (nothing of them was acknowledged or sent)."""
        out: list[Outcome] = []
        pending = iter(items)
        with self.store.group_commit():
            while batch := _batch(pending):
                mails = [_parse(item.raw, trusted=not item.mailbox) for item in batch]
                for mail in mails:  # scrypt before the write lock is taken (see _prehash)
                    try:
                        self._prehash(mail)
                    except Exception:  # noqa: BLE001 - met again, and reported, in ingest()
                        log.debug("pre-hash failure", exc_info=True)
                with self.store.transaction():
                    for item, mail in zip(batch, mails):
                        out.append(self.ingest(item, mail))
                        if not self.store.conn.in_transaction:  # SQLite ended it (disk full, I/O error)
                            raise DomainError("the database ended the transaction of a batch of mails; "
                                              "nothing was acknowledged: fix the cause and run ingest again")
        return out

    def ingest(self, item: RawMail, mail: ParsedMail | None = None) -> Outcome:
        """Process one mail (``mail``: its bytes parsed already); never raises. Whatever goes
        wrong, the raw bytes are kept and the mail gets exactly one outcome (``error`` when
        processing failed), so that one malformed or hostile mail can never stop the mails
        after it. Inside a transaction (:meth:`ingest_all`) the mail gets a savepoint."""
        mail = mail if mail is not None else _parse(item.raw, trusted=not item.mailbox)
        try:
            self._prehash(mail)
            with self.store.transaction():
                return self._process(mail, item.origin)
        except StoreBusy:  # the lock wait timed out: nothing was kept, the next run reads it again
            raise
        except Exception as exc:  # noqa: BLE001 - keep the mail, report, go on with the next
            log.warning("ingest of %s failed: %s", _safe_key(mail), type(exc).__name__)
            log.debug("ingest failure", exc_info=True)
            return self._failed(mail, item.origin, f"internal error: {type(exc).__name__}")

    def _failed(self, mail: ParsedMail, origin: str, note: str) -> Outcome:
        """Keep a mail whose processing failed, with status ``error``: under its own key if
        that can be stored, else under a key made of the hash of its bytes only."""
        for key, message_id, sender in ((mail.key, mail.message_id, mail.sender),
                                        (_safe_key(mail), None, None)):
            try:
                with self.store.transaction():
                    self.store.put_mail(key, mail.raw, message_id, sender)
                    self.store.set_mail_status(key, "error", note)
                return Outcome(key, origin, sender, "error", note=note)
            except Exception as exc:  # noqa: BLE001 - try the plainer key, then give up
                log.warning("could not keep the failed mail %s: %s", _safe_key(mail), type(exc).__name__)
        return Outcome(_safe_key(mail), origin, None, "error", note=note + "; the mail could not be kept")

    def _prehash(self, mail: ParsedMail) -> None:
        """Check the passwords of the mail's first :data:`MAX_BLOCKS` blocks before the write
        transaction opens: scrypt is slow on purpose, and its result is cached in memory
        (:func:`pbem.store.auth.check_password`), so the check inside the transaction is quick and
        nobody holds the write lock while passwords are hashed."""
        if not mail.is_mail or mail.ignore:
            return
        mine = self.senders.seats_of(mail.sender)  # a block from any other address is not checked
        seen: set[tuple[str, str]] = set()
        for block in self._envelope(mail).blocks[:MAX_BLOCKS] if mine else []:
            if not (block.game and block.seat and block.password) or block.problems:
                continue
            block = self._resolve_case(block)
            if (block.game, block.seat) not in mine or (block.game, block.seat) in seen \
                    or lockout.locked_since(self.store, block.game, block.seat):
                continue  # one password per seat and mail (see _authenticate); none for a locked seat
            seen.add((block.game, block.seat))
            copy = self._copies.get(block.game)  # its credentials, unless they changed since
            credential = copy.seats.get(block.seat) if copy is not None else \
                self.store.secrets(block.game)[1].get(block.seat)
            if credential:
                check_password(block.password, credential["salt"], credential["password_hash"])

    def _copy(self, game_id: str) -> Game | None:
        """This ingest's own copy of ``game_id`` when no event was recorded after it (then
        it is taken out of :attr:`_copies`: the caller gives it back by :meth:`_keep`), else
        None (the caller loads the game)."""
        copy = self._copies.pop(game_id, None)
        if copy is not None and self.store.log_head(game_id) == (copy.last_seq, self._heads.get(game_id)):
            return copy
        return None

    def _keep(self, games: list[Game]) -> None:
        """Keep the games a mail was checked against as this ingest's own copies, each only
        when it holds every event of its game's log (it was loaded at the log's head, or
        advanced by the events recorded for this mail); :meth:`_copy` checks that the log
        has not moved on before using one."""
        for game in games:
            head = self.store.log_head(game.game_id)
            if head[0] == game.last_seq:
                self._copies[game.game_id], self._heads[game.game_id] = game, head[1]
                self._copies.move_to_end(game.game_id)
        while len(self._copies) > COPIES:
            gone, _ = self._copies.popitem(last=False)
            self._heads.pop(gone, None)

    def _envelope(self, mail: ParsedMail) -> EnvelopeResult:
        """The GAME blocks of ``mail``, read once per mail (the pre-hash and the
        processing both need them)."""
        if mail.envelope is None:
            mail.envelope = parse_blocks(mail.text)
        return mail.envelope

    # -- one mail ---------------------------------------------------------------------
    def _process(self, mail: ParsedMail, origin: str) -> Outcome:
        key = mail.key
        earlier = self._earlier_status(key)
        if not self.store.put_mail(key, mail.raw, mail.message_id, mail.sender) and not self._retry(key):
            log.info("%s: duplicate, already ingested", key)
            return Outcome(key, origin, mail.sender, "duplicate", note=self._status_note(key))
        if mail.is_mail and not mail.ignore and mail.sender == _address(self.service.sender):
            mail.ignore = "sent from our own address (a loop)"
        if mail.is_mail and mail.refused:  # over a size limit: kept unread (pbem.mailin.maillimits)
            return self._refused(mail, origin)
        if mail.is_mail and not mail.ignore and mail.autoreply and not self._envelope(mail).blocks:
            mail.ignore = mail.autoreply  # never answered: no reply loop with an autoresponder
        if mail.is_mail and mail.ignore:
            about = bounce.note(self.store, mail.raw, mail.sender, mail.ignore, key)  # the seat it concerns
            note = f"{mail.ignore}: {about}" if about else mail.ignore
            self.store.set_mail_status(key, "ignored", note)
            log.info("%s from %s: ignored (%s)", key, mail.sender, note)
            return Outcome(key, origin, mail.sender, "ignored", note=note)
        envelope = self._envelope(mail)
        if mail.is_mail and not envelope.blocks:  # STANDBY, LIST, JOIN, OBSERVE, STATS...: from any address,
            from pbem.club import mail as club_mail  # rate-limited per address (pbem.club.limits)

            club = club_mail.handle(self.service, mail)
            if club is not None:
                self.store.set_mail_status(key, *club)
                return Outcome(key, origin, mail.sender, club[0], note=club[1])
        if mail.is_mail and not self.senders.knows(mail.sender):  # no reply, no password hashed: no backscatter
            note = (f"{UNKNOWN_SENDER}: its {len(envelope.blocks)} GAME block(s) not read and not answered "
                    "(no backscatter)" if envelope.blocks else
                    f"{UNKNOWN_SENDER} and no GAME block: not answered (no backscatter)")
            self.store.set_mail_status(key, "ignored", note)
            log.info("%s from %s: ignored (%s)", key, mail.sender, note)
            return Outcome(key, origin, mail.sender, "ignored", note=note)
        self._guessed, self._lines = set(), 0
        if mail.is_mail and not envelope.blocks:  # mail commands; strangers get no reply (pbem.loop.mailcmd)
            from pbem.loop import mailcmd

            handled = mailcmd.handle(self.service, mail)
            if handled is not None:
                self.store.set_mail_status(key, *handled)
                return Outcome(key, origin, mail.sender, handled[0], note=handled[1])
        games: list[Game] = []
        results = [self._block(mail, block, f"{key}#{n}", games)
                   for n, block in enumerate(envelope.blocks[:MAX_BLOCKS], 1)]
        if len(envelope.blocks) > MAX_BLOCKS:
            results.append(_overflow(envelope.blocks))
        result = Outcome(key, origin, mail.sender, _classify(results), results, _count(results, envelope),
                         note=_note(results))
        if earlier == "rejected" and result.outcome == "rejected":  # a retry that changed nothing
            result.note = "still rejected; not answered again"
            self.store.set_mail_status(key, result.outcome, result.note)
            return result
        self._answer(mail, envelope, games, result)
        self.store.set_mail_status(key, result.outcome, result.note)
        self._keep(games)
        log.info("%s from %s: %s (%s)", key, mail.sender or "GM", result.outcome, result.note)
        return result

    def _answer(self, mail: ParsedMail, envelope: EnvelopeResult, games: list[Game], result: Outcome) -> None:
        """Queue the one reply to a mail, or keep it on ``result`` to print (GM's text)."""
        secrets = [secret for b in envelope.blocks for secret in b.secrets] if mail.is_mail else \
            [w for b in envelope.blocks for w in (b.password, b.game, b.seat) if w == b.password or looks_like_password(w)]
        if mail.is_mail and not any(b.authenticated for b in result.blocks):
            # anyone can forge a From: the reply to a mail that proved nothing is short and
            # the same whatever was wrong, and echoes nothing of what was sent
            locked = next((b for b in result.blocks if b.auth_reason == SEAT_LOCKED), None)
            if locked is not None:  # the registered address: told of the lock, a few times a day
                game = self.service.load(locked.game)
                if lockout.refused(self.service, game, locked.seat, mail.sender, mail.key):
                    result.outbox_id = notify.queue(self.store, game, lockout.notice(self.service, game, locked.seat))
                else:
                    result.note += "; not answered (lock notices: limit)"
                return
            what = "not authenticated" if result.blocks else "no GAME block"
            if self._may_answer(mail, what, UNAUTHENTICATED_REPLIES if result.blocks else NO_BLOCK_REPLIES):
                result.outbox_id = notify.queue(self.store, None,
                                                replies.unauthenticated_message(mail, self.service.sender))
            else:
                result.note += "; not answered (replies to mails that proved nothing: limit)"
            return
        if mail.is_mail:
            from reports.i18n import speaking

            # in the language of the mail's first proven seat (each block's own texts are in its seat's)
            with speaking(next((b.language for b in result.blocks if b.language), None)):
                body = replies.reply_body(result.blocks, envelope.problems, mail.html_only)
                out = replies.reply_message(mail, body, self.service.sender, None, secrets)
            result.outbox_id = notify.queue(self.store, games[0] if games else None, out)
        else:
            body = replies.reply_body(result.blocks, envelope.problems, mail.html_only, for_gm=True)
            result.reply = replies.scrub(body, secrets)

    def _may_answer(self, mail: ParsedMail, what: str, limit: int) -> bool:
        """Whether a mail that proved nothing (``what``: no GAME block, none authenticated,
        refused) may be answered: at most ``limit`` such replies to one address in the window
        (:data:`NO_BLOCK_REPLIES`, :data:`UNAUTHENTICATED_REPLIES`, :data:`REFUSED_REPLIES`);
        each answer and each refusal is noted in the guard log (for the seat the address holds)."""
        store = self.store
        done = guard.count(store, [guard.NO_BLOCK], guard.since(store), address=mail.sender, detail=what)
        game_id, seat = (sorted(self.senders.seats_of(mail.sender)) or [(None, None)])[0]
        guard.note(store, guard.NO_BLOCK if done < limit else guard.SILENCED, game_id, seat, mail.sender, what,
                   mail.key)
        return done < limit

    def _refused(self, mail: ParsedMail, origin: str) -> Outcome:
        """A mail over a size limit: kept as ``refused``, unread; its sender is told which limit
        when the address is a seat's (a few times a day), else nobody is (no backscatter)."""
        note = f"refused unread: {mail.refused}"
        answer = not mail.ignore and not mail.autoreply and self.senders.knows(mail.sender)
        outbox_id = None
        if answer and self._may_answer(mail, "refused", REFUSED_REPLIES):
            outbox_id = notify.queue(self.store, None, replies.refused_message(
                mail, maillimits.refusal_text(mail.refused), self.service.sender))
        else:
            note += "; not answered"
        self.store.set_mail_status(mail.key, "refused", note)
        log.info("%s from %s: refused (%s)", mail.key, mail.sender, note)
        return Outcome(mail.key, origin, mail.sender, "refused", note=note, outbox_id=outbox_id)

    def _turn_began(self, game: Game) -> datetime | None:
        """When the pending turn began: the time the last turn was adjudicated (None in the
        first turn: no earlier turn's orders exist that could be sent again, and a mail
        with a seat's password cannot be older than the game but for a wrong clock)."""
        if not game.turns:
            return None
        row = self.store.conn.execute("select recorded_at from events where game_id = ? and seq = ?",
                                    [game.game_id, game.turns[-1]["seq"]]).fetchone()
        try:
            return datetime.fromisoformat(str(row[0]).replace("Z", "+00:00")) if row else None
        except ValueError:
            return None

    def _earlier_status(self, key: str) -> str | None:
        """What became of ``key`` on an earlier run (None: first time here)."""
        row = self.store.conn.execute("select status from mails where key = ?", [key]).fetchone()
        return row[0] if row else None

    def _status_note(self, key: str) -> str:
        """For a duplicate: what became of the mail the first time."""
        row = self.store.conn.execute("select status, note from mails where key = ?", [key]).fetchone()
        if row and row[0] == "rejected" and key.startswith("gm:"):
            return "rejected before: the same text; correct it and ingest it again"
        if row and row[0] == "rejected":
            return "rejected before; after fixing the cause (e.g. pbem seat --allow), use --retry-rejected"
        if row and row[0] == "ignored" and str(row[1] or "").startswith(UNKNOWN_SENDER):
            return ("ignored before (an address no game knows); if it is a player's, 'pbem seat --allow' it, "
                    "then use --retry-rejected")
        if row and row[0] == "accepted" and key.startswith("gm:"):
            return ("accepted before: the same text; if a rollback set those orders aside, add any line above "
                    "its GAME line (e.g. 'again') and ingest it again")
        return f"{row[0]} before" if row and row[0] else ""

    def _retry(self, key: str) -> bool:
        """True when ``key`` was kept but its processing failed earlier (so it runs again),
        or was rejected (or ignored as from an unknown sender) and :attr:`retry_rejected` is set
        (nothing of it was recorded)."""
        row = self.store.conn.execute("select status, note from mails where key = ?", [key]).fetchone()
        return bool(row) and (row[0] == "error" or (self.retry_rejected and (
            row[0] == "rejected" or (row[0] == "ignored" and str(row[1] or "").startswith(UNKNOWN_SENDER)))))

    # -- one block ------------------------------------------------------------------
    def _block(self, mail: ParsedMail, block: Block, key: str, games: list[Game]) -> BlockResult:
        block = self._resolve_case(block)
        seat = block.shown_seat if mail.is_mail else shown_word(block.seat)
        result = BlockResult(block.shown_game, seat, block.game_line)
        problems = _envelope_problems(block, trusted=not mail.is_mail)
        if problems:
            result.problems = problems
            if _only_missing_end(block, problems):
                self._check_unended(mail, block, result, games)
            return result
        game = self._authenticate(mail, block, result)
        if game is None:
            return result
        games.append(game)
        if not mail.is_mail:  # the GM's own order text: answered in the GM's words
            return self._authenticated(mail, game, block, key, result)
        from reports.i18n import speaking

        with speaking(seat_language(game, block.seat)) as words:  # the seat's language (pbem.languages)
            result.language = words.language
            return self._authenticated(mail, game, block, key, result)

    def _authenticated(self, mail: ParsedMail, game: Game, block: Block, key: str,
                       result: BlockResult) -> BlockResult:
        """The rest of :meth:`_block` for a block whose seat is proven (``game``)."""
        if block.press:  # relayed whatever becomes of the orders (each judged on its own)
            self._press(mail, game, block, key, result)
            if not block.has_orders:
                return result
        if passwords.is_password_block(block.body):  # a new password, proven by the current one
            self._new_password(mail, game, block, result)
            return result
        if digest_word(block.body) is not None:  # the seat's mail preference (docs/order-mail.md)
            self._digest(mail, game, block, key, result)
            return result
        if not self._within_lines(block, result):
            return result
        from pbem.club import mail as club_mail

        club_lines = club_mail.block_lines(block.body)
        if club_lines:  # ABSENT, BACK, DRAW, CONCEDE, RESIGN (pbem.club)
            result.turn = None
            result.accepted, result.command = club_mail.run_block(self.service, mail, game, block.seat, club_lines)
            return result
        if self._standing(mail, game, block, key, result):
            return result
        body = self._turn_line(game, block, result, mail.date, undated=mail.is_mail and mail.date is None)
        if body is None:
            return result
        self._orders(mail, game, block, body, key, result)
        if result.accepted and game.club.disorder.get(block.seat):  # the player is back (pbem.club)
            from pbem.club.absence import returned_by_orders

            if returned_by_orders(self.service, game.game_id, block.seat):
                result.warnings.append("your seat was in civil disorder: you play it again from now on")
        return result

    def _press(self, mail: ParsedMail, game: Game, block: Block, key: str, result: BlockResult) -> None:
        """Relay each PRESS block of an authenticated block; the reply says to
        whom, or why not. A block with only press is accepted when all of it was relayed."""
        from pbem.mailout import press as press_log

        result.press_only = not block.has_orders
        for n, item in enumerate(block.press, 1):
            where = f"PRESS on line {item.line}"
            if not mail.is_mail:
                result.press.append(f"{where}: not relayed: press is sent by a seat's own mail, not typed by the GM")
                result.press_refused += 1
                continue
            item = replace(item, text=replies.mask_passwords(item.text, block.secrets))
            try:
                to, before = press_log.relay(self.store, game, block.seat, item, f"{key}/press{n}",
                                             _source(mail, block), self.service.sender)
            except DomainError as exc:
                result.press.append(f"{where}: NOT relayed: {exc.message}")
                result.press_refused += 1
                continue
            result.press.append(f"{where}: relayed to {', '.join(to)}" + (" (relayed before)" if before else ""))
        if result.press_only:
            result.accepted = not result.press_refused
            result.turn = game.pending.turn if game.pending else None

    def _new_password(self, mail: ParsedMail, game: Game, block: Block, result: BlockResult) -> None:
        """A GAME block whose one line is PASSWORD: its password (just checked) proves the
        seat, so a new one is mailed to the seat's registered address (:mod:`pbem.loop.passwords`)."""
        result.turn = None
        if not mail.is_mail:
            result.reason = (f"a new password is mailed by 'pbem seat {game.game_id} {block.seat} --new-password', "
                             "not by a GM's order text")
            return
        result.accepted, result.password_note = passwords.change(self.service, game, block.seat, "current password",
                                                                 mail.sender, mail.key)

    def _within_lines(self, block: Block, result: BlockResult) -> bool:
        """True when the block's order lines may be read (:data:`pbem.mailin.maillimits.MAX_BLOCK_LINES`,
        and :data:`~pbem.mailin.maillimits.MAX_MAIL_LINES` with the mail's blocks before it); else the
        block is refused unread, the reason on ``result``."""
        lines = maillimits.order_lines(block.body)
        if lines > maillimits.MAX_BLOCK_LINES:
            result.reason = (f"this block has {lines} order lines, more than the {maillimits.MAX_BLOCK_LINES} read "
                             "in one block: none of them was read and nothing was recorded")
        elif self._lines + lines > maillimits.MAX_MAIL_LINES:
            result.reason = (f"this mail has more than {maillimits.MAX_MAIL_LINES} order lines: the block from line "
                             f"{block.game_line} on was not read and nothing of it was recorded; send it in another mail")
        else:
            self._lines += lines
            return True
        return False

    def _digest(self, mail: ParsedMail, game: Game, block: Block, key: str, result: BlockResult) -> None:
        """A GAME block whose one line is ``DIGEST ON`` or ``DIGEST OFF``: the seat's reports
        come as plain text without pictures (ON) or whole again (OFF); recorded as an event."""
        on = digest_word(block.body) == "ON"
        result.turn = None
        try:
            event = self.service.set_digest(game.game_id, block.seat, on, _source(mail, block), key=f"{key}/digest")
        except DomainError as exc:
            result.reason = exc.message
            return
        result.accepted = True
        now = ("your reports now come as plain text without pictures; a block with the one line DIGEST OFF "
               "brings them back" if on else "your reports now come whole again (text, HTML and pictures)")
        result.digest_note = now if event is not None else f"unchanged: {now.split(';')[0]}"

    def _resolve_case(self, block: Block) -> Block:
        """The block with its game id and seat spelt as the game has them, when the player
        wrote them in another case (``Game W1 Red ...`` from a phone that capitalises) and
        exactly one game (and seat) matches. The password is still checked as written."""
        copy = self._copies.get(block.game)
        if copy is not None and block.seat in copy.seats:  # as the game spells them (checked when used)
            return block
        game_id = block.game
        known = bool(game_id) and self.store.game_row(game_id) is not None
        if game_id and not known:
            matches = [g for g in self.store.game_ids() if g.lower() == game_id.lower()]
            game_id, known = (matches[0], True) if len(matches) == 1 else (game_id, False)
        seat = block.seat
        if seat and game_id and known:
            seats = self.service.seat_names(game_id)
            if seat not in seats:
                matches = [s for s in seats if s.lower() == seat.lower()]
                seat = matches[0] if len(matches) == 1 else seat
        if (game_id, seat) == (block.game, block.seat):
            return block
        return replace(block, game=game_id, seat=seat)

    def _check_unended(self, mail: ParsedMail, block: Block, result: BlockResult, games: list[Game]) -> None:
        """A block without END is rejected, but once it is authenticated its order lines are
        checked too, so that the reply shows every problem (typically the signature or
        greeting lines that were read as orders because END was missing)."""
        game = self._authenticate(mail, block, result)
        if game is None:
            return
        games.append(game)
        if not self._within_lines(block, result):
            return
        body = self._turn_line(game, block, result, mail.date, undated=mail.is_mail and mail.date is None)
        try:
            grammar = grammar_for(game.engine.name)
        except KeyError:
            return
        if body is None:
            return
        parsed = check_orders(game.engine, grammar, game.state, block.seat, body, block.first_line)
        if not parsed.problems:
            return
        lines = body.split("\n")
        first_bad = _trailing_text(parsed, lines, block.first_line)
        if first_bad:
            # Nothing from this line on reads as an order: the block ran on into the
            # signature or sign-off. Say where END belongs and check the orders above it.
            cut = first_bad - block.first_line
            parsed = check_orders(game.engine, grammar, game.state, block.seat,
                                  "\n".join(lines[:cut] + [""] * (len(lines) - cut)), block.first_line)
            last = max(parsed.lines, default=0)
            last_text = lines[last - block.first_line].strip() if last else ""
            trailing = lines[cut].strip()
            where = f"line {last + 1}, right after your last order (line {last}: {last_text})" if last else \
                "a line of its own right after your last order"
            result.problems = [LineProblem(
                block.game_line, f"block for game {block.game} opened on line {block.game_line} has no END "
                f"line, so the text below your orders (from line {first_bad}: {trailing!r}) was read as orders "
                f"too; write END on {where}", text=block.header())]
        result.problems += _with_line_refs(parsed.problems, parsed.lines)

    def _standing(self, mail: ParsedMail, game: Game, block: Block, key: str, result: BlockResult) -> bool:
        """A block of standing orders (games that have them, e.g. Havoc): accepted at any
        time, from any seat, and applied when that seat's decisions come up. True if the
        block was one (accepted or rejected), False to go on with ordinary orders."""
        is_standing = getattr(game.engine, "is_standing", None)
        if is_standing is None or game.pending is None:
            return False
        name = game.engine.name
        checker = plan_checker_for(name)
        if checker is not None:  # every block of this game is a plan for the round
            self._plan(mail, game, block, key, result, checker)
            return True
        parsed = grammar_for(name)(block.body, game.state)
        if parsed.problems and _mentions_standing(block.body):
            # a block meant as standing orders with a typo: say what is wrong with it, not
            # that the seat has no decision pending
            result.turn, result.standing = "standing", "standing orders"
            result.problems = [LineProblem(p.line + block.first_line - 1 if p.line else 0, p.message,
                                           p.suggestions, p.stage, p.text) for p in parsed.problems]
            return True
        if parsed.problems or not parsed.orders or not is_standing(parsed.orders):
            return False
        result.turn, result.standing, result.deadline = "standing", "standing orders", game.deadline
        if block.seat not in game.pending.seats:
            result.deadline_of = (f"the decision awaited now ({game.pending.turn}, "
                                  f"from {', '.join(game.pending.seats)})")
        problems = game.engine.validate_standing(game.state, block.seat, parsed.orders)
        if problems:
            result.problems = [_line_problem(p, parsed, block) for p in problems]
            return True
        text = format_orders(name, parsed.orders)
        try:
            self.service.submit_standing(game.game_id, block.seat, parsed.orders, text,
                                         _source(mail, block), key=key)
        except DomainError as exc:
            result.reason = str(exc.message)
            return True
        result.accepted, result.orders_text = True, text
        result.owes = planmail.standing_note(game.engine)
        result.warnings = order_warnings(name, game.state, block.seat, parsed.orders)
        return True

    def _plan(self, mail: ParsedMail, game: Game, block: Block, key: str, result: BlockResult,
              checker: PlanChecker) -> None:
        """A block of a game whose every block is a plan for the round (God's Playground),
        from any seat at any time: an optional TURN line must name the pending decision;
        every problem is listed at once, and the kinds of line without one are recorded
        (:func:`turns.gods_playground_plan.check_plan`)."""
        pending = game.pending
        assert pending is not None
        label, body = planmail.split_turn(block.body)
        result.turn, result.standing, result.deadline = "standing", planmail.label(game), game.deadline
        if block.seat not in pending.seats:
            result.deadline_of = f"the decision awaited now ({pending.turn}, from {', '.join(pending.seats)})"
        if label is not None and label.lower() != pending.turn.lower():
            result.turn = shown_word(label) or None
            result.reason = _turn_state(game, shown_word(label))
            return
        check = checker(game.engine, game.state, block.seat, body, block.first_line)
        result.problems, result.dropped = check.problems, check.dropped
        if not check.orders:
            result.reason = "" if check.problems else _("the block holds no orders")
            return
        text = format_orders(game.engine.name, check.orders)
        try:
            self.service.submit_standing(game.game_id, block.seat, check.orders, text, _source(mail, block), key=key)
        except DomainError as exc:
            result.reason = str(exc.message)
            return
        result.accepted, result.orders_text = True, text
        result.owes = planmail.owes(self.service.load(game.game_id), block.seat)

    def _authenticate(self, mail: ParsedMail, block: Block, result: BlockResult) -> Game | None:
        if mail.is_mail:
            return self._check_seat(mail, block, result)
        copy = self._copy(block.game)
        if copy is None and self.store.game_row(block.game) is None:
            result.reason = f"there is no game {shown_word(block.game)!r}"
            return None
        game = copy or self.service.load(block.game)
        if block.seat not in game.seats:
            result.reason = f"game {block.game} has no seat {shown_word(block.seat)!r} (seats: {', '.join(game.seats)})"
            return None
        result.authenticated = True
        return game

    def _check_seat(self, mail: ParsedMail, block: Block, result: BlockResult) -> Game | None:
        """The game of a mailed block whose sender and password are the seat's (else None, the
        reason on ``result`` for the GM only). A block for a locked seat is refused unread; a
        seat whose password was wrong in an earlier block of this mail is not checked again
        (one guess per seat and mail); a wrong password from the seat's address counts toward
        its lock (:mod:`pbem.loop.lockout`)."""
        pair = (block.game, block.seat)
        why = ""
        if pair in self._guessed:
            why = "not checked: a wrong password for this seat earlier in the mail"
        elif pair in self.senders.seats_of(mail.sender) and lockout.locked_since(self.store, *pair):
            why = SEAT_LOCKED
        if why:
            result.auth_failed, result.auth_reason = True, why
            return None
        copy = self._copy(block.game)
        game, why = self.service.check_credentials(block.game, block.seat, block.password, mail.sender, copy)
        result.auth_failed, result.auth_reason = game is None, why  # why: for the GM, never the reply
        result.authenticated = game is not None
        if game is None and copy is not None:  # untouched: still current
            self._copies[copy.game_id] = copy
        if why == "wrong password":  # from the seat's own address (the sender is checked first)
            self._guessed.add(pair)
            if lockout.wrong_password(self.service, copy or self.service.load(block.game), block.seat,
                                      mail.sender, mail.key):
                result.auth_reason = "wrong password; the seat is now LOCKED"
        return game

    def _turn_line(self, game: Game, block: Block, result: BlockResult,
                   date: datetime | None = None, undated: bool = False) -> str | None:
        """The block body without its optional ``TURN <label>`` line; None if the block
        cannot be for the pending turn (the reason is put on ``result``).

        Orders are bound to their turn, so that an old order mail sent again (with a new
        Message-ID) is never taken for orders of a later turn: a TURN line must name the
        pending turn, and a block without one is refused when the mail is dated before
        the pending turn began, i.e. before the last adjudication, or has no Date
        at all (``undated``: it may be as old as any)."""
        pending = game.pending
        label, body = planmail.split_turn(block.body)
        if pending is None:
            result.reason = _("game {game} is over; no orders are awaited").format(game=game.game_id)
            return None
        result.turn = pending.turn
        result.deadline = game.deadline
        if label is not None and label.lower() != pending.turn.lower():
            result.turn = shown_word(label) or None
            result.reason = _turn_state(game, shown_word(label))
            return None
        began = self._turn_began(game) if label is None and (date is not None or undated) else None
        if began is not None and undated:  # no Date: it may be as old as any
            result.reason = _("this mail has no Date header, so it may be an old mail sent again, and the block has "
                              "no TURN line; if these are your orders for turn {turn}, write 'TURN {turn}' as the "
                              "first line of the block and send it again").format(turn=pending.turn)
            return None
        if began is not None and date is not None and date < began:
            result.reason = _("this mail is dated {date}, before turn {turn} began ({began}), and the block has no "
                              "TURN line, so it may be an old mail sent again; if these are your orders for turn "
                              "{turn}, write 'TURN {turn}' as the first line of the block and send it again").format(
                date=date.isoformat(), turn=pending.turn, began=began.isoformat())
            return None
        if block.seat not in pending.seats:
            result.reason = _("seat {seat} has no decision pending in turn {turn}; you will be mailed when your "
                              "orders are needed").format(seat=block.seat, turn=pending.turn)
            return None
        return body

    def _orders(self, mail: ParsedMail, game: Game, block: Block, body: str, key: str,
                result: BlockResult) -> None:
        name = game.engine.name
        try:
            grammar = grammar_for(name)
        except KeyError:
            result.reason = f"orders for {name} cannot be read by mail in this version"
            return
        parsed = check_orders(game.engine, grammar, game.state, block.seat, body, block.first_line)
        if parsed.problems:
            result.problems = _with_line_refs(parsed.problems, parsed.lines)
            return
        if not parsed.orders:
            result.reason = _("the block holds no orders")
            return
        text = format_orders(name, parsed.orders)
        result.warnings = _date_warnings(game, block.seat, mail.date) + order_warnings(
            name, game.state, block.seat, parsed.orders)  # legal, but doing nothing as things stand
        try:
            submitted = self.service.submit(game.game_id, block.seat, parsed.orders, text, _source(mail, block),
                                            key=key, game=game, validated=True)  # the copy just checked
        except DomainError as exc:
            result.reason = str(exc.message)
            return
        result.accepted, result.orders_text, result.turn = True, text, submitted.turn
        result.owes = _owes(submitted.game or self.service.load(game.game_id), block.seat, submitted.turn)


def _batch(pending: Iterator[RawMail]) -> list[RawMail]:
    """The next mails to ingest together: at most :data:`BATCH`, and no more once their raw
    bytes reach :data:`BATCH_BYTES` (a mailbox is read one mail at a time, never held whole)."""
    batch: list[RawMail] = []
    held = 0
    for item in islice(pending, BATCH):
        batch.append(item)
        held += len(item.raw)
        if held >= BATCH_BYTES:
            break
    return batch


def _overflow(blocks: list[Block]) -> BlockResult:
    """The refusal of the blocks after the first :data:`MAX_BLOCKS` of a mail."""
    first = blocks[MAX_BLOCKS]
    result = BlockResult("", "", first.game_line)
    result.reason = (f"this mail has {len(blocks)} GAME blocks, and at most {MAX_BLOCKS} are read in one "
                     f"mail: the {len(blocks) - MAX_BLOCKS} block(s) from line {first.game_line} on were not read "
                     "and nothing of them was recorded; send them in another mail")
    return result


def digest_word(body: str) -> str | None:
    """``ON`` or ``OFF`` when a GAME block's one line is ``DIGEST ON``/``DIGEST OFF`` (comments
    and blank lines aside), else None."""
    lines = [line.split("#", 1)[0].split() for line in body.split("\n")]
    words = [[w.upper() for w in line] for line in lines if line]
    if len(words) == 1 and len(words[0]) == 2 and words[0][0] == "DIGEST" and words[0][1] in ("ON", "OFF"):
        return words[0][1]
    return None


def _mentions_standing(body: str) -> bool:
    """True when any order line of ``body`` starts with STANDING."""
    return any(line.split("#", 1)[0].strip().upper().startswith("STANDING") for line in body.split("\n"))


def _source(mail: ParsedMail, block: Block) -> dict[str, Any]:
    """Where a block's orders came from (kept in the event; never the password)."""
    return {"kind": "mail" if mail.is_mail else "gm", "message_id": mail.message_id,
            "raw_sha256": mail.raw_sha256, "date": mail.date.isoformat() if mail.date else None,
            "sender": mail.sender, "mail_key": mail.key, "line": block.game_line}


def _line_problem(problem: Any, parsed: Any, block: Block) -> LineProblem:
    """An engine problem about order ``problem.index`` as a problem on the mail's line."""
    if problem.index is None or not 0 <= problem.index < len(parsed.lines):
        return LineProblem(0, problem.message, tuple(problem.suggestions), problem.stage)
    line = parsed.lines[problem.index]
    text = block.body.split("\n")[line - 1] if 0 < line <= len(block.body.split("\n")) else ""
    return LineProblem(line + block.first_line - 1, problem.message, tuple(problem.suggestions), problem.stage, text)


_ORDER_REF = re.compile(r"\b(by|than|as|with|and) order (\d+)\b")


def _with_line_refs(problems: list[LineProblem], lines: list[int]) -> list[LineProblem]:
    """Problems whose message names another order by its index ("already used by order 1")
    made to name the line of the player's mail instead ("already used by line 7")."""
    def ref(match: re.Match[str]) -> str:
        n = int(match.group(2))
        return f"{match.group(1)} line {lines[n - 1]}" if 0 < n <= len(lines) else match.group(0)

    return [replace(p, message=_ORDER_REF.sub(ref, p.message)) for p in problems]


def _trailing_text(parsed: Any, lines: list[str], first_line: int) -> int:
    """The mail line where the text after the orders of a block without END starts: the
    lines from there on are all unreadable as orders (a signature, a sign-off). Prefers a
    start after a blank line, so that a mistyped last order is still reported as such.
    0 when there is no such text."""
    last_ok = max(parsed.lines, default=0)
    bad = sorted({p.line for p in parsed.problems if p.line > last_ok})
    if not bad:
        return 0
    after_blank = [n for n in bad if n - first_line > 0 and not lines[n - first_line - 1].strip()]
    return after_blank[0] if after_blank else bad[0]


def _only_missing_end(block: Block, problems: list[LineProblem]) -> bool:
    """True when the block's one envelope problem is its missing END line."""
    return block.end_line is None and len(problems) == 1 and bool(block.game and block.seat)


def _parse(raw: bytes, trusted: bool) -> ParsedMail:
    """The parsed mail; a mail the parser chokes on (MIME nested 1,000 deep, ...) is kept
    and ignored with the reason, never trusted and never answered."""
    try:
        return parse_mail(raw, trusted)
    except Exception as exc:  # noqa: BLE001
        why = "MIME parts nested too deep" if isinstance(exc, RecursionError) else type(exc).__name__
        log.warning("could not parse a mail (%s)", why)
        log.debug("parse failure", exc_info=True)
        mail = parse_headers(raw)
        mail.ignore = f"the mail could not be parsed: {why}"
        return mail


def _safe_key(mail: ParsedMail) -> str:
    """A store key made only of the hash of the raw bytes (for a mail whose own key failed)."""
    return f"raw:{mail.raw_sha256[:32]}"


@lru_cache(maxsize=64)  # our own sender address, parsed once
def _address(header: str) -> str:
    return (parseaddr(header)[1] or header).strip().lower()


def _envelope_problems(block: Block, trusted: bool) -> list[LineProblem]:
    """The block's envelope problems; a GM's block may leave out the password."""
    if not trusted:
        return list(block.problems)
    return [p for p in block.problems
            if not (p.line == block.game_line and p.message.startswith("the GAME line lacks the password"))]


def _turn_state(game: Game, label: str) -> str:
    from reports.i18n import _

    pending = game.pending
    now = pending.turn if pending else _("nothing")
    done = {str(t["turn"]).lower() for t in game.turns}
    fix = _("; write 'TURN {turn}' (or no TURN line) if these are your orders for turn {turn}").format(
        turn=now) if pending else ""
    if label.lower() in done:
        return _("turn {label} has already been adjudicated; orders are now awaited for turn {turn}{fix}").format(
            label=label, turn=now, fix=fix)
    return _("turn {label} is not the pending turn; orders are now awaited for turn {turn}{fix}").format(
        label=label or "?", turn=now, fix=fix)


def _date_warnings(game: Game, seat: str, date: datetime | None) -> list[str]:
    pending = game.pending
    earlier = game.submitted.get(seat)
    if date is None or pending is None or earlier is None or earlier.get("turn") != pending.turn:
        return []
    before = (earlier.get("source") or {}).get("date")
    if not before or datetime.fromisoformat(before) <= date:
        return []
    return [f"this mail is dated {date.isoformat()}, earlier than the orders accepted before it "
            f"(dated {before}); orders count in the order they arrive, so these older orders now "
            "replace the newer ones. If you meant the newer orders, send them again"]


def _owes(game: Game, seat: str, turn: str) -> str:
    """What ``seat`` still owes after its orders for ``turn`` were recorded in ``game`` (in the
    current language: the seat's)."""
    from reports.i18n import _, ngettext

    pending = game.pending
    awaiting = submitted_and_awaiting(game)[1]
    if pending is not None and pending.turn == turn and seat in awaiting:
        return _("Still awaited from you: orders for turn {turn}.").format(turn=turn)
    others = len(awaiting)
    tail = (ngettext("{n} seat still to send orders", "{n} seats still to send orders", others).format(n=others)
            if others else _("all orders are in"))
    return _("You owe nothing more for turn {turn} ({tail}); you may replace these orders until the deadline.").format(
        turn=turn, tail=tail)


def _count(results: list[BlockResult], envelope: EnvelopeResult) -> int:
    """How many problems the reply lists (a mail without any block counts as one)."""
    if not results:
        return max(1, len(envelope.problems))
    return sum(len(r.problems) + bool(r.reason) + r.auth_failed + r.press_refused for r in results) \
        + len(envelope.problems)


def _note(results: list[BlockResult]) -> str:
    """The mail's status note: game/seat and outcome of each block (no password, no orders)."""
    parts = [f"{'?/?' if r.auth_failed or not r.game else f'{r.game}/{r.seat}'} "
             f"{('accepted in part' if r.problems else 'accepted') if r.accepted else 'rejected'}"
             + (f" (press: {len(r.press) - r.press_refused} of {len(r.press)} relayed)" if r.press else "")
             + ((" (new password mailed)" if r.accepted else " (new password refused: limit)") if r.password_note else "")
             + (f" ({', '.join(line.split(':', 1)[0] for line in r.command)})" if r.command else "")
             for r in results]
    return "; ".join(parts) or "no GAME block"


def _classify(results: list[BlockResult]) -> str:
    if results and all(r.accepted and not r.problems for r in results):
        return "accepted"
    if any(r.accepted for r in results):
        return "partial"
    return "rejected"
