"""Pieces every game's report shares: who a report is for, and its footer; and what the
reports of the sequential games (one decision at a time) share: the end of "what comes
next" and a footer that lists the provisional figures in full only in the first reports."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from reports.doc import Items, Para, Section
from reports.i18n import _, ngettext
from reports.model import ReportInput
from reports.timefmt import deadline_text

GM = "@gm"
PUBLIC = "@public"


def viewer_label(viewer: str) -> str:
    """``red`` -> ``seat red``; ``@public`` -> ``the public``; ``@gm`` -> ``the game master``."""
    if viewer == PUBLIC:
        return _("the public")
    if viewer == GM:
        return _("the game master")
    return _("seat {seat}").format(seat=viewer)


def footer(inp: ReportInput, first: str, provisional_heading: str,
           describe: Callable[[Any], str] = str, short: str | None = None,
           plain: Plain | None = None) -> tuple[str, ...]:
    """The footer of every report: whom and when, the seed commitment and state hash, the
    seed once the game is over, and the provisional figures in use (``view["provisional"]``).

    The GM's report lists every provisional figure with its source and reasoning
    (``provisional_heading``, each item by ``describe``). A player's (and the public's)
    report says it in one plain line: with ``short`` (a later report) only that, counted and
    ending in ``short``; else followed by the game's short list (``plain``: the figures by
    what they are, in the game's words)."""
    missing = _("not given")
    state = _("State hash after {turn}: {hash}").format(turn=inp.turn, hash=inp.state_hash or missing)
    if inp.chance_recorded:  # a historical game: no seed to reveal
        lines = [first, _("Chance: recorded at the table, not drawn from a seed."),
                 _("Commitment (SHA-256 of the recorded chance): {hash}").format(hash=inp.seed_commitment or missing),
                 state]
    else:
        lines = [first,
                 _("Seed commitment (SHA-256 of the seed): {hash}").format(hash=inp.seed_commitment or missing), state]
    if inp.ending:
        lines.append(_("How the game ended: {ending}").format(ending=inp.ending))
    if inp.seed is not None and not inp.chance_recorded:
        lines.append(_("Seed (the game is over; check it against the commitment): {seed}").format(seed=inp.seed))
    provisional = inp.view.get("provisional") or []
    n = len(provisional)
    if not provisional:
        lines.append(_("Provisional figures in use: none."))
    elif inp.viewer == GM or (plain is None and short is None):
        lines.append(provisional_heading)
        lines += ["- " + _("provisional: {figure}").format(figure=describe(p)) for p in provisional]
    elif short is not None:
        lines.append(ngettext("PROVISIONAL: {n} figure in use is our own choice where the rules leave it open; "
                              "it may change; {where}",
                              "PROVISIONAL: {n} figures in use are our own choice where the rules leave them open; "
                              "they may change; {where}", n).format(n=n, where=short))
    else:
        lines.append(ngettext("PROVISIONAL: {n} figure in use is our own choice where the rules leave it open; "
                              "it may change. It is:",
                              "PROVISIONAL: {n} figures in use are our own choice where the rules leave them open; "
                              "they may change. They are:", n).format(n=n))
        lines += [f"- {item}" for item in plain(provisional)]  # type: ignore[misc]
        lines.append(_("The GM's report lists each with its source."))
    return tuple(lines)


#: A game's short list of its provisional figures, for players (see :func:`footer`).
Plain = Callable[[Sequence[Any]], list[str]]


def staged_footer(inp: ReportInput, first: bool, provisional_list: str, first_reports: str, heading: str,
                  plain: Plain | None = None, describe: Callable[[Any], str] = str) -> tuple[str, ...]:
    """The footer of a sequential game's report: the provisional figures listed only in its
    first reports (``first``; for a player by ``plain``, in full in the GM's), else counted
    with a pointer to where they are listed (said once, not in every mail).

    ``provisional_list`` names where players find them (``the rules reference, ...``),
    ``first_reports`` the reports that list them (``in the round 1 reports``), ``heading``
    introduces the GM's full list (each figure by ``describe``)."""
    from reports.gamenames import turn_name

    short = None if first else _("they are listed {reports} and in {where}.").format(
        reports=first_reports, where=provisional_list)
    when = turn_name(inp.game, inp.turn, inp.view, after=True)
    return footer(inp, _("Game {game}, {turn}, report for {viewer}.").format(
        game=inp.game_id, turn=when, viewer=viewer_label(inp.viewer)), heading, describe, short=short, plain=plain)


def next_section(inp: ReportInput, title: str, decision: Callable[[Mapping[str, Any]], list[Any]], note: str,
                 help_items: Callable[[str], Iterable[str]]) -> Section:
    """The "what comes next" section of a sequential game's report: "Nothing" once the game
    is over; else ``decision(pending)`` (the game's words for the pending decision), the
    order keywords accepted now, when orders are due followed by ``note``, and the game's
    order reminder (``inp.order_help``) as items, one per ``help_items(order_help)``."""
    view = inp.view
    pending = view.get("pending")
    if inp.ending:
        return Section("next", _("What comes next"), (Para(_("Nothing: the game is over. {ending}").format(
            ending=inp.ending)),))
    if view.get("over") or not pending:
        return Section("next", _("What comes next"), (Para(_("Nothing: the game is over.")),))
    blocks = decision(pending)
    forms = pending.get("forms") or []
    if forms:
        blocks.append(Para(_("Order keywords accepted now: {forms}.").format(forms=", ".join(forms))))
    due = (_("Orders are due {deadline}.").format(deadline=deadline_text(inp.deadline)) if inp.deadline else
           _("No deadline is set."))
    blocks.append(Para(f"{due} {note}"))
    if inp.order_help:
        blocks.append(Items(tuple(help_items(inp.order_help))))
    return Section("next", title, tuple(blocks))
