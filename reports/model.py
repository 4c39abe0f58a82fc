"""The values that cross the reports API: what the shell passes in, what comes back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ReportInput:
    """Everything a report may show. ``view`` is ``engine.view(state, viewer)``: the only
    game data a renderer gets, so nothing hidden from ``viewer`` can reach its report.

    ``history`` has one entry per adjudicated turn so far (public figures only):
    ``{"turn": "1618-spring", "scores": {seat: vp}, "armies": {seat: n}}``, plus ``money``
    ({seat: n}) where the view shows each seat's money and ``reported`` (a report went out
    after that turn).

    ``recent`` lists the turns since the last report before this one, oldest first, each as
    ``{"turn": label, "events": [derived events]}``, each event as ``viewer`` may see it
    (``adjudicator.base.visible_events``: the engine's ``event_view`` redacts or drops it; an
    engine without one shows its events to the GM only); a renderer tells from them what
    happened since the viewer's last report.

    ``record`` is the public record of the moves since the last report that the view does not
    keep (the game's ``public_record`` of its registry entry: e.g. the cards each seat took
    from the recruits and laid into them before a battle, as the table saw them; a card drawn
    from the deck is ``None``).

    ``ending`` is the shell's sentence saying how the players ended the game (a draw, a
    concession, resignations; empty while the game runs or when its rules ended it): the report
    flags it on top, says it in "what comes next" and in its footer.

    ``language`` is the reader's (a code of :data:`reports.i18n.LANGUAGES`): every text of the
    report, its pictures' labels and its numbers and dates are written in it.
    """

    game_id: str
    game: str
    viewer: str
    turn: str
    view: dict[str, Any]
    history: list[dict[str, Any]] = field(default_factory=list)
    seed_commitment: str = ""
    state_hash: str = ""
    seed: str | None = None
    chance_recorded: bool = False  # a historical game: its chance outcomes were recorded, not drawn
    deadline: str | None = None
    order_help: str = ""
    recent: list[dict[str, Any]] = field(default_factory=list)
    record: list[dict[str, Any]] = field(default_factory=list)
    ending: str = ""
    #: Each seat's colour name as the game has it (the one source of seat colours: pbem.mailout.colours);
    #: a renderer draws a seat in it, whatever the view's shape.
    seat_colors: dict[str, str] = field(default_factory=dict)
    language: str = "en"


@dataclass
class Rendered:
    """A rendered report: the text body, the HTML part and the pictures it refers to.

    The HTML refers to each picture by its file name (``<img src="map.png">``), so it
    opens in a browser next to the files written by :func:`reports.files.write_report`;
    :func:`reports.message.to_message` rewrites the names to ``cid:`` references.
    """

    text: str
    html: str
    images: dict[str, bytes] = field(default_factory=dict)
