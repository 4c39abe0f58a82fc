"""Mails of the turn loop that carry a seat's position: the welcome mail (with the opening
report) and the "your move" mail of a sequential decision.

Everything a seat is told here comes from ``engine.view(state, seat)`` (and from the seat's
own orders), so nothing hidden from the seat can reach its mail. A game without a report
renderer gets the same mails with a plain-text summary of its view instead.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import Any

import hashlib
from pbem.store.events import Game
from pbem.mailout.mailbase import (MAIL_POLICY, WIDTH, LOOP_HEADER, Outgoing, TextOutgoing, base_message, domain_of,
                                   thread_id, wrapped)
from reports.i18n import N_
from reports.model import Rendered

#: The turn label shown in reports made before the first adjudication.
OPENING = "start"


def seat_report(game: Game, seat: str, turn: str = OPENING) -> Rendered | None:
    """The rendered report of ``seat``'s view of the current state (None: no renderer)."""
    from pbem.mailout.reporting import render_turn
    from reports.render import UnknownGame

    try:
        return render_turn(game, {"turn": turn}, [], only=[seat])[0].rendered
    except UnknownGame:
        return None


def compose(game: Game, to: str, subject: str, sender: str, kind: str, intro: list[str],
            rendered: Rendered | None, message_id: str | None = None) -> Outgoing:
    """A mail whose text starts with ``intro`` and goes on with ``rendered`` (text, HTML and
    pictures); without a rendering, a plain-text mail of ``intro`` alone."""
    from reports.message import to_message

    from pbem.mailout.mailbase import fold_prose

    head = "\n".join(fold_prose(intro)).rstrip() + "\n"
    if rendered is None:
        msg = base_message(game, to, subject, sender, kind)
        msg.set_content(head)
        return Outgoing(to, subject, msg, kind)
    domain = domain_of(sender)
    msgid = message_id or base_message(game, to, subject, sender, kind)["Message-ID"]
    combined = Rendered(text=head + "\n" + rendered.text, html=_html_with_intro(rendered.html, head),
                        images=dict(rendered.images))
    from reports.i18n import speaking_now

    msg = to_message(combined, to=to, sender=sender, subject=subject, message_id=str(msgid or f"<{kind}@{domain}>"),
                     in_reply_to=thread_id(game, sender), references=[thread_id(game, sender)],
                     language=speaking_now(), mail_policy=MAIL_POLICY)
    msg[LOOP_HEADER] = kind
    return Outgoing(to, subject, msg, kind)


def _html_with_intro(page: str, intro: str) -> str:
    """``page`` with ``intro`` (plain text) shown first in its body."""
    block = ('<pre style="white-space:pre-wrap;font-family:monospace;font-size:14px;margin:12px;">'
             f"{html.escape(intro)}</pre>")
    match = re.search(r"<body[^>]*>", page)
    if match is None:
        return block + page
    return page[:match.end()] + "\n" + block + page[match.end():]


def view_summary(view: Any) -> list[str]:
    """A plain-text rendering of a view, for games without a report renderer."""
    from reports.i18n import _

    return [_("Your position (what your seat may see):"),
            json.dumps(view, indent=1, ensure_ascii=False, sort_keys=True)]


# -- your move ----------------------------------------------------------------------------
def changes(before: Mapping[str, Any] | None, after: Mapping[str, Any], seat: str = "") -> list[str]:
    """What changed for ``seat`` since its last mail, in sentences: its own hand (what came
    and went), its money, victory points and points. The rest of the position is in the
    report the mail carries; internal figures (codes, flags) are never shown. Both views are
    the seat's own, so this reveals nothing the seat could not see."""
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        return []
    from reports.gamenames import hand_words as game_hand
    from reports.i18n import _, current

    out = []
    hand_words = _(game_hand(str(after.get("game"))) or N_("Your hand"))  # the game's word for a view's hand
    old_hand, new_hand = _own(before.get("hands"), seat), _own(after.get("hands"), seat)
    if _flat_list(old_hand) and _flat_list(new_hand) and sorted(map(str, old_hand)) != sorted(map(str, new_hand)):
        came, went = _difference(new_hand, old_hand), _difference(old_hand, new_hand)
        parts = ([_("new: {cards}").format(cards=", ".join(map(str, came)))] if came else []) + \
                ([_("gone: {cards}").format(cards=", ".join(map(str, went)))] if went else [])
        out.append(f"- {hand_words}: {', '.join(map(str, new_hand)) or _('none')} ({'; '.join(parts)}).")
    number = current().number
    for label, old, new in _figures(before, after, seat):
        if old != new and old is not None and new is not None:
            out.append(f"- {_(label)}: {number(old)} -> {number(new)}.")
    return out


def _own(value: Any, seat: str) -> Any:
    return value.get(seat) if isinstance(value, Mapping) else None


def _difference(a: list[Any], b: list[Any]) -> list[Any]:
    """``a`` minus ``b`` as multisets (a hand may hold two cards alike), in ``a``'s order."""
    left = list(b)
    out = []
    for x in a:
        if x in left:
            left.remove(x)
        else:
            out.append(x)
    return out


def _figures(before: Mapping[str, Any], after: Mapping[str, Any], seat: str) -> list[tuple[str, Any, Any]]:
    """The seat's own counts that a mail names when they change."""
    out = []
    if isinstance(after.get("seats"), Mapping):  # money and victory points per seat
        b, a = _own(before.get("seats"), seat) or {}, _own(after.get("seats"), seat) or {}
        out += [(N_("Your thalers"), b.get("money"), a.get("money")),
                (N_("Your victory points"), b.get("vp"), a.get("vp"))]
    if isinstance(after.get("points"), Mapping):  # points per seat
        out.append((N_("Your points"), _own(before.get("points"), seat), _own(after.get("points"), seat)))
    return out


def _flat_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, (str, int)) for x in value)


def carried_out(game: Game, turn: str, orders: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The orders of a seat that ``turn``'s adjudication used. In a game whose every block is
    a plan (a plan checker is registered, turns/base.py) a decision uses the first line of its kind (its turn label is
    ``r<round>/<kind>/...``); the other lines of the block were not carried out then."""
    from turns.games import plan_checker_for

    if plan_checker_for(game.engine.name) is None:
        return orders
    parts = turn.split("/")
    kind = parts[1] if len(parts) > 1 else None
    used = next((o for o in orders if isinstance(o, dict) and o.get("kind") == kind), None)
    return [used] if used is not None else orders


def standing_problem(game: Game, seat: str, view: Any = None) -> str | None:
    """Why ``seat``'s standing orders for the pending decision could not be applied (None when
    the seat has none for it, or they apply); ``view``: the seat's view, made already."""
    pending = game.pending
    view = game.engine.view(game.state, seat) if view is None else view
    entries = view.get("standing") if isinstance(view, dict) else None
    mine = entries.get(seat) if isinstance(entries, dict) else None
    if not mine or pending is None:
        return None
    when = _standing_when(game.engine.name, pending)
    reasons = []
    for entry in mine:
        if entry.get("when") != when:
            continue
        for key in ("then", "else"):
            block = entry.get(key)
            problems = game.engine.validate(game.state, seat, block) if isinstance(block, list) and block else []
            if problems:
                said = problem_text(game.engine.name, problems[0].message)
                reasons.append(f"{key.upper()} {said}" if key == "else" else said)
    if not reasons:
        return None
    from reports.i18n import _

    return _("your standing orders could not be applied here: {reasons}").format(reasons="; ".join(reasons))


def problem_text(engine: str, message: str) -> str:
    """An engine's or a grammar's problem message in the current language (:mod:`pbem.mailout.problemtext`)."""
    from pbem.mailout.problemtext import translate

    return translate(engine, message)


def _standing_when(engine: str, pending: Any) -> str:
    """The decision name the game's standing orders use (its registry entry's
    ``standing_when``; else the decision's kind)."""
    from adjudicator import games

    when = games.info(engine).standing_when
    return when(pending) if when is not None else str(pending.kind)


def your_move(game: Game, seat: str, sender: str, before: Mapping[str, Any] | None,
              last_orders: str | None, store: Any = None,
              recent: list[dict[str, Any]] | None = None) -> Outgoing | TextOutgoing:
    """The mail telling ``seat`` that the pending decision is theirs, in the seat's language.

    In a game whose report says which of its parts a small decision needs (its content
    module's ``move_sections``: :func:`reports.decisions.move_text`) it is a short plain-text mail: the decision,
    what happened since the seat's last mail (``recent``: those turns' events as the seat may
    see them), its own position, and where its last full report is (the report with the map
    goes out once a round or battle). Otherwise it carries the seat's whole report."""
    from pbem.mailout.mailbase import speaking_to

    with speaking_to(game, seat):
        return _your_move(game, seat, sender, before, last_orders, store, recent)


def _your_move(game: Game, seat: str, sender: str, before: Mapping[str, Any] | None,
               last_orders: str | None, store: Any, recent: list[dict[str, Any]] | None) -> Outgoing | TextOutgoing:
    from pbem.mailout.mailbase import format_deadline
    from reports.i18n import _
    from pbem.mailout.reporting import in_seat_order, order_help, order_help_text

    pending = game.pending
    assert pending is not None and seat in pending.seats
    from reports.decisions import decision_lines, move_text

    view = game.engine.view(game.state, seat)
    words = decision_lines(game.engine.name, view, seat) or [
        _("Decision: {kind} (turn {turn}).").format(kind=pending.kind, turn=pending.turn)]
    import textwrap

    words = [line for line in wrapped(*words) if line]  # a sentence left empty is no line
    intro = [_("Game {game}: your move, {seat}.").format(game=game.game_id, seat=seat), "", *words,
             _("Deadline: {deadline}").format(deadline=format_deadline(game.deadline)),
             _("Order keywords accepted now: {forms}").format(forms=", ".join(pending.forms)
                                                             or _("see the order help"))]
    if last_orders:
        intro += ["", _("Your last orders, as carried out:"), *("  " + line for line in last_orders.splitlines())]
    short = move_text(game.engine.name, _input(game, seat, in_seat_order(view, list(game.seats)), recent or []))
    since = changes(before, view, seat)
    if since:
        said = (_("What changed for you since your last mail (your last report has the rest):") if short is not None
                else _("What changed for you since your last mail (the report below has the rest):"))
        intro += ["", *wrapped(said),
                  *(line for item in since for line in textwrap.wrap(item, WIDTH, subsequent_indent="  ",
                                                                       break_long_words=False))]
    problem = standing_problem(game, seat, view)
    if problem:
        intro += ["", _("Note: {problem}.").format(problem=problem)]
    found = last_report(store, game, seat) if short is not None else None  # read once: the text and the thread
    if short is not None:
        intro += ["", short, "", *_report_reference(found)]
    intro += ["", _("Reply with a block like this (your password is in your welcome mail):"), "",
              f"GAME {game.game_id} {seat} " + _("<your password>"), f"TURN {pending.turn}", _("... your orders ..."),
              "END"]
    from turns.games import plan_checker_for

    if plan_checker_for(game.engine.name) is not None:
        intro += ["", *wrapped(_("Lines for your later decisions of this round may follow in the same block: "
                                 "they are kept as your plan for the round."))]
    help_text = order_help(game.engine.name)
    if help_text:
        intro += ["", _("Orders, in short:"), order_help_text(help_text).rstrip()]
    from pbem.mailout.mailbase import turn_words

    subject = _("[{game}] your move: {turn}").format(game=game.game_id, turn=turn_words(game, pending.turn))
    msgid = your_move_draft(game, seat, sender)
    if short is not None:
        return _short_mail(game, seat, sender, subject, msgid, intro, found)
    rendered = seat_report(game, seat, turn=game.turns[-1]["turn"] if game.turns else OPENING)
    if rendered is None:
        intro += ["", *view_summary(view)]
    return compose(game, game.seats[seat]["email"], subject, sender, "your-move", intro, rendered, msgid)


def _input(game: Game, seat: str, view: dict[str, Any], recent: list[dict[str, Any]]) -> Any:
    """The report input of ``seat``'s view, for the parts of a report a short mail carries."""
    from pbem.mailout.languages import seat_language
    from reports.model import ReportInput

    return ReportInput(game_id=game.game_id, game=game.engine.name, viewer=seat,
                       turn=game.turns[-1]["turn"] if game.turns else OPENING, view=view, deadline=game.deadline,
                       recent=recent, language=seat_language(game, seat))


def last_report(store: Any, game: Game, seat: str) -> tuple[str, str, str] | None:
    """``(subject, queued at, Message-ID)`` of the last mail that carried ``seat``'s whole
    report (a report, else the welcome mail), or None."""
    if store is None:
        return None
    row = store.conn.execute("select subject, created_at, message_id from outbox where game_id = ? and to_addr = ? "
                             "and kind in ('report', 'welcome') order by id desc limit 1",
                             [game.game_id, game.seats[seat]["email"]]).fetchone()
    return (str(row[0]), str(row[1]), str(row[2])) if row else None


def _report_reference(found: tuple[str, str, str] | None) -> list[str]:
    """Where the seat finds the board and the other players: its last full report
    (``found``: :func:`last_report`'s answer)."""
    from reports.i18n import _

    where = (_('The board and the other players are in your last report, "{subject}" of {when}.').format(
        subject=found[0], when=found[1].replace("T", " ").replace("Z", " UTC")) if found else
             _("The board and the other players are in your welcome mail and reports."))
    return wrapped(where, _("Mail REPORT (as the subject) to get your report as it stands now, with the map."))


def _short_mail(game: Game, seat: str, sender: str, subject: str, msgid: str, lines: list[str],
                found: tuple[str, str, str] | None) -> TextOutgoing:
    """A plain-text "your move" mail, threaded on the seat's last report (``found``:
    :func:`last_report`'s answer)."""
    to = game.seats[seat]["email"]
    thread = thread_id(game, sender)
    refs = [thread] + ([found[2]] if found and found[2] != thread else [])
    from pbem.mailout.mailbase import fold_prose, language_headers

    headers = [("From", sender), ("To", to), ("Subject", subject), ("Message-ID", msgid), (LOOP_HEADER, "your-move"),
               ("In-Reply-To", refs[-1]), ("References", " ".join(refs)), *language_headers()]
    return TextOutgoing(to, subject, headers, "\n".join(fold_prose(lines)).rstrip() + "\n", "your-move")


def announce(store: Any, game: Game, awaited: list[str], sender: str, cause_seq: int,
             reported: set[str]) -> list[Outgoing | TextOutgoing]:
    """The "your move" mails for the ``awaited`` seats of ``game``'s pending decision that
    got no report mail in this step (``reported``: addresses just sent a report) and no
    "your move" mail for this decision yet. Call inside the transaction of ``cause_seq``."""
    from adjudicator.base import visible_events

    out: list[Outgoing | TextOutgoing] = []
    for seat in awaited:
        to = game.seats[seat]["email"]
        if to in reported:
            continue
        msgid = your_move_draft(game, seat, sender)
        if store.conn.execute("select 1 from outbox where message_id = ?", [msgid]).fetchone():
            continue
        seen = _last_mail_seq(store, game, to)
        before = _state_at(store, game, seen)
        since = _turns_after(game, seen)  # newest first
        last = next((t for t in since if seat in t["orders"]), None)
        text = None
        if last is not None:
            from turns.games import format_orders

            used = carried_out(game, last["turn"], list(last["orders"][seat]))
            from pbem.mailout.mailbase import speaking_to
            from reports.i18n import _

            with speaking_to(game, seat):
                text = format_orders(game.engine.name, used).strip() or _("(no orders)")
                if seat in last["defaulted"]:
                    text += "\n" + _("(your orders were missing: the missed-orders default was applied)")
        recent = [{"turn": t["turn"], "events": visible_events(game.engine, t.get("events") or [], seat)}
                  for t in reversed(since)]
        out.append(your_move(game, seat, sender, game.engine.view(before, seat), text, store, recent))
    return out


def _turns_after(game: Game, seq: int) -> list[dict[str, Any]]:
    """The adjudicated turns recorded after event ``seq``, newest first (only those read)."""
    from pbem.store.heads import turn_refs

    refs = turn_refs(game.turns)
    count = sum(1 for _, s in refs if s > seq)
    return [game.turns[i] for i in range(len(refs) - 1, len(refs) - 1 - count, -1)]


def your_move_draft(game: Game, seat: str, sender: str) -> str:
    """The Message-ID the "your move" mail of ``seat`` for the pending decision gets."""
    pending = game.pending
    assert pending is not None
    domain = domain_of(sender)
    return f"<move.{game.game_id}.{hashlib.sha256(game.mail_key(pending.turn).encode()).hexdigest()[:16]}.{seat}@{domain}>"


def _state_at(store: Any, game: Game, seq: int) -> Any:
    """The state right after event ``seq``: the snapshot cached after a TurnAdjudicated event
    when it matches the recorded hash, else a replay of the events up to ``seq``."""
    import json

    from pbem.store.events import fold, text_digest

    row = store.conn.execute("select e.type, json_extract(e.payload, '$.state_hash'), s.state from events e "
                             "left join snapshots s on s.game_id = e.game_id and s.seq = e.seq "
                             "where e.game_id = ? and e.seq = ?", [game.game_id, seq]).fetchone()
    if row is not None and row[0] == "TurnAdjudicated" and row[2] is not None \
            and text_digest(row[2], game.seed, game.digest_scheme) == row[1]:  # a cache, checked against the log
        return json.loads(row[2])
    return fold(game.game_id, store.events(game.game_id, until=seq), game.seed).state


def _last_mail_seq(store: Any, game: Game, to: str) -> int:
    """The event after which the last position mail (welcome, report, your move, or the
    rollback notice: the position it announces is the rebuilt one, not the set-aside one)
    to ``to`` was made."""
    row = store.conn.execute(
        "select cause_seq from outbox where game_id = ? and to_addr = ? and kind in ('welcome', 'report', "
        "'your-move', 'rollback') order by id desc limit 1", [game.game_id, to]).fetchone()
    return int(row[0] or 1) if row else 1
