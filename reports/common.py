"""Pieces every game's report shares: who a report is for, and its footer; and what the
reports of the sequential games (Havoc, God's Playground) share: the end of "what comes
next" and a footer that lists the provisional figures in full only in the first reports."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from reports.doc import Items, Para, Section
from reports.model import ReportInput
from reports.timefmt import deadline_text

GM = "@gm"
PUBLIC = "@public"


def viewer_label(viewer: str) -> str:
    """``red`` -> ``seat red``; ``@public`` -> ``the public``; ``@gm`` -> ``the game master``."""
    return {PUBLIC: "the public", GM: "the game master"}.get(viewer, f"seat {viewer}")


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
    if inp.chance_recorded:  # a historical game (issue 20): no seed to reveal
        lines = [first, "Chance: recorded at the table, not drawn from a seed.",
                 f"Commitment (SHA-256 of the recorded chance): {inp.seed_commitment or 'not given'}",
                 f"State hash after {inp.turn}: {inp.state_hash or 'not given'}"]
    else:
        lines = [first,
                 f"Seed commitment (SHA-256 of the seed): {inp.seed_commitment or 'not given'}",
                 f"State hash after {inp.turn}: {inp.state_hash or 'not given'}"]
    if inp.ending:
        lines.append(f"How the game ended: {inp.ending}")
    if inp.seed is not None and not inp.chance_recorded:
        lines.append(f"Seed (the game is over; check it against the commitment): {inp.seed}")
    provisional = inp.view.get("provisional") or []
    said = (f"PROVISIONAL: {len(provisional)} figures in use are our own choice where the rules leave them "
            "open; they may change")
    if not provisional:
        lines.append("Provisional figures in use: none.")
    elif inp.viewer == GM or (plain is None and short is None):
        lines.append(provisional_heading)
        lines += [f"- provisional: {describe(p)}" for p in provisional]
    elif short is not None:
        lines.append(f"{said}; {short}")
    else:
        lines.append(f"{said}. They are:")
        lines += [f"- {item}" for item in plain(provisional)]  # type: ignore[misc]
        lines.append("The GM's report lists each with its source.")
    return tuple(lines)


#: A game's short list of its provisional figures, for players (see :func:`footer`).
Plain = Callable[[Sequence[Any]], list[str]]


def staged_footer(inp: ReportInput, first: bool, provisional_list: str, first_reports: str, heading: str,
                  plain: Plain | None = None) -> tuple[str, ...]:
    """The footer of a sequential game's report: the provisional figures listed only in its
    first reports (``first``; for a player by ``plain``, in full in the GM's), else counted
    with a pointer to where they are listed (said once, not in every mail).

    ``provisional_list`` names where players find them (``the rules reference, ...``),
    ``first_reports`` the reports that list them (``in the round 1 reports``), ``heading``
    introduces the GM's full list."""
    from reports.gamenames import turn_name

    short = None if first else f"they are listed {first_reports} and in {provisional_list}."
    when = turn_name(inp.game, inp.turn, inp.view, after=True)
    return footer(inp, f"Game {inp.game_id}, {when}, report for {viewer_label(inp.viewer)}.",
                  heading, short=short, plain=plain)


def next_section(inp: ReportInput, title: str, decision: Callable[[Mapping[str, Any]], list[Any]], note: str,
                 help_items: Callable[[str], Iterable[str]]) -> Section:
    """The "what comes next" section of a sequential game's report: "Nothing" once the game
    is over; else ``decision(pending)`` (the game's words for the pending decision), the
    order keywords accepted now, when orders are due followed by ``note``, and the game's
    order reminder (``inp.order_help``) as items, one per ``help_items(order_help)``."""
    view = inp.view
    pending = view.get("pending")
    if inp.ending:
        return Section("next", "What comes next", (Para(f"Nothing: the game is over. {inp.ending}"),))
    if view.get("over") or not pending:
        return Section("next", "What comes next", (Para("Nothing: the game is over."),))
    blocks = decision(pending)
    forms = pending.get("forms") or []
    if forms:
        blocks.append(Para("Order keywords accepted now: " + ", ".join(forms) + "."))
    due = f"Orders are due {deadline_text(inp.deadline)}." if inp.deadline else "No deadline is set."
    blocks.append(Para(f"{due} {note}"))
    if inp.order_help:
        blocks.append(Items(tuple(help_items(inp.order_help))))
    return Section("next", title, tuple(blocks))
