"""Seat colours: a seat named after a colour of its game gets that colour; otherwise the
colour the GM picked (``--seat name=email:colour``), else the next free colour of the game.

The colours are fixed when the game is created (``GameCreated.colors``, recorded where they
differ from the engine's own). :func:`of_game` is the one source every output takes them from:
the views of reports, maps, charts, the site and ``pbem show``/``replay --seat`` (:func:`seat_view`),
and the ``seat_colors`` of ``pbem show --json``, so legends, maps and texts agree with the seat
names (seats called red/blue/green/yellow are drawn red, blue, green and yellow).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.errors import DomainError

#: Colours every game may use, in the order free colours are handed out.
GENERIC = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")


def palette(engine_name: str) -> tuple[str, ...]:
    """The colours of a game's pieces (its registry entry's ``palette``, or those its
    ``palette_from`` gives), then the generic ones."""
    from adjudicator import games

    listed = games.hook(engine_name, "palette_from")
    own = tuple(games.info(engine_name).palette or (listed() if listed is not None else ()))
    return own + tuple(c for c in GENERIC if c not in own)


def split_colour(value: str) -> tuple[str, str | None]:
    """``anna@example.org:green`` -> (``anna@example.org``, ``green``); no colour -> None."""
    address, sep, colour = value.rpartition(":")
    if sep and colour.strip().lower() in GENERIC:
        return address.strip(), colour.strip().lower()
    return value, None


def assign(engine_name: str, seats: Sequence[str], chosen: Mapping[str, str] | None = None) -> dict[str, str]:
    """A colour per seat: the seat's own name when it is a colour of the game, else the GM's
    choice, else the next free colour; two seats never share one."""
    colours = palette(engine_name)
    chosen = {s: c.lower() for s, c in (chosen or {}).items()}
    for seat, colour in chosen.items():
        if colour not in colours:
            raise DomainError(f"seat {seat}: {colour!r} is not a colour of this game ({', '.join(colours)})")
    out: dict[str, str] = {}
    for seat in seats:  # rule: a seat named after a colour gets it
        if seat.lower() in colours and seat not in chosen:
            out[seat] = seat.lower()
    for seat, colour in chosen.items():
        if colour in out.values():
            raise DomainError(f"seat {seat}: colour {colour} is already taken")
        out[seat] = colour
    free = [c for c in colours if c not in out.values()]
    for seat in seats:
        if seat not in out:
            out[seat] = free.pop(0)
    return {s: out[s] for s in seats}


def of_game(game: Any) -> dict[str, str]:
    """The colour of each seat of ``game``, in seat order: as recorded at its creation, else
    the engine's own (recorded only where they differ), else as :func:`assign` hands them out
    (a game made before seat colours were recorded)."""
    recorded = game.created.get("colors")
    seats = list(game.seats)
    if isinstance(recorded, dict) and all(isinstance(recorded.get(s), str) for s in seats):
        return {s: recorded[s] for s in seats}
    from adjudicator.base import GM

    shown = of_view(game.engine.view(game.state, GM))
    if shown and all(shown.get(s) in palette(game.engine.name) for s in seats):
        return {s: shown[s] for s in seats}
    return assign(game.engine.name, seats)


def seat_view(game: Any, viewer: str) -> Any:
    """The engine's view of ``game`` for ``viewer`` with each seat's colour the game's."""
    return apply(game.engine.view(game.state, viewer), of_game(game))


def of_view(view: Any) -> dict[str, str] | None:
    """The seat colours a view gives (None when its seats carry no colour)."""
    seats = view.get("seats") if isinstance(view, dict) else None
    if not isinstance(seats, dict):
        return None
    return {s: str(v.get("color")) for s, v in seats.items() if isinstance(v, dict)}


def apply(view: Any, colours: Mapping[str, str] | None) -> Any:
    """``view`` with each seat's ``color`` replaced by the game's seat colour (a copy)."""
    seats = view.get("seats") if isinstance(view, dict) else None
    if not colours or not isinstance(seats, dict):
        return view
    out = copy.copy(view)
    out["seats"] = {s: ({**v, "color": colours.get(s, v.get("color"))} if isinstance(v, dict) else v)
                    for s, v in seats.items()}
    return out
