"""Reading mail into the games: each mail of a batch kept once (Message-ID and body hash),
its envelope read, its blocks handed to the parts that authenticate, record and reply, all in
the transaction of its batch; a mail that fails is kept with its error and stops nothing."""

from __future__ import annotations


from collections import OrderedDict
from collections.abc import Iterable

from pbem.mailin import bounce
from pbem.loop import lockout
from pbem.store.auth import check_password
from pbem.errors import DomainError
from pbem.store.events import Game
from pbem.mailin.parse import ParsedMail, RawMail
from pbem.mailin.senders import Registry
from pbem.loop.service import Service
from pbem.store.db import StoreBusy
from turns.envelope import EnvelopeResult, parse_blocks
from pbem.loop.inbound import (log, MAX_BLOCKS, COPIES, UNKNOWN_SENDER, Outcome, _batch, _overflow, _parse,
                               _safe_key, _address, _count, _note, _classify)



class Intake:
    """Reading a mailbox, one mail at a time (a part of :class:`~pbem.loop.ingest.Ingestor`)."""

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
        #: The seat names of each game a block named (fixed when a game is created), read once a run.
        self._seat_names: dict[str, list[str]] = {}
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

    def _retry(self, key: str) -> bool:
        """True when ``key`` was kept but its processing failed earlier (so it runs again),
        or was rejected (or ignored as from an unknown sender) and :attr:`retry_rejected` is set
        (nothing of it was recorded)."""
        row = self.store.conn.execute("select status, note from mails where key = ?", [key]).fetchone()
        return bool(row) and (row[0] == "error" or (self.retry_rejected and (
            row[0] == "rejected" or (row[0] == "ignored" and str(row[1] or "").startswith(UNKNOWN_SENDER)))))
