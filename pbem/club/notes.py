"""The club's events as notes of a game's readable record (:mod:`pbem.archives.records`).

A record is a list of turns; what the club recorded while a turn was pending (an absence, a
civil disorder, a resignation, a seat's return, the votes of a round that ended, observers
coming and going) becomes a ``;`` note of that turn. Votes are noted only once their round
is closed (``VotesClosed``) or the game ended: never the secret votes of an open round.
"""

from __future__ import annotations

from typing import Any


def turns(n: Any) -> str:
    """``1 missed turn``, ``2 missed turns`` (in the current language)."""
    from reports.i18n import ngettext

    return ngettext("{n} missed turn", "{n} missed turns", n if isinstance(n, int) else 2).format(n=n)


def note(ev: Any) -> str | None:
    """The note of one club event (None: nothing to note)."""
    p = ev.payload
    if not isinstance(p, dict) or "sealed" in p:
        return None
    kind = ev.type
    if kind == "AbsenceDeclared":
        return f"{p.get('seat')} away from {p.get('from')} to {p.get('to')}" + (" (noted by the GM)" if p.get("by") == "gm" else "")
    if kind == "AbsenceEnded":
        return f"{p.get('seat')} back from the absence"
    if kind == "CivilDisorder":
        why = {"missed": f"after {turns(p.get('missed'))} in a row", "gm": "by the GM",
               "start": "from the start: nobody took the seat"}.get(str(p.get("by")), "")
        return f"{p.get('seat')} in civil disorder {why}; the bot plays it".replace("  ", " ")
    if kind == "SeatReturned":
        how = {"password": "its player came back", "replacement": "a new player took it", "gm": "given back by the GM"}
        return f"{p.get('seat')} played by a player again: {how.get(str(p.get('how')), p.get('how'))}"
    if kind == "SeatResigned":
        return f"{p.get('seat')} resigned; the bot plays it to the end"
    if kind == "VotesClosed":
        parts = [f"draw votes: {', '.join(p.get('draw') or []) or 'none'}"]
        parts += [f"{s} conceded to {', '.join(to)}" for s, to in sorted((p.get("concede") or {}).items())]
        return "voting round closed without an ending: " + "; ".join(parts)
    if kind == "GameEnded":
        return f"the game ended: {p.get('how')} ({', '.join(p.get('seats') or [])})"
    if kind == "ObserverAdded":
        return f"observer {p.get('observer')} follows the game"
    if kind == "ObserverRemoved":
        return f"observer {p.get('observer')} stopped following the game"
    return None


def site_lines(events: list[Any]) -> list[str]:
    """The notes of the club's events as a site lists them: one line each, with its turn."""
    turns = {e.seq: e.payload.get("turn") for e in events if e.type == "TurnAdjudicated"}
    out = []
    for seq, notes in sorted(turn_notes(events).items()):
        where = f"{turns[seq]}: " if seq in turns else ""
        out += [where + note for note in notes]
    return out


def turn_notes(events: list[Any]) -> dict[int, list[str]]:
    """The notes of the club's events, by the ``seq`` of the ``TurnAdjudicated`` of the turn they
    belong to: the turn that was pending when they were recorded (a closed vote: its round's
    last turn); what came after the last adjudication goes with it (``0``: no turn yet)."""
    out: dict[int, list[str]] = {}
    waiting: list[str] = []
    last = 0
    for ev in events:
        if ev.type == "TurnAdjudicated":
            if waiting:
                out.setdefault(ev.seq, []).extend(waiting)
                waiting = []
            last = ev.seq
            continue
        text = note(ev)
        if text is None:
            continue
        if ev.type == "VotesClosed" and last:  # recorded right after the adjudication that closed the round
            out.setdefault(last, []).append(text)
        else:
            waiting.append(text)
    if waiting:
        out.setdefault(last, []).extend(("after it: " if last else "") + t for t in waiting)
    return out
