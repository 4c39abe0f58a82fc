"""Mail commands for players: HELP, STATUS, REPORT, PASSWORD, and silence for strangers.

A mail without any ``GAME`` block is looked at here (a small hook in
:meth:`pbem.ingest.Ingestor._process`):

- from an address that no seat has registered: no reply at all (a forged From must not
  make us mail a third party), recorded as ``ignored`` so the GM sees it in ingest's output;
- from a registered address, with a command line (in the subject or as the first text line)
  ``HELP|STATUS|REPORT|PASSWORD [game] [seat]`` (game and seat may be left out when the
  address has only one seat): the answer goes to the seat's registered address only;
  ``HELP ORDERS`` and ``HELP RULES`` mail the game's order syntax and rules reference
  (the pages of docs/, :mod:`pbem.playerdocs`);
- from a registered address without a command: the usual "no order block" reply.

A command needs no password: its answer only ever goes to the address the GM registered.
PASSWORD changes nothing by itself: it mails a one-time code to that address, and only
``PASSWORD <code>`` issues a new password (:mod:`pbem.loop.passwords`).

Anyone can forge a player's From, so each command is answered at most :data:`LIMITS` times per
seat in :data:`pbem.mailin.guard.WINDOW` (PASSWORD by :mod:`pbem.loop.passwords`' own limits, the "which
seat?" answer :data:`WHICH_SEAT_ANSWERS` times per address); the mails over a limit are kept,
not answered, and listed for the GM in the guard log (``pbem status``).
"""

from __future__ import annotations

import re
from typing import Any

from pbem.store.events import Game
from pbem.mailin.parse import ParsedMail
from pbem.mailout.mailbase import Outgoing, base_message, fold_prose
from reports.i18n import N_

COMMANDS = ("HELP", "STATUS", "REPORT", "PASSWORD")
#: Answers per seat and command in the window (a REPORT answer is a whole report mail; HELP
#: ORDERS and HELP RULES mail whole pages of the documentation).
LIMITS = {"HELP": 3, "STATUS": 6, "REPORT": 3, "HELP ORDERS": 2, "HELP RULES": 2}
#: "Which seat?" answers per address in the window.
WHICH_SEAT_ANSWERS = 3
_COMMAND = re.compile(r"^\s*(?:re:\s*)*(HELP|STATUS|REPORT|PASSWORD)\b[ \t]*([^\n]*)$", re.IGNORECASE)


def find_command(mail: ParsedMail) -> tuple[str, list[str]] | None:
    """``(COMMAND, [words])`` from the subject or the first non-empty text line, or None."""
    first = next((line for line in mail.text.splitlines() if line.strip()), "")
    found = [(m.group(1).upper(), m.group(2).split()[:3]) for m in map(_COMMAND.match, (mail.subject or "", first)) if m]
    if not found:
        return None
    # the subject's command, said more fully on the first line ("PASSWORD" / "PASSWORD w1 red <code>")
    return max((f for f in found if f[0] == found[0][0]), key=lambda f: len(f[1]))


def seats_of(service: Any, address: str) -> list[tuple[str, str]]:
    """Every (game, seat) of a running game whose registered addresses include ``address``."""
    from pbem.store import projection

    address = address.strip().lower()
    out = []
    # the candidates from the address index (no game loaded for a stranger's mail), checked
    # against each game as loaded; a game whose index is behind its log is looked at too
    candidates = {g for g, _ in projection.games_of_address(service.store, address)}
    for game_id in sorted(candidates | set(projection.stale_games(service.store))):
        game = service.load(game_id)
        if game.over:
            continue
        for seat, data in game.seats.items():
            if address in {a.lower() for a in data.get("addresses", [])} | {data["email"].lower()}:
                out.append((game.game_id, seat))
    return out


def handle(service: Any, mail: ParsedMail) -> tuple[str, str] | None:
    """Handle a mail without GAME blocks: ``(outcome, note)`` when handled here (answer
    queued or deliberately none), None when the usual reply should go out."""
    if not mail.is_mail or not mail.sender:
        return None
    mine = seats_of(service, mail.sender)
    if not mine:
        return "ignored", "unknown sender and no GAME block: not answered (no backscatter)"
    found = find_command(mail)
    if found is None:
        return None
    command, words = found
    if command == "HELP" and words and words[0].upper() in _PAGES:
        command, words = f"HELP {words[0].upper()}", words[1:]
    code = None
    if command == "PASSWORD" and words and _is_code(words[-1], mine):
        code, words = words[-1], words[:-1]
    words = words[:2]
    chosen = [(g, s) for g, s in mine if (not words or words[0] == g) and (len(words) < 2 or words[1] == s)]
    if len(chosen) != 1:
        if not _within(service, command, None, None, mail, WHICH_SEAT_ANSWERS, "which seat"):
            return "command", f"{command} without a clear seat: NOT answered (limit)"
        listing = ", ".join(f"{g} {s}" for g, s in mine)
        from pbem.mailout.mailbase import speaking_to
        from reports.i18n import _

        with speaking_to(service.load(mine[0][0]), mine[0][1]):
            example = f"{command} {mine[0][0]} {mine[0][1]}"
            out = _mail(service, mine[0][0], _registered(service, *mine[0]),
                        _("{command}: which seat?").format(command=command),
                        [_("Your address plays several seats ({listing}); write e.g. '{example}'.").format(
                            listing=listing, example=example) if len(mine) > 1 else
                         _("No seat matches '{words}'; your seat is {listing}.").format(
                             words=" ".join(words), listing=listing)])
        from pbem.mailout.notify import queue

        queue(service.store, service.load(mine[0][0]), out)
        return "command", f"{command} without a clear seat"
    game_id, seat = chosen[0]
    if command == "PASSWORD":  # with proof only (pbem.loop.passwords)
        from pbem.loop import passwords

        from pbem.mailout.mailbase import speaking_to

        game = service.load(game_id)
        with speaking_to(game, seat):
            if code is None:
                return "command", passwords.request_code(service, game, seat, mail.sender, mail.key)
            return "command", passwords.redeem(service, game, seat, code, mail.sender, mail.key)
    if not _within(service, command, game_id, seat, mail, LIMITS[command], command):
        return "command", f"{command} {game_id} {seat}: NOT answered ({LIMITS[command]} answered in 24 hours, the most)"
    from pbem.mailout.mailbase import speaking_to

    game = service.load(game_id)
    with speaking_to(game, seat):
        ANSWERS[command](service, game, seat)
    return "command", f"{command} {game_id} {seat}"


def _within(service: Any, command: str, game_id: str | None, seat: str | None, mail: ParsedMail, limit: int,
            detail: str) -> bool:
    """Note an answer to ``command`` in the guard log and say True, or, when ``limit`` answers were
    given in the window (to the seat; to the address when no seat is known), note it as not
    answered and say False."""
    from pbem.mailin import guard

    store = service.store
    address = None if seat else mail.sender
    done = guard.count(store, [guard.COMMAND], guard.since(store), game_id, seat, address, detail)
    kind = guard.COMMAND if done < limit else guard.LIMITED
    guard.note(store, kind, game_id, seat, mail.sender, detail, mail.key)
    return done < limit


def _is_code(word: str, mine: list[tuple[str, str]]) -> bool:
    """True when ``word`` (after PASSWORD) is a reset code, not a game id of the sender's."""
    from pbem.loop.passwords import is_code

    return is_code(word) and word not in {g for g, _ in mine}


def _registered(service: Any, game_id: str, seat: str) -> str:
    return str(service.load(game_id).seats[seat]["email"])


def _mail(service: Any, game_id: str, to: str, subject: str, lines: list[str]) -> Outgoing:
    game = service.load(game_id)
    msg = base_message(game, to, f"[{game_id}] {subject}", service.sender, "command")
    msg["Auto-Submitted"] = "auto-replied"
    msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(to, msg["Subject"], msg, "command")


def _help(service: Any, game: Game, seat: str) -> None:
    from pbem.mailout.notify import queue
    from pbem.mailout.reporting import order_help, order_help_text
    from reports.i18n import _

    pending = game.pending
    from reports.gamenames import game_title

    lines = [_("Orders for game {game} ({title}), seat {seat}:").format(
                 game=game.game_id, title=game_title(game.engine.name, game.created.get("options")), seat=seat), "",
             f"GAME {game.game_id} {seat} " + _("<your password>"),
             "TURN " + (pending.turn if pending else _("<turn>")) + "     " + _("# optional"),
             _("... your orders, one per line ..."), "END", ""]
    if pending is not None and seat in pending.seats:
        lines += [_("Order keywords accepted now: {forms}").format(forms=", ".join(pending.forms)), ""]
    short = order_help(game.engine.name, game.created.get("options"))
    lines += [order_help_text(short).rstrip() if short else _("(no short help for this game)")]
    from pbem.mailout.playerdocs import docs_lines

    lines += ["", *docs_lines()]
    from pbem.mailout.press import welcome_lines

    lines += ["", *welcome_lines(game)][:-1]  # how to send press, when the game has it
    lines += ["", _("Mail commands: HELP, HELP ORDERS, HELP RULES, STATUS, REPORT (your latest report again), "
                    "PASSWORD (a one-time code to this address for a new password; your password works until "
                    "the code is used)."),
              _("A GAME block whose one line is DIGEST ON: your reports come as plain text without pictures "
                "(DIGEST OFF: whole again)."),
              _("A GAME block of its own may also say ABSENT FROM <date> TO <date> (or ABSENT FOR 10d), BACK, "
                "DRAW, CONCEDE <seat> or RESIGN; from any address: LIST, JOIN <game>, OBSERVE <game>, STATS, "
                "STANDBY (HELP ORDERS mails how to write each of them)."),
              _("A GAME block whose one line is LANGUAGE hu, de or en: your mails and reports in that language.")]
    queue(service.store, game, _mail(service, game.game_id, game.seats[seat]["email"], _("help"), lines))


#: HELP ORDERS and HELP RULES: what is mailed, and how the mail names it.
_PAGES = {"ORDERS": ("orders", N_("order syntax")), "RULES": ("rules", N_("rules reference"))}


def _pages(what: str) -> Any:
    """The answer to HELP ORDERS or HELP RULES: the pages of docs/ for the seat's game."""

    def answer(service: Any, game: Game, seat: str) -> None:
        from pbem.mailout.notify import queue
        from pbem.mailout.playerdocs import localised, page, pages
        from reports.gamenames import game_title

        from reports.i18n import _, lang

        key, words = _PAGES[what]
        words = _(words)
        names = pages(game.engine.name, key, game.created.get("options"))
        shown = [localised(name, lang()) for name in names]
        title = game_title(game.engine.name, game.created.get("options"))
        lines = [(_("The {what} of {title} (game {game}, your seat {seat}), as pbem's documentation gives it: "
                    "{pages}.") if names else
                  _("The {what} of {title} (game {game}, your seat {seat}), as pbem's documentation gives it."))
                 .format(what=words, title=title, game=game.game_id, seat=seat, pages=", ".join(shown))]
        if not names:
            lines += ["", _("(This game has no such page; ask your GM.)")]
        for name, path in zip(names, shown):
            lines += ["", "=" * 72, path, "=" * 72, "", page(path).rstrip()]
        queue(service.store, game, _mail(service, game.game_id, game.seats[seat]["email"],
                                         _("{what} ({title})").format(what=words, title=title), lines))

    return answer


def _status(service: Any, game: Game, seat: str) -> None:
    from pbem.mailout.notify import queue
    from pbem.mailout.mailbase import format_deadline

    from reports.i18n import _

    st = service.game_status(game)
    if st["over"]:
        lines = [_("Game {game} is over. Winner: {winner}.").format(game=game.game_id,
                                                                   winner=st["winner"] or _("none"))]
    else:
        planned = st.get("planned") or []
        awaited = [s for s in st["awaiting"] if s not in planned]
        mine = _("yours are in") if seat in st["submitted"] else (
            _("your standing orders or plan answer it") if seat in planned else
            _("yours are awaited") if seat in awaited else _("nothing is awaited from you"))
        lines = [_("Game {game}, turn {turn} ({kind}): {mine}.").format(game=game.game_id, turn=st["turn"],
                                                                       kind=st["kind"], mine=mine),
                 (_("Awaited: {awaited}; in: {done}; by standing orders or plan: {planned}.") if planned else
                  _("Awaited: {awaited}; in: {done}.")).format(
                     awaited=", ".join(awaited) or _("nobody"), done=", ".join(st["submitted"]) or _("none"),
                     planned=", ".join(planned)),
                 _("Deadline: {deadline}").format(deadline=format_deadline(st["deadline"]))]
    from pbem.club.hooks import seat_lines

    lines += seat_lines(game, seat, service.store.clock())  # the seat's own absence, disorder, votes
    queue(service.store, game, _mail(service, game.game_id, game.seats[seat]["email"], _("status"), lines))


def _report(service: Any, game: Game, seat: str) -> None:
    """The seat's latest report again: the last mail that brought it its position (a report, a
    your-move mail, its welcome without the password) sent again as it was, when it shows the
    current position; else rendered anew."""
    from pbem.mailout.notify import queue
    from pbem.mailout.turnmail import OPENING, compose, seat_report, view_summary

    from reports.i18n import _

    turn = game.turns[-1]["turn"] if game.turns else OPENING
    intro = [_("Game {game}: your report ({seat}), as of {turn}, sent again on request.").format(
        game=game.game_id, seat=seat, turn=turn)]
    again = _sent_again(service, game, seat, intro[0])
    if again is not None:
        queue(service.store, game, again)
        return
    rendered = seat_report(game, seat, turn)
    if rendered is None:
        from pbem.mailout.colours import seat_view

        intro += ["", *view_summary(seat_view(game, seat))]
    out = compose(game, game.seats[seat]["email"], _("[{game}] report for {seat} (again)").format(
        game=game.game_id, seat=seat),
                  service.sender, "command", intro, rendered)
    queue(service.store, game, out)


def _password_line() -> re.Pattern[str]:
    """The welcome mail's password line in the current language, its password a group."""
    from reports.i18n import _

    return re.compile(re.escape(_("Your password: {password}")).replace(re.escape("{password}"), r"(\S+)"))


def _sent_again(service: Any, game: Game, seat: str, intro: str) -> Outgoing | None:
    """The last position mail of ``seat`` made again for a REPORT answer (None: there is none
    that shows the current position, or its password could not be taken out). Sending what was
    rendered costs nothing like rendering it anew (a report's map)."""
    from email import policy
    from email.parser import BytesParser
    from email.utils import make_msgid

    from pbem.mailout.mailbase import LOOP_HEADER, domain_of, language_headers
    from pbem.store.mailpack import unpack
    from reports.i18n import _

    to = game.seats[seat]["email"]
    rows = service.store.conn.execute(
        "select kind, cause_seq, message from outbox where game_id = ? and to_addr = ? and kind in "
        "('welcome', 'report', 'your-move') order by id desc limit 1", [game.game_id, to]).fetchall()
    current = game.turns[-1]["seq"] if game.turns else 1
    if not rows or int(rows[0][1] or 1) < current:
        return None
    kind, _seq, stored = rows[0]
    msg = BytesParser(policy=policy.default).parsebytes(unpack(service.store.conn, bytes(stored)))
    texts = [p for p in msg.walk() if p.get_content_type() in ("text/plain", "text/html") and not p.is_attachment()]
    found = _password_line().search(str(texts[0].get_content())) if texts else None
    if kind == "welcome" and found is None:
        return None
    for n, part in enumerate(texts):
        text = str(part.get_content())
        if found is not None:
            text = text.replace(found.group(1), _("(not repeated here: see your welcome mail)"))
        if part.get_content_type() == "text/plain" and n == 0:
            text = f"{intro}\n\n{text}"
        part.set_content(text, subtype=part.get_content_subtype(), charset="utf-8")
    subject = _("[{game}] report for {seat} (again)").format(game=game.game_id, seat=seat)
    for name, value in (("To", to), ("Subject", subject), ("Message-ID", make_msgid("command", domain_of(service.sender))),
                        (LOOP_HEADER, "command"), ("Auto-Submitted", "auto-replied"), *language_headers()):
        del msg[name]
        msg[name] = value
    return Outgoing(to, subject, msg, "command")


ANSWERS = {"HELP": _help, "STATUS": _status, "REPORT": _report, "HELP ORDERS": _pages("ORDERS"),
           "HELP RULES": _pages("RULES")}
