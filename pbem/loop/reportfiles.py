"""A turn's reports written as files for the GM (``pbem report``, the demo's reports): any
adjudicated turn, the opening position, or a turn as it was before a rollback set it aside,
each viewer's report (text, HTML, pictures) in a folder of its own."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.base import GM, PUBLIC
from pbem.errors import DomainError
from pbem.outfiles import turn_dir

if TYPE_CHECKING:
    from pbem.loop.service import Service


def viewer_dir(viewer: str) -> str:
    """The directory name of a viewer's report (``gm``, ``public`` or the seat)."""
    return {GM: "gm", PUBLIC: "public"}.get(viewer, viewer)


def inside(base: Path, *parts: str) -> Path:
    """``base/part/...``, refused unless every part is a plain relative name (a turn label's
    ``/`` makes subdirectories) and the result stays inside ``base``."""
    pieces = [p for part in parts for p in str(part).split("/")]
    if any(p in ("", ".", "..") or "\\" in p or "\0" in p for p in pieces):
        raise DomainError(f"refusing to write to {'/'.join(parts)!r}: not a plain name inside {base}")
    path = base.joinpath(*pieces)
    if not path.resolve().is_relative_to(base.resolve()):
        raise DomainError(f"refusing to write to {path}: it is outside {base}")
    return path


def write_turn_reports(service: Service, game_id: str, turn: str | None, only: list[str] | None,
                       out: str | os.PathLike[str], set_aside: bool = False) -> list[Path]:
    """Render the reports of ``turn`` (default: the last adjudicated; ``start`` or no turn yet:
    the opening position) into ``out/<turn>/<viewer>/`` (see :func:`turn_dir` for the folder
    name of a turn). ``set_aside``: ``turn`` as it was adjudicated before the latest rollback
    that set it aside, into ``out/<turn>~set-aside-<event>/<viewer>/``. Returns the files
    written; an unknown turn, seat or folder that cannot be written is a one-line
    :class:`DomainError`, the folder refused before the work."""
    from pbem.store.events import fold
    from pbem.mailout.reporting import history, render_turn
    from pbem.mailout.turnmail import OPENING
    from pbem.outfiles import out_dir, writing
    from reports.files import report_files

    out = Path(out)
    out_dir(out)  # refused before the work
    events = service.store.events(game_id) if set_aside or turn not in (None, OPENING) else []
    folder_suffix = ""
    if set_aside:
        events, folder_suffix = _set_aside_log(game_id, events, turn)
        game = fold(game_id, events, service.load(game_id).seed, until_turn=turn)
    elif turn == OPENING:  # the opening position, as the game was created
        game = service.load(game_id)
        game = fold(game_id, service.store.events(game_id)[:1], game.seed)
    else:
        game = service.load(game_id, until_turn=turn)
    payload = game.turns[-1] if game.turns else {"turn": OPENING}  # no turn yet: the opening position
    if turn is not None and payload["turn"] != turn:
        raise DomainError(_no_turn(game_id, turn, events))
    if only:
        for viewer in only:
            if viewer not in (GM, PUBLIC) and viewer not in game.seats:
                raise DomainError(f"no seat {viewer!r} in {game_id}")
    log = events if set_aside else service.store.events(game_id)
    hist = history(game_id, log, game.seed, until=payload["turn"]) if game.turns else []
    written = []
    for report in render_turn(game, payload, hist, only):
        directory = inside(out, turn_dir(payload["turn"]) + folder_suffix, viewer_dir(report.viewer))
        with writing(directory):
            directory.mkdir(parents=True, exist_ok=True)
            for name, data in report_files(report.rendered).items():
                path = inside(directory, name)
                path.write_bytes(data)
                written.append(path)
    return written


def _set_aside_log(game_id: str, events: list[Any], turn: str | None) -> tuple[list[Any], str]:
    """The log before the latest rollback that set ``turn`` aside, and the folder suffix
    naming that rollback; a clear error when there is none."""
    from pbem.store.rollback import set_aside

    if turn is None:
        raise DomainError("--set-aside needs --turn: the turn set aside by a rollback ('pbem log "
                          f"{game_id}' lists the rollbacks and the turns each set aside)")
    found = set_aside(events, turn)
    if found is None:
        raise DomainError(f"no rollback of {game_id} set turn {turn!r} aside; leave out --set-aside to render "
                          "it as it stands")
    return found[0], f"~set-aside-{found[1]['seq']}"


def _no_turn(game_id: str, turn: str, events: list[Any]) -> str:
    """Why ``turn`` has no report: never adjudicated, or set aside by a rollback (and how
    to see it as it was)."""
    from pbem.store.rollback import set_aside

    found = set_aside(events, turn) if events else None
    if found is None:
        return f"{game_id} has no adjudicated turn {turn!r}"
    rb = found[1]
    return (f"turn {turn!r} of {game_id} was set aside by the rollback at event {rb['seq']} (to {rb['to']}; "
            f"reason: {rb['reason']}) and has not been adjudicated again; add --set-aside to render it as it "
            "was adjudicated before that rollback")
