"""What every part of processing one inbound mail shares (:mod:`pbem.loop.ingest`): the
outcomes, the limits a mail is held to, and the small helpers that read blocks, lines and
dates for the parts that authenticate, record and reply."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from email.utils import parseaddr
from functools import lru_cache
from collections.abc import Iterator
from itertools import islice
from typing import Any

from pbem.loop.lazylog import LazyLogger
from pbem.store.events import Game
from pbem.mailin.parse import ParsedMail, RawMail, parse_headers, parse_mail
from pbem.mailout.replies import BlockResult
from pbem.loop.service import submitted_and_awaiting
from turns.base import LineProblem
from turns.envelope import Block, EnvelopeResult

log = LazyLogger("pbem.ingest")

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


@functools.cache
def _order_ref() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(r"\b(by|than|as|with|and) order (\d+)\b")


def _with_line_refs(problems: list[LineProblem], lines: list[int]) -> list[LineProblem]:
    """Problems whose message names another order by its index ("already used by order 1")
    made to name the line of the player's mail instead ("already used by line 7")."""
    def ref(match: re.Match[str]) -> str:
        n = int(match.group(2))
        return f"{match.group(1)} line {lines[n - 1]}" if 0 < n <= len(lines) else match.group(0)

    return [replace(p, message=_order_ref().sub(ref, p.message)) for p in problems]


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
