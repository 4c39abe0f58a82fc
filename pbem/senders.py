"""Which addresses the games know: every seat's registered address and the ones allowed for it.

Ingest asks this before it spends anything on a mail: a mail from an address that no game
knows is never answered (anyone can write any address into ``From:``, and a reply would mail
a third party: backscatter), and its GAME blocks cost no password hash. The addresses are read
from the ``GameCreated`` and ``SeatChanged`` events of every game (running or over), once per
ingest run, and read again only when a game was created since (:meth:`Registry.seats_of`); a
seat's address changed by ``pbem seat`` while an ingest runs is seen by the next run, and
``pbem ingest --retry-rejected`` reads again the mails ignored meanwhile.
"""

from __future__ import annotations

from typing import Any

from pbem.store import Store

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
    """The addresses of every seat of every game of one store, read when first needed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._by_address: dict[str, set[tuple[str, str]]] | None = None
        self._games: Any = None

    def seats_of(self, address: str | None) -> set[tuple[str, str]]:
        """The (game, seat) pairs whose registered or allowed addresses include ``address``."""
        if not address:
            return set()
        address = address.strip().lower()
        if self._by_address is None:
            self._load()
        assert self._by_address is not None
        found = self._by_address.get(address)
        if found is None and self._games != self._marker():  # a game created since: read again
            self._load()
            found = self._by_address.get(address)
        return set(found or ())

    def knows(self, address: str | None) -> bool:
        """True when some seat of some game has registered or allowed ``address``."""
        return bool(self.seats_of(address))

    def _marker(self) -> Any:
        return self.store.conn.execute("select count(*), max(created_at) from games").fetchone()

    def _load(self) -> None:
        import json

        self._games = self._marker()
        seats: dict[tuple[str, str], dict[str, Any]] = {}
        for game_id, seat, email, allowed, _ in self.store.conn.execute(_SEATS):
            if not isinstance(seat, str):
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
        self._by_address = by_address
