"""How often mail may make the club do something: counted in the guard log (:mod:`pbem.mailin.guard`).

Every club command that mail makes the service carry out or answer is a ``command`` row of
the guard log (detail: the command word), for the seat it concerns or, for commands that need
no seat (LIST, JOIN, OBSERVE, STATS, ...), for the sender's address. Over :data:`PER_WINDOW`
of one command in :data:`pbem.mailin.guard.WINDOW`, the command is refused: a ``limited`` row, and
no answer at all to a command outside a GAME block (a forged From must not make us mail a
third party again and again); inside a GAME block the mail's one reply says so.
"""

from __future__ import annotations

from typing import Any

from pbem.mailin import guard

#: The most answers to one command per seat (or address) in the guard's window.
PER_WINDOW = {"LIST": 6, "JOIN": 6, "LEAVE": 6, "OBSERVE": 6, "STOP": 6, "STANDBY": 6, "STATS": 6, "ADDRESS": 4,
              "ABSENT": 10, "BACK": 10, "DRAW": 10, "CONCEDE": 10, "RESIGN": 4, "LANGUAGE": 6}
DEFAULT = 6


def allow(store: Any, command: str, address: str | None, game_id: str | None = None, seat: str | None = None,
          mail_key: str | None = None) -> bool:
    """True (and a ``command`` row noted) when ``command`` may be carried out; False (and a
    ``limited`` row noted) when the seat, or else the address, has used it up in the window."""
    limit = PER_WINDOW.get(command, DEFAULT)
    where = {"game_id": game_id, "seat": seat} if seat else {"address": (address or "").lower()}
    used = guard.count(store, [guard.COMMAND], guard.since(store), detail=command, **where)
    if used >= limit:
        guard.note(store, guard.LIMITED, game_id, seat, address, command, mail_key)
        return False
    guard.note(store, guard.COMMAND, game_id, seat, (address or "").lower() or None, command, mail_key)
    return True


def refused(command: str) -> str:
    """The one line of a reply that refuses a command over its limit."""
    return (f"{command} was not carried out: it was used {PER_WINDOW.get(command, DEFAULT)} times in the last "
            "24 hours, the most allowed; try again tomorrow")
