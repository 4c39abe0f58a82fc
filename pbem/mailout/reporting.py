"""Turning an adjudicated turn into reports: rendered by ``reports/``, queued as mail.

Every seat gets a report built from its own view; the GM's mailbox (the sender address)
gets the GM report and the public report. ``pbem report`` renders the same files to a
directory for any earlier turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.base import GM, PUBLIC, visible_events
from pbem.mailout import colours
from pbem.store import turnhistory
from pbem.store.events import Game
from pbem.mailout.languages import seat_language
from pbem.store.turnhistory import history_entry  # noqa: F401  (kept importable from here)
from pbem.mailout.mailbase import MAIL_POLICY, LOOP_HEADER, Outgoing, TextOutgoing, address_of, domain_of, thread_id
from pbem.store.db import Store, StoredEvent
from reports.i18n import N_
from reports.message import to_message
from reports.model import ReportInput, Rendered
from reports.render import UnknownGame, render_report


@dataclass
class TurnReport:
    """One viewer's rendered report of one turn."""

    viewer: str
    turn: str
    rendered: Rendered


def viewers(game: Game) -> list[str]:
    """Every viewer a turn's reports are made for: the seats, the public, the GM."""
    return [*game.seats, PUBLIC, GM]


def history(game_id: str, events: list[StoredEvent], seed: str, until: str | None = None) -> list[dict[str, Any]]:
    """Public figures after each adjudicated turn (up to and including ``until``), by a replay
    (:func:`pbem.store.turnhistory.of_game` reads them from the store)."""
    return [{k: v for k, v in e.items() if k != "seq"} for e in turnhistory.replayed(game_id, events, seed, until)]


def recent_turns(game: Game, history: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]]:
    """The turns since the last report before the current one (oldest first), each with its
    derived events as ``viewer`` may see them (the engine's ``event_view``): what a report
    tells happened since the viewer's previous report."""
    reported = {h["turn"] for h in history if h.get("reported")}
    out: list[dict[str, Any]] = []
    for i, t in enumerate(reversed(game.turns)):
        if i > 0 and t["turn"] in reported:
            break
        out.append({"turn": t["turn"], "events": visible_events(game.engine, t.get("events") or [], viewer)})
    return out[::-1]


def order_help(engine_name: str, options: dict[str, Any] | None = None) -> str:
    """The short order-syntax reminder of a game's grammar (the ``ORDER_HELP`` of its first
    grammar module, if it has one), with the lines the expansion ``options`` turn on (the
    ``EXPANSION_HELP`` of the game's names module)."""
    from adjudicator import games

    grammar = games.hook(engine_name, "grammar")
    text = str(getattr(grammar[0], "ORDER_HELP", "")) if grammar else ""
    expansions = getattr(games.hook(engine_name, "names"), "EXPANSION_HELP", {})
    extra = expansions.get(str((options or {}).get("expansion", "")), "")
    return text + extra if text else extra


#: The line of every grammar's reminder that is no order (the order lines are the
#: catalogue's through the extraction of ``ORDER_HELP``; a game's own such lines are in its
#: names module).
HELP_FRAMES = (N_("The whole syntax: mail HELP ORDERS."),)


def order_help_text(text: str) -> str:
    """A game's order reminder (:func:`order_help`) in the current language, line by line: a
    line the catalogue has whole, else the description after its order syntax (three spaces
    part them), the order words kept. The same reminder in the same language is worked out
    once per process (the catalogues do not change while it runs)."""
    from reports.i18n import current

    key = (text, current().language)
    found = _HELP_TEXTS.get(key)
    if found is None:
        if len(_HELP_TEXTS) > 64:
            _HELP_TEXTS.clear()
        found = _HELP_TEXTS[key] = _help_text(text)
    return found


_HELP_TEXTS: dict[tuple[str, str], str] = {}


def _help_text(text: str) -> str:
    """:func:`order_help_text`, worked out."""
    import re

    from reports.i18n import _

    out = []
    for raw in text.rstrip("\n").split("\n"):
        indent, line = raw[:len(raw) - len(raw.lstrip())], raw.strip()
        said = _(line) if line else line
        if said == line and line:
            parts = re.split(r"(\s{3,})", line, maxsplit=1)
            if len(parts) == 3:
                said = parts[0] + parts[1] + _(parts[2])
        out.extend(_fold(indent + said))
    return "\n".join(out) + "\n"


def _fold(line: str) -> list[str]:
    """A reminder line longer than a mail line (72 characters, an accented letter counted as
    one) folded at its spaces, each continuation indented four more than the line."""
    import textwrap

    from pbem.mailout.mailbase import WIDTH

    if len(line) <= WIDTH:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    return textwrap.wrap(line, WIDTH, initial_indent="", subsequent_indent=indent + "    ",
                         break_long_words=False, break_on_hyphens=False, drop_whitespace=True) or [line]


def public_record(game: Game, turn: str) -> list[dict[str, Any]]:
    """The public moves the view does not keep, for the report after ``turn`` (the game's own
    ``public_record`` of its registry entry; none for a game without one)."""
    from adjudicator import games

    moves = games.hook(game.engine.name, "public_record")
    return list(moves(game.turns, turn)) if moves is not None else []


_CACHE: dict[str, Rendered] = {}


def _cached(inp: ReportInput) -> Rendered:
    """Render ``inp``, reusing an identical earlier render in this process (pure function)."""
    import hashlib

    from adjudicator.base import canonical_json

    key = hashlib.sha256(canonical_json(inp.__dict__).encode("utf-8")).hexdigest()
    if key not in _CACHE:
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = render_report(inp)
    return _CACHE[key]


def in_seat_order(value: Any, seats: list[str]) -> Any:
    """``value`` with every mapping's keys in one fixed order: seats in seating order first,
    then the other keys by name. A state rebuilt from a snapshot and one replayed from the
    events hold their dicts in different orders; reports built from this form do not differ."""
    return _ordered(value, {s: i for i, s in enumerate(seats)})


def _ordered(value: Any, rank: dict[str, int]) -> Any:
    """:func:`in_seat_order` with the seats' ranks worked out once (the seats by rank, then
    the other keys by name: both sorts are stable, as one sort by ``(seat?, rank, name)``)."""
    if isinstance(value, dict):
        if rank.keys().isdisjoint(value):
            keys = sorted(value, key=str)
        else:
            keys = sorted((k for k in value if k in rank), key=rank.__getitem__) + \
                sorted((k for k in value if k not in rank), key=str)
        out = {}
        for k in keys:
            v = value[k]
            out[k] = _ordered(v, rank) if isinstance(v, (dict, list)) else v
        return out
    if isinstance(value, list):
        return [_ordered(v, rank) if isinstance(v, (dict, list)) else v for v in value]
    return value


#: The games whose report renderer this process has imported and frozen (:func:`renderer_ready`).
_READY: set[str] = set()


def renderer_ready(game: str) -> None:
    """Import the report renderer of game ``game`` and freeze what the process holds by then.

    A renderer imports matplotlib, numpy, Pillow and jinja2: some 75,000 objects that live as
    long as the process, which the garbage collector walked at every full collection (a
    season's reports set one off every other season: 70-130 ms each, more than a third of a
    season). Frozen (``gc.freeze``, as the command line does with what it imported at its
    start, :func:`pbem.cli.main.main`) they are walked no more; objects made from here on are
    collected as before. Once per game and process."""
    if game in _READY:
        return
    import gc

    from adjudicator import games

    games.hook(game, "renderer")
    gc.freeze()
    _READY.add(game)


def render_turn(game: Game, payload: dict[str, Any], history: list[dict[str, Any]],
                only: list[str] | None = None, ending: str = "") -> list[TurnReport]:
    """Render the reports of ``game`` (the state right after ``payload``'s turn); ``ending``: how
    the players ended the game (:mod:`pbem.club.endings`), said by every report."""
    renderer_ready(game.engine.name)
    out = []
    ordered = in_seat_order(history, list(game.seats))  # public: the same for every viewer
    for viewer in only or viewers(game):
        view = in_seat_order(colours.seat_view(game, viewer), list(game.seats))
        inp = ReportInput(game_id=game.game_id, game=game.engine.name, viewer=viewer, turn=payload["turn"],
                          view=view, history=ordered, seed_commitment=game.created["commitment"],
                          seat_colors=colours.of_game(game),
                          state_hash=game.state_hash, seed=game.seed if payload.get("over") else None,
                          chance_recorded=game.created.get("chance") == "recorded", deadline=game.deadline,
                          order_help=order_help(game.engine.name, game.created.get("options")),
                          recent=recent_turns(game, history, viewer),
                          record=public_record(game, payload["turn"]), ending=ending,
                          language=seat_language(game, viewer))
        rendered = _cached(inp)
        if game.created.get("branch"):  # a branch's reports say so
            from pbem.mailout.branchmark import banner, with_banner

            rendered = with_banner(rendered, str(banner(game.created)))
        out.append(TurnReport(viewer, payload["turn"], rendered))
    return out


def turn_messages(game: Game, payload: dict[str, Any], sender: str, store: Store) -> list[Outgoing | TextOutgoing]:
    """Report mails for every seat, the public and the GM after ``payload``'s turn (the
    figures of the earlier turns read from ``store``, :func:`pbem.store.turnhistory.of_game`); a seat
    that asked for the digest (``DIGEST ON``) gets the report's text alone, without pictures."""
    if not _reports_due(game, payload):
        return []
    try:
        reports = render_turn(game, payload, turnhistory.of_game(store, game, save=not store.readonly))
    except UnknownGame:
        return []
    domain = domain_of(sender)
    public = game.engine.view(game.state, PUBLIC)  # names the turn (a battle...) in the subject
    messages: list[Outgoing | TextOutgoing] = []
    for report in reports:
        to = game.seats[report.viewer]["email"] if report.viewer in game.seats else address_of(sender)
        who = {GM: "GM", PUBLIC: "public"}.get(report.viewer, report.viewer)
        language = seat_language(game, report.viewer)
        subject = report_subject(game, payload["turn"], report.viewer, language, public)
        msgid = f"<report.{game.game_id}.{game.mail_key(payload['turn'])}.{who}@{domain}>"
        if report.viewer in game.seats and game.wants_digest(report.viewer):
            from reports.i18n import speaking

            with speaking(language):
                messages.append(digest_message(game, to, subject, msgid, sender, report.rendered.text))
            continue
        msg = to_message(report.rendered, to=to, sender=sender, subject=subject, message_id=msgid,
                         in_reply_to=thread_id(game, sender), references=[thread_id(game, sender)],
                         language=language, mail_policy=MAIL_POLICY)
        msg[LOOP_HEADER] = "report"
        kind = "report" if report.viewer in game.seats else f"report-{who.lower()}"
        messages.append(Outgoing(to, subject, msg, kind))
    return messages


def digest_message(game: Game, to: str, subject: str, msgid: str, sender: str, text: str) -> TextOutgoing:
    """A seat's report as plain text alone (no HTML part, no pictures): the digest a seat asks
    for with ``DIGEST ON``."""
    from pbem.mailout.mailbase import language_headers
    from reports.i18n import _

    thread = thread_id(game, sender)
    headers = [("From", sender), ("To", to), ("Subject", subject), ("Message-ID", msgid), (LOOP_HEADER, "report"),
               ("In-Reply-To", thread), ("References", thread), *language_headers()]
    note = _("(You asked for your reports as plain text without pictures: DIGEST ON. A block with the one line "
             "DIGEST OFF brings the pictures back.)")
    import textwrap

    return TextOutgoing(to, subject, headers, text.rstrip() + "\n\n" + textwrap.fill(note, 72) + "\n", "report")


def report_subject(game: Game, turn: str, viewer: str, language: str, public: Mapping[str, Any]) -> str:
    """The subject of the report mail after ``turn`` to ``viewer``, in the reader's language:
    ``[g1] spring 1618: report for red`` (``public``: the public view right after the turn)."""
    from reports.gamenames import turn_name
    from reports.i18n import _, speaking

    with speaking(language):
        name = turn_name(game.engine.name, turn, public, after=True)
        who = {GM: _("GM"), PUBLIC: _("public")}.get(viewer, viewer)
        return _("[{game}] {turn}: report for {who}").format(game=game.game_id, turn=name, who=who)


def _reports_due(game: Game, payload: dict[str, Any]) -> bool:
    return turnhistory.reports_due(game, payload)
