"""Replying to a mail: the one reply every order mail gets, how often a stranger or a refused
mail is answered, and what the reply says of the turn and of earlier mails."""

from __future__ import annotations


from datetime import datetime

from pbem.mailin import guard, maillimits
from pbem.loop import lockout
from pbem.mailout import notify, replies
from pbem.store.events import Game
from pbem.mailin.parse import ParsedMail
from turns.envelope import EnvelopeResult, looks_like_password
from pbem.loop.inbound import (log, UNKNOWN_SENDER, SEAT_LOCKED, NO_BLOCK_REPLIES, UNAUTHENTICATED_REPLIES,
                               REFUSED_REPLIES, Outcome)



class Replying:
    """The reply to a mail (a part of :class:`~pbem.loop.ingest.Ingestor`)."""

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
                from pbem.mailin.language import mail_language
                from reports.i18n import speaking

                with speaking(mail_language(mail.raw, mail.subject, mail.text)):  # no seat is proven
                    out = replies.unauthenticated_message(mail, self.service.sender)
                result.outbox_id = notify.queue(self.store, None, out)
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
        (in the mail's language, :mod:`pbem.mailin.language`) when the address is a seat's (a few
        times a day), else nobody is (no backscatter)."""
        note = f"refused unread: {mail.refused}"
        answer = not mail.ignore and not mail.autoreply and self.senders.knows(mail.sender)
        outbox_id = None
        if answer and self._may_answer(mail, "refused", REFUSED_REPLIES):
            from pbem.mailin.language import mail_language
            from reports.i18n import speaking

            with speaking(mail_language(mail.raw, mail.subject)):  # unread: its headers and subject tell
                out = replies.refused_message(mail, maillimits.refusal_text(mail.refused), self.service.sender)
            outbox_id = notify.queue(self.store, None, out)
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
