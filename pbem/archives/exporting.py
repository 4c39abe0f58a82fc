"""Writing a game to a file (``pbem export``): its archive (JSON: the events, sealed while the
game runs, the order mails with their passwords masked) or its readable record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import DomainError
from pbem.outfiles import out_file, write_text

if TYPE_CHECKING:
    from pbem.loop.service import Service


def export_file(service: Service, game_id: str, output: str, fmt: str = "archive", include_mail: bool = True,
                raw_mail: bool = False, gm_backup: bool = False, chance: bool = False) -> int:
    """Write ``game_id`` to ``output`` as its archive or (``fmt`` ``"record"``) its record, with
    the chance outcomes (``chance``: a record of a game that is over or historical); the bytes
    written. ``gm_backup`` keeps what is sealed while the game runs, ``raw_mail`` the mails'
    passwords too (neither is for publishing). A file that cannot be written is refused before
    the work."""
    from adjudicator.recorded import is_recorded
    from pbem.archives.archive import export_game
    from pbem.archives.records import record_of
    from turns.record import write_record

    if chance and fmt != "record":
        raise DomainError("--chance goes with --format record")
    out_file(output)  # refused before the work
    if fmt == "record":
        game = service.load(game_id)
        if chance and not game.over and not is_recorded(game.seed):
            raise DomainError(f"{game_id} is running: its chance outcomes (face-down cards, the deck, the tower) "
                              "stay secret until it ends, so --chance is for a game that is over")
        text = write_record(record_of(game, service.store.events(game_id), chance=chance,
                                      published=not (gm_backup or raw_mail)))
        write_text(output, text)
    else:
        archive = export_game(service.store, game_id, include_mail=include_mail, raw_mail=raw_mail,
                              gm_backup=gm_backup)
        write_text(output, json.dumps(archive, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    return Path(output).stat().st_size
