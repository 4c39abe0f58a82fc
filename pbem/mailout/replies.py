"""The reply every order mail gets: one message per mail, one section per GAME block.

Replies follow RFC 3834 (``Auto-Submitted: auto-replied``, ``In-Reply-To`` and
``References`` naming the player's message, ``Subject: Re: ...``) and carry our loop
header (via :func:`pbem.mailout.mailbase.base_headers`), so two robots never talk to each other.

A reply never contains a password: blocks are shown by game, seat and line only, and
:func:`scrub` masks every password of the mail from the finished text as a last guard.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from pbem.store.events import Game
from pbem.mailout.mailbase import WIDTH, TextOutgoing, base_headers, format_deadline
from reports.i18n import N_, _, ngettext
from turns.base import LineProblem

if TYPE_CHECKING:  # mail in sits above mail out: the parsed mail is only named here
    from pbem.mailin.parse import ParsedMail

MASK = "******"
#: What orders sent in advance are called in a reply (:attr:`BlockResult.standing`).
STANDING = N_("standing orders")
_GAME_WORDS = re.compile(r"(?i)(\bGAME\s+\S+\s+\S+\s+)\S+")  # a GAME line in a subject: mask its password
_PASSWORD_WORD = re.compile(r"(?<![\w-])[A-Za-z0-9]{4}(?:-[A-Za-z0-9]{4}){2,}(?![\w-])")  # password-shaped
_RE_PREFIX = re.compile(r"^(?:\s*(?:re|aw|sv|vs|odp|vá|rif)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)
_MSGID = re.compile(r"<[!-;=?-~]{1,120}@[!-;=?-~]{1,120}>")
KIND = "reply"

AUTH_REJECTED = N_("not accepted: the game, seat, password or sender address of this block does not "
                 "match any seat we run, so nothing of it was recorded. Copy the GAME line from your "
                 "welcome mail, and send from the address you registered with.")

HOW_TO = N_("""\
How to send orders: write a plain-text mail (not HTML) from your registered address with

GAME <game-id> <seat> <password>
... your orders, one per line; '#' starts a comment ...
END

Lines quoted with '>' and everything after a signature line ('-- ') are ignored.""")

#: The whole reply to a mail none of whose blocks was authenticated (no block at all, only
#: quoted blocks, a GAME line with a missing field, an unknown game or seat, a wrong
#: password or sender): the same text and subject for every cause, echoing nothing. Its
#: language is the mail's own (:mod:`pbem.mailin.language`), never a seat's.
UNAUTHENTICATED_SUBJECT = N_("Re: your mail to the game master (not recorded)")
UNAUTHENTICATED_CHECKS = N_("""\
No order block of your mail was recorded: none matches a game, seat, password and
sender address we run. Please check that

- the block starts with the GAME line of your welcome mail (game id, seat and password);
- the block ends with END on a line of its own;
- its lines are not quoted ('>' in front) nor below a signature line ('-- ');
- you send plain text from the address you registered with.""")
UNAUTHENTICATED = UNAUTHENTICATED_CHECKS + "\n\n" + HOW_TO + "\n"

#: At most this many problems are listed per block; each line shown is cut to EXCERPT.
MAX_PROBLEMS = 30
EXCERPT = 120
#: The most characters of one problem's explanation (a bound against a mail that makes a
#: message quote a huge word; the game's own explanations are far shorter).
EXPLANATION = 2000

HTML_NOTE = N_("Your mail had no plain-text part, so its HTML was converted to text to read it. "
             "If anything above was misread, set your mail client to send plain text "
             "(in most clients: Format > Plain Text, or 'Plain text' in the compose options).")


@dataclass
class BlockResult:
    """What became of one GAME block of a mail."""

    game: str
    seat: str
    line: int
    accepted: bool = False
    turn: str | None = None
    auth_failed: bool = False
    auth_reason: str = ""  # why authentication failed: shown to the GM (ingest), never in the reply
    problems: list[LineProblem] = field(default_factory=list)
    reason: str = ""
    orders_text: str = ""
    owes: str = ""
    deadline: str | None = None
    warnings: list[str] = field(default_factory=list)
    authenticated: bool = False  # the block's password and sender matched (or a GM's text)
    press: list[str] = field(default_factory=list)  # one line per PRESS block: relayed to whom, or why not
    press_only: bool = False  # the block held press and no orders
    press_refused: int = 0  # how many of its PRESS blocks were not relayed
    standing: str = ""  # orders sent in advance: what they are called ("standing orders", "plan for round 1")
    dropped: list[str] = field(default_factory=list)  # plan kinds left out for a problem (their lines kept as before)
    deadline_of: str = ""  # whose decision ``deadline`` is, when it is not the seat's own
    password_note: str = ""  # a block asking for a new password (pbem.loop.passwords): what became of it
    command: list[str] = field(default_factory=list)  # a block of club lines (pbem.club.mail): one answer each
    digest_note: str = ""  # a DIGEST ON/OFF block (the seat's mail preference): what became of it
    language: str = ""  # the language of the proven seat (its texts above are in it), "" when none

    def as_dict(self) -> dict[str, object]:
        """JSON-ready summary (for ``pbem ingest --json``); no password, no orders."""
        shown = not self.auth_failed
        return {"game": self.game if shown else None, "seat": self.seat if shown else None,
                "line": self.line, "outcome": "accepted" if self.accepted else "rejected",
                "turn": self.turn, "problems": len(self.problems) + bool(self.reason),
                "auth_failure": self.auth_reason or None,
                **({"press": {"relayed": len(self.press) - self.press_refused, "refused": self.press_refused}}
                   if self.press else {})}


def problem_lines(problems: Iterable[LineProblem], width: int = WIDTH) -> list[str]:
    """Each problem indented under its line number and text (shown whole, as written);
    the explanation below it, in the current language, wrapped at ``width`` characters,
    keeping its indent."""
    from pbem.mailout.problemtext import problem_text

    problems = list(problems)
    out = []
    for problem in problems[:MAX_PROBLEMS]:
        # only the line the player wrote is cut to an excerpt: the explanation is the game's
        # own words, and its figures and lists of valid words are what the player needs
        first, *rest = problem_text(problem).splitlines() or [""]
        out.append("  " + excerpt(first))
        for line in (excerpt(r, EXPLANATION) for r in rest):
            indent = "  " + line[:len(line) - len(line.lstrip())]
            out.extend(textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent,
                                     break_long_words=False, break_on_hyphens=False) or [indent])
    if len(problems) > MAX_PROBLEMS:
        more = len(problems) - MAX_PROBLEMS
        out.append("  " + ngettext("... and {n} more problem, not listed", "... and {n} more problems, not listed",
                                   more).format(n=more))
    return out


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """A short, printable excerpt of a line a mail sent (what a reply may echo of it)."""
    text = "".join(c if c.isprintable() else " " for c in text)
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def block_section(result: BlockResult) -> str:
    """The reply text of one block, in the current language."""
    if result.auth_failed:
        return _("GAME block on line {line}: {why}").format(line=result.line, why=_(AUTH_REJECTED))
    if not result.game:  # the blocks after the most one mail may hold (read before any seat was proven)
        from pbem.mailout.problemtext import translate

        return _("REJECTED: {reason}.").format(reason=translate("", result.reason))
    where = (_("game {game}, seat {seat}, turn {turn}") if result.turn and not result.standing else
             _("game {game}, seat {seat}")).format(game=result.game, seat=result.seat, turn=result.turn)
    at = dict(where=where, line=result.line)
    if result.press_only:
        return "\n".join([_("PRESS from {where} (GAME line {line}):").format(**at), *("  " + p for p in result.press)])
    if result.password_note:
        return _("PASSWORD for {where} (GAME line {line}): {note}").format(note=result.password_note, **at)
    if result.command:
        return "\n".join([(_("DONE: for {where} (GAME line {line}):") if result.accepted else
                           _("NOT ALL DONE: for {where} (GAME line {line}):")).format(**at), *result.command])
    if result.digest_note:
        return _("DIGEST for {where} (GAME line {line}): {note}").format(note=result.digest_note, **at)
    return _orders_section(result, where) + (
        "\n\n" + _("Press:") + "\n" + "\n".join("  " + p for p in result.press) if result.press else "")


def _count_line(problems: Sequence[LineProblem]) -> str:
    """``3 problems:`` (the catalogue's plural form)."""
    return ngettext("{n} problem:", "{n} problems:", len(problems)).format(n=len(problems))


def _orders_section(result: BlockResult, where: str) -> str:
    """The reply text about the orders of one authenticated block."""
    what = _(result.standing) if result.standing else _("orders")  # "standing orders": STANDING below
    at = dict(what=what, where=where, line=result.line)
    if result.accepted:
        lines = [(_("ACCEPTED IN PART: {what} for {where} (GAME line {line}).") if result.problems else
                  _("ACCEPTED: {what} for {where} (GAME line {line}).")).format(**at), "",
                 *("  " + line for line in (result.orders_text or _("(no orders)")).splitlines()), ""]
        if result.problems:
            kinds = ", ".join(result.dropped)
            lines += [(_("NOT recorded: the lines below with a problem, and every {kinds} line of this mail (your "
                         "earlier {kinds} lines, if any, still stand). Send them again, corrected.") if kinds else
                       _("NOT recorded: the lines below with a problem. Send them again, corrected.")).format(
                           kinds=kinds),
                      "", _count_line(result.problems), *problem_lines(result.problems), ""]
        if not result.standing:
            lines.append(_("These orders replace any you sent before for this turn; the last accepted set counts."))
        due = (_("Deadline of {seat}: {deadline}") if result.deadline_of else _("Deadline: {deadline}")).format(
            seat=result.deadline_of, deadline=format_deadline(result.deadline))
        lines += [result.owes, due]
        lines += [_("Warning: {warning}").format(warning=w) for w in result.warnings]
        return "\n".join(lines)
    nothing = _("None of its orders were recorded") if result.press else _("Nothing of this block was recorded")
    before = (_("your earlier standing orders, if any, still stand") if result.standing == "standing orders" else
              _("your plan stays as it was") if result.standing else
              _("orders you sent before for this turn still stand"))
    lines = [_("REJECTED: {what} for {where} (GAME line {line}). {nothing}; {before}.").format(
        nothing=nothing, before=before, **at)]
    if result.reason:
        lines += textwrap.wrap(excerpt(result.reason, 4 * EXCERPT), WIDTH, initial_indent="  ", subsequent_indent="  ",
                               break_long_words=False, break_on_hyphens=False)
    if result.problems:
        lines += ["", _count_line(result.problems), *problem_lines(result.problems)]
    return "\n".join(lines)


#: A player's words in a reply, and the GM's when the text is an order text the GM typed.
_GM_WORDS = (("orders you sent before for this turn still stand", "the seat's earlier orders for this turn still stand"),
             ("your earlier standing orders", "the seat's earlier standing orders"),
             ("your plan stays as it was", "the seat's plan stays as it was"),
             ("replace any you sent before for this turn", "replace the seat's earlier orders for this turn"))


def reply_body(results: Sequence[BlockResult], mail_problems: Sequence[LineProblem] = (),
               html_only: bool = False, for_gm: bool = False) -> str:
    """The whole reply text for a mail's block results; ``for_gm``: the answer to an order
    text the GM typed (``pbem ingest FILE``), printed for the GM, not mailed to a player."""
    sections = [block_section(r) for r in results]
    if for_gm:
        for player, gm in _GM_WORDS:
            sections = [text.replace(player, gm) for text in sections]
    if not results:
        found = ("No order block (GAME <game> <seat> ... END) was found in this order text, so nothing was recorded."
                 if for_gm else _("No order block (GAME ... END) was found in your mail, so nothing was recorded."))
        sections.append("\n".join([found, *problem_lines(mail_problems), *([] if for_gm else ["", _(HOW_TO)])]))
    elif any(not r.accepted and not r.command for r in results) and not for_gm:  # a club line says its own fix
        sections.append(_(HOW_TO))
    if html_only:
        sections.append(_(HTML_NOTE))
    return wrap("\n\n".join(sections)) + "\n"


def wrap(text: str, width: int = WIDTH) -> str:
    """Long prose lines wrapped at ``width``; indented lines (orders, problems) kept whole."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width or line[:1].isspace():
            out.append(line)
        else:
            out.extend(_wrapped(line, width))
    return "\n".join(out)


@lru_cache(maxsize=1024)  # most prose lines of a reply are the same in every reply
def _wrapped(line: str, width: int) -> tuple[str, ...]:
    return tuple(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False))


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret (of a usable length) replaced by a mask."""
    for secret in sorted({s for s in secrets if len(s) >= 6}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def mask_passwords(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with ``secrets`` and every password-shaped word masked (press relayed to
    other seats must never carry a password pasted into it by mistake)."""
    return _PASSWORD_WORD.sub(MASK, scrub(text, secrets))


def reply_subject(subject: str) -> str:
    """``Re: <subject>`` without stacking ``Re:`` prefixes (a GAME line's password masked)."""
    subject = _GAME_WORDS.sub(rf"\1{MASK}", subject.strip()) or _("your orders")
    subject = _PASSWORD_WORD.sub(MASK, subject)
    subject = excerpt(_RE_PREFIX.sub("", subject), 80).strip() or _("your orders")
    return f"Re: {subject}"


def unauthenticated_message(mail: ParsedMail, sender: str) -> TextOutgoing:
    """The one reply to a mail none of whose blocks was authenticated (see
    :data:`UNAUTHENTICATED`): fixed subject and text in the current language (the mail's own:
    :func:`pbem.mailin.language.mail_language`), threaded on the mail."""
    assert mail.sender is not None
    subject = _(UNAUTHENTICATED_SUBJECT)
    headers = base_headers(None, mail.sender, subject, sender, KIND)
    headers += [("Auto-Submitted", "auto-replied"), *_thread(mail)]
    return TextOutgoing(mail.sender, subject, headers, _(UNAUTHENTICATED_CHECKS) + "\n\n" + _(HOW_TO) + "\n", KIND)


#: The subject of the reply to a mail refused over a size limit (pbem.mailin.maillimits).
REFUSED_SUBJECT = N_("Re: your mail to the game master (not read: too large)")


def refused_message(mail: ParsedMail, text: str, sender: str) -> TextOutgoing:
    """The reply to a mail refused unread over a size limit: fixed subject, ``text`` naming
    the limit, threaded on the mail; it echoes nothing of the mail (it proved nothing)."""
    assert mail.sender is not None
    subject = _(REFUSED_SUBJECT)
    headers = base_headers(None, mail.sender, subject, sender, KIND)
    headers += [("Auto-Submitted", "auto-replied"), *_thread(mail)]
    return TextOutgoing(mail.sender, subject, headers, text, KIND)


def _thread(mail: ParsedMail) -> list[tuple[str, str]]:
    """In-Reply-To and References naming the player's mail (well-formed ids only)."""
    if mail.message_id and _MSGID.fullmatch(mail.message_id):
        refs = [r for r in f"{mail.references} {mail.message_id}".split() if _MSGID.fullmatch(r)]
        return [("In-Reply-To", mail.message_id), ("References", " ".join(refs[-10:]))]
    return []


def reply_message(mail: ParsedMail, body: str, sender: str, game: Game | None,
                  secrets: Iterable[str] = ()) -> TextOutgoing:
    """The reply to ``mail`` (RFC 3834 headers, threaded on the player's Message-ID); its
    MIME message is built when it is read or sent (:class:`pbem.mailout.mailbase.TextOutgoing`)."""
    assert mail.sender is not None
    secrets = list(secrets)
    subject = scrub(reply_subject(mail.subject), secrets)
    headers = base_headers(None, mail.sender, subject, sender, KIND)
    headers += [("Auto-Submitted", "auto-replied"), *_thread(mail)]
    return TextOutgoing(mail.sender, subject, headers, scrub(body, secrets), KIND)
