"""Importing a game from a file (``pbem import``): an archive, verified first and stored
verbatim, or a record, replayed (a historical game's CHANCE lines checked) and its recorded
state hashes reproduced."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem.errors import DomainError

if TYPE_CHECKING:
    from pbem.archives.archive import Verification
    from pbem.store.db import Store
    from pbem.store.events import Game


@dataclass
class Imported:
    """What an import made: from an ``archive`` its verification and the rules it names
    (``engine``, ``engine_version``); from a ``record`` the game replayed, how many recorded
    state hashes were reproduced, and whether its chance was recorded (a historical game)."""

    kind: str
    verification: Verification | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    game: Game | None = None
    hashes_checked: int = 0
    historical: bool = False


def import_file(store: Store, path: str, game_id: str | None = None, until: str | None = None) -> Imported:
    """Import the archive or record at ``path`` into ``store``; a record under ``game_id`` (else
    its own) and only up to the turn ``until``. Anything wrong is a one-line :class:`DomainError`
    naming the file, and nothing is stored."""
    from adjudicator.recorded import is_recorded
    from pbem.archives.archive import import_archive
    from pbem.archives.records import import_record
    from pbem.archives.replaying import read_archive_or_record
    from turns.record import RecordError, read_record

    kind, data = read_archive_or_record(path)
    if until is not None and kind == "archive":
        raise DomainError("--until goes with a record; an archive is imported whole")
    if kind == "archive":
        return Imported(kind, verification=import_archive(store, data),
                        rules={"engine": data.get("engine"), "engine_version": data.get("engine_version")})
    try:
        game = import_record(store, data, game_id, until)
    except RecordError as exc:
        raise DomainError(f"{path}: {exc}") from None
    except RecursionError:
        raise DomainError(f"{path}: nested too deep to be a record") from None
    hashes = sum(1 for t in read_record(data).turns[:len(game.turns)] if t.state_hash)
    return Imported(kind, game=game, hashes_checked=hashes, historical=is_recorded(game.seed))
