"""The shape of a game's registry entry (:class:`GameInfo`): each game's engine package gives
one as ``GAME`` in its ``game`` module; :mod:`adjudicator.games` lists them. This module
imports nothing of ours, so a game's entry never imports the registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameInfo:
    """One game's registry entry: what the shared code may ask about it.

    Dotted names (``module`` or ``module:attribute``) point into the game's folders of the
    other layers; a field left empty means the game has none of it (the shared code then
    does the generic thing).
    """

    #: The engine's name (``pbem new --game NAME``), as its engine's ``name``.
    name: str
    #: The module whose ``ENGINE`` plays it.
    engine: str
    #: The grammar modules (importing them registers the game's grammar, turns/base.py).
    grammar: tuple[str, ...] = ()
    #: ``order_warnings(state, seat, orders) -> list[str]``: legal orders that do nothing.
    warnings: str = ""
    #: ``render(ReportInput) -> Rendered``: the game's report renderer.
    renderer: str = ""
    #: The reports module saying a pending decision (``decision_blocks``, ``move_sections``).
    content: str = ""
    #: The reports module of the game's names: ``TITLE``, ``TITLE_OPTIONS``, ``turn_name``,
    #: and optionally ``turn_short``, ``played``, ``HAND``, ``EXPANSION_HELP``.
    names: str = ""
    #: ``heuristic_orders(state, seat, stream) -> orders``: the bot that plays an empty seat or
    #: a demo's seats (none: random legal orders).
    bot: str = ""
    #: The reports module of the game's problems in the reader's language (templates of
    #: :mod:`reports.enginetext` a problem is read against): ``ENGINE``, its engine's checks'
    #: messages; ``GRAMMAR``, its grammar's; ``NEW_ORDERS``, the words of the orders its later
    #: rules versions brought. Each may be left out (its messages are shown as written).
    problems: str = ""
    #: ``describe(event) -> str``: a chance event in words for a readable record.
    describe_event: str = ""
    #: ``public_record(turns, turn) -> list``: public moves a report shows that the view drops.
    public_record: str = ""
    #: The first segment of the game's chance labels and the words put before a label whose
    #: next segment is a number (``<root>/3/campaign/2`` -> ``round 3 campaign 2``).
    label_root: str = ""
    label_prefix: str = ""
    #: Older words of draws a record may still use: (regular expression, replacement) pairs
    #: turning the draw's words of today into the older ones.
    older_labels: tuple[tuple[str, str], ...] = ()
    #: Seat names of a demo or an open game: the engine's own colours in seat order.
    seat_names: tuple[str, ...] = ()
    #: The colours of the game's pieces (before the generic ones).
    palette: tuple[str, ...] = ()
    #: ``colours() -> Sequence[str]``: the colours of the game's pieces as its data lists them
    #: (a game whose ``palette`` is empty).
    palette_from: str = ""
    #: The players' pages (docs/): order syntax, rules, pages an option adds ((option, value, page)).
    order_pages: tuple[str, ...] = ()
    rules_pages: tuple[str, ...] = ()
    option_pages: tuple[tuple[str, str, str], ...] = ()
    #: A transcriber's hints for the first turn's chance lines (``pbem record template``).
    transcribe_hints: tuple[str, ...] = ()
    #: A module with ``setup_notes(state) -> list[str]`` and ``trimmed(line, state) -> str``
    #: for a transcriber's skeleton record.
    transcribe: str = ""
    #: The decision name the game's standing orders use for a pending decision (None: its kind).
    standing_when: Callable[[Any], str] | None = None
    #: What the site's score chart counts along its axis (empty: the turn names say it).
    chart_unit: str = ""
    #: A line ``pbem demo`` adds to its summary.
    demo_note: str = ""
    #: Anything else a game's own modules want to find through its entry.
    extra: dict[str, Any] = field(default_factory=dict)
