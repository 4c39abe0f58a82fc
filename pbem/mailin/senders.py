"""Which addresses the games know: every seat's registered address and the ones allowed for it.

Ingest asks this before it spends anything on a mail: a mail from an address that no game
knows is never answered (anyone can write any address into ``From:``, and a reply would mail
a third party: backscatter), and its GAME blocks cost no password hash. The addresses are those
of the ``GameCreated`` and ``SeatChanged`` events of every game (running or over), looked up
once per address and ingest run in the index of seat addresses the store keeps with every
event (:meth:`Registry.seats_of`); ``pbem ingest --retry-rejected`` reads again the mails
ignored before an address was allowed.
"""

from __future__ import annotations

from typing import Any

from pbem.store.db import Store

_SEATS = """
select e.game_id, json_extract(s.value, '$.name'), json_extract(s.value, '$.email'),
       json_extract(s.value, '$.addresses'), e.seq
from games g join events e on e.game_id = g.game_id and e.seq = 1, json_each(e.payload, '$.seats') s
where e.type = 'GameCreated'
union all
select game_id, json_extract(payload, '$.seat'), json_extract(payload, '$.email'),
       json_extract(payload, '$.addresses'), seq
from events where type = 'SeatChanged'
order by 1, 5
"""


class Registry:
    """The (game, seat) pairs of each address, looked up one address at a time in the store's
    index of seat addresses (:mod:`pbem.store.projection`, kept with every event), so a mail costs
    one indexed query whatever the number of games; games whose index is behind their log (an
    older pbem's) are read from their events instead. Each address is looked up once per run."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._found: dict[str, set[tuple[str, str]]] = {}
        self._stale: dict[str, set[tuple[str, str]]] | None = None

    def seats_of(self, address: str | None) -> set[tuple[str, str]]:
        """The (game, seat) pairs whose registered or allowed addresses include ``address``."""
        if not address:
            return set()
        address = address.strip().lower()
        found = self._found.get(address)
        if found is None:
            from pbem.store import projection

            found = set(projection.games_of_address(self.store, address, running=False))
            found |= self._stale_seats().get(address, set())
            if len(self._found) > 10_000:  # a run over a huge mailbox: keep the memory flat
                self._found.clear()
            self._found[address] = found
        return set(found)

    def knows(self, address: str | None) -> bool:
        """True when some seat of some game has registered or allowed ``address``."""
        return bool(self.seats_of(address))

    def _stale_seats(self) -> dict[str, set[tuple[str, str]]]:
        """The addresses of the games whose index is behind their log, from their events."""
        if self._stale is None:
            from pbem.store import projection

            self._stale = self._read(projection.stale_games(self.store))
        return self._stale

    def _read(self, game_ids: list[str]) -> dict[str, set[tuple[str, str]]]:
        import json

        wanted = set(game_ids)
        seats: dict[tuple[str, str], dict[str, Any]] = {}
        for game_id, seat, email, allowed, _ in (self.store.conn.execute(_SEATS) if wanted else ()):
            if not isinstance(seat, str) or game_id not in wanted:
                continue
            row = seats.setdefault((game_id, seat), {"email": None, "addresses": []})
            if isinstance(email, str):  # a SeatChanged replaces what it names (as the fold does)
                row["email"] = email
            try:
                listed = json.loads(allowed) if isinstance(allowed, str) else None
            except ValueError:
                listed = None
            if isinstance(listed, list):
                row["addresses"] = listed
        by_address: dict[str, set[tuple[str, str]]] = {}
        for pair, row in seats.items():
            for address in {a.strip().lower() for a in [row["email"], *row["addresses"]] if isinstance(a, str)}:
                by_address.setdefault(address, set()).add(pair)
        return by_address
