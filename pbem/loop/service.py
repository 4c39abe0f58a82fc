"""The GM's operations on games: the imperative shell around the pure engines.

Every operation loads the game from its events, calls the pure engine, and appends the
resulting events together with the outbox mail they cause in ONE transaction (so a crash
never leaves half a turn, and nothing is recorded twice).
"""

from __future__ import annotations

from pbem.loop.correcting import Correcting
from pbem.loop.creating import Created, Creating  # noqa: F401 - Created: new_game's result
from pbem.loop.deadlines import parse_deadline  # noqa: F401  (kept importable from here)
from pbem.loop.playing import Playing, Submitted  # noqa: F401 - Submitted: submit's result
from pbem.loop.reading import (_CACHE, CACHE_GAMES, Reading, club_ended, planned_seats,  # noqa: F401 - named here
                               rules_fields, submitted_and_awaiting)
from pbem.store.projection import final_winner  # noqa: F401 - named here


class Service(Reading, Creating, Playing, Correcting):
    """Game operations over one :class:`pbem.store.db.Store`: reading games
    (:class:`~pbem.loop.reading.Reading`), creating them (:class:`~pbem.loop.creating.Creating`),
    recording orders and adjudicating (:class:`~pbem.loop.playing.Playing`) and the GM's
    corrections (:class:`~pbem.loop.correcting.Correcting`)."""
