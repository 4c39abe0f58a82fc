"""Rebuilding a game from its events only (``pbem replay``): a game of the database or an
archive file, its hash chain and, with ``verify``, every derived event, chance draw and state
hash checked again; an archive exported while the game ran can be checked against the
finished game (``earlier``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.archives.archive import Verification, unverifiable_parts, verify_archive, verify_replay
from pbem.archives.archive_shape import parse_json, read_text
from pbem.errors import DomainError
from pbem.store.events import Game, ReplayMismatch, SeedUnknown, fold

if TYPE_CHECKING:
    from pbem.store.db import Store

#: Made for a verifying replay of ``game_id`` with ``turns`` turns: a context giving the
#: function told of each turn replayed (None: no progress is shown).
Progress = Callable[[str, int], AbstractContextManager[Callable[[int], None] | None]]


@dataclass
class Replayed:
    """A replay: the events read, the verification made (``verify``), and the game rebuilt,
    None when its seed is not known here (a running game's archive: the chain was checked)."""

    game_id: str
    events: list[Any]
    chain: Verification | None
    game: Game | None


def read_archive_or_record(path: str) -> tuple[str, Any]:
    """``("archive", parsed JSON)`` or ``("record", text)``: size, encoding and nesting checked."""
    text = read_text(path)
    if text.lstrip().startswith("{"):
        return "archive", parse_json(path, text)
    return "record", text


def replay(open_store: Callable[[], Store], target: str, until: str | None = None, verify: bool = False,
           earlier: str | None = None, progress: Progress | None = None) -> Replayed:
    """Rebuild ``target`` (a game id of the store ``open_store`` gives, called only for one, so
    an archive file needs no database; or an archive file) up to the turn ``until``
    (default: all); with ``verify`` check its chain and replay, and with ``earlier`` an archive
    exported while it ran against it. A log that does not verify, a turn it lacks or an unknown
    seed without ``verify`` is a one-line :class:`DomainError`."""
    if earlier is not None and not (verify and Path(target).is_file()):
        raise DomainError("--earlier goes with --verify of an archive file")
    if Path(target).is_file():
        _, archive = read_archive_or_record(target)
        if not isinstance(archive, dict):
            raise DomainError("replay takes an archive file; import a record with 'pbem import'")
        events, seed, game_id = _archive_parts(archive)
        chain = verify_archive(archive) if verify else None
    else:
        game_id = target
        store = open_store()
        store.require_game(game_id)
        events = store.events(game_id)
        seed = store.secrets(game_id)[0]
        chain = Verification(game_id, problems=store.verify(game_id)) if verify else None
        if chain is not None and chain.ok:
            turns = sum(1 for e in events if e.type == "TurnAdjudicated")
            with (progress or _silent)(game_id, turns) as told:
                chain = verify_replay(game_id, events, seed, chain, progress=told)
            chain.unverifiable += unverifiable_parts([])
    if chain is not None and not chain.ok:
        raise DomainError(f"{game_id} does not verify: " + "; ".join(chain.problems))
    if earlier is not None and chain is not None:
        _check_earlier(earlier, events, seed, chain)
    try:
        game = fold(game_id, events, seed, until_turn=until)
    except SeedUnknown as exc:
        if chain is None:
            raise DomainError(f"{exc}; 'pbem replay {game_id} --verify' checks what can be checked") from None
        return Replayed(game_id, events, chain, None)  # what could and could not be checked
    except ReplayMismatch as exc:
        raise DomainError(str(exc)) from None
    if until is not None and (not game.turns or game.turns[-1]["turn"] != until):
        raise DomainError(f"{game_id} has no adjudicated turn {until!r}")
    return Replayed(game_id, events, chain, game)


def _silent(game_id: str, turns: int) -> AbstractContextManager[None]:
    return nullcontext()


def _check_earlier(path: str, events: list[Any], seed: str | None, chain: Verification) -> None:
    """Check an archive exported while the game ran against the finished game's ``events``."""
    from pbem.archives.archive import archive_events
    from pbem.archives.publish import check_earlier

    if seed is None or not chain.replayed:
        raise DomainError("--earlier needs the archive of the finished game (its seed revealed)")
    _, data = read_archive_or_record(path)
    older = verify_archive(data) if isinstance(data, dict) else None
    if older is None or not older.ok:
        raise DomainError(f"{path} does not verify: " + "; ".join(older.problems if older else ["not an archive"]))
    if data["game"] != events[0].game_id:
        raise DomainError(f"{path} is an archive of {data['game']}, not of {events[0].game_id}")
    problems, checked = check_earlier(archive_events(data), events, seed)
    if problems:
        raise DomainError(f"{path} does not agree with the finished game: " + "; ".join(problems[:5])
                          + (f"; and {len(problems) - 5} more" if len(problems) > 5 else ""))
    chain.checked.append(f"{path}: its {len(data['events'])} events agree with the finished game, and each of its "
                          f"{checked} sealed values matches its commitment")


def _archive_parts(archive: dict[str, Any]) -> tuple[list[Any], str | None, str]:
    """The events, seed and game id of an archive whose shape was checked first."""
    from pbem.archives.archive import archive_events
    from pbem.archives.archive_shape import check_shape

    check_shape(archive)
    return archive_events(archive), archive.get("seed"), archive["game"]
