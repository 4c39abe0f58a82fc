"""``pbem site G --out DIR``: a static site of a game's PUBLIC history.

Everything on it is what the public may see: each page is the public report (the engine's
``@public`` view, rendered by the game's own renderer) of a turn after which reports went
out; the chart is the public score history; the seed appears only once the game is over.
A running game's record and archive are left out (they hold every seat's orders and every
derived event, some of which the seats have not seen yet); they are published with the site
of the finished game. See docs/archivist-guide.md, "A site of a game".
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from adjudicator.base import PUBLIC
from pbem.mailout import colours
from pbem.errors import DomainError
from pbem.store.events import Game, ReplayMismatch, fold, fold_steps
from pbem.club.notes import site_lines
from pbem.archives.withhold import addresses, scrub
from reports.site import SiteInput, SitePage, build_site

if TYPE_CHECKING:
    from pbem.loop.service import Service


class SiteWritten(TypedDict):
    """A site written by :func:`write_site`, as ``pbem site --json`` prints it: the folder and
    its front page, the turns with a page (by label and by name), how many files, whether the
    game verified and is over, and the archive file and record (published once it is over)."""

    game: str
    out: str
    index: str
    pages: int
    turns: list[str]
    names: list[str]
    files: int
    verified: bool
    over: bool
    archive: str | None
    record: bool


def site_input(service: Service, game_id: str) -> SiteInput:
    """Gather the public history of ``game_id`` (rendering each reported turn once)."""
    from pbem.mailout.reporting import history, render_turn
    from reports.gamenames import turn_name
    from reports.render import UnknownGame

    game = service.load(game_id)
    events = service.store.events(game_id)
    hist = history(game_id, events, game.seed)
    pages = []
    try:
        for i, step in enumerate(fold_steps(game_id, events, game.seed)):
            payload = step.turns[-1]
            if hist[i].get("reported") or i == len(hist) - 1:
                report = render_turn(step, payload, hist[:i + 1], only=[PUBLIC])[0]
                name = turn_name(game.engine.name, payload["turn"], step.engine.view(step.state, PUBLIC), after=True)
                pages.append(SitePage(payload["turn"], report.rendered, name))
    except UnknownGame:
        raise DomainError(f"{game.engine.name} has no report renderer, so it has no site") from None
    known = addresses(events)  # no seat address in a GM's reason (pbem.archives.withhold)
    inp = SiteInput(game_id, game.engine.name, list(game.seats), scrub(_status(game), known), pages,
                    chart_png=_chart(game, [h for h in hist if h.get("reported")] or hist),
                    notes=scrub(_notes(game) + site_lines(events), known), commitment=game.created["commitment"],
                    seed=game.seed if game.over else None)
    _verify(service, game_id, events, inp)
    _record_and_archive(service, game, events, inp)
    return inp


def write_site(service: Service, game_id: str, out: str | os.PathLike[str]) -> SiteWritten:
    """Write the site of ``game_id`` into the folder ``out`` (created; files of an earlier site
    there are replaced; a folder that cannot be written is refused before the work)."""
    from pbem.outfiles import out_dir, writing

    out = Path(out)
    out_dir(out)  # refused before the work
    inp = site_input(service, game_id)
    files = build_site(inp)
    with writing(out):
        for name, data in files.items():
            path = out.joinpath(*name.split("/"))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    return SiteWritten(game=game_id, out=str(out), index=str(out / "index.html"), pages=len(inp.pages),
                       turns=[p.turn for p in inp.pages], names=[p.name or p.turn for p in inp.pages],
                       files=len(files), verified=inp.verified, over=inp.seed is not None,
                       archive=inp.archive_name if inp.archive_bytes is not None else None,
                       record=inp.record_text is not None)




def _status(game: Game) -> str:
    """The game's state in its own words: ``Over after 4 rounds; winner: red.``"""
    from reports.gamenames import played, turn_name

    done = played(game.engine.name, [t["turn"] for t in game.turns])
    if game.abandoned is not None:
        return f"Abandoned by the GM after {done}: {game.abandoned}"
    if game.club.ended is not None:  # the players ended it (pbem.club.endings)
        from pbem.club.endings import describe

        return f"Over after {done}. {describe(game)}"
    if game.over:
        return f"Over after {done}; winner: {game.engine.winner(game.state) or 'none'}."
    pending = game.pending
    now = turn_name(game.engine.name, pending.turn, game.engine.view(game.state, PUBLIC)) if pending else "?"
    return f"Running: {done} played; now {now}."


def _notes(game: Game) -> list[str]:
    from pbem.mailout.branchmark import banner
    from pbem.store.rollback import record_line

    notes = [line for line in [banner(game.created)] if line]
    notes += ["Rollback " + record_line(r) for r in game.rollbacks]
    return notes


def _chart(game: Game, hist: list[dict[str, Any]]) -> bytes | None:
    from adjudicator import games
    from reports.charts import line_charts
    from reports.colors import seat_colors

    if not hist:
        return None
    palette = seat_colors(list(game.seats), colours.of_game(game))
    named = [{**h, "turn": h.get("name") or h["turn"]} for h in hist]  # the axis reads rounds, seasons, battles
    return line_charts(named, [("scores", "Victory points")], {s: palette[s] for s in game.seats if s in palette},
                       xlabel=games.info(game.engine.name).chart_unit)  # else the ticks say it: "round 2"


def _verify(service: Service, game_id: str, events: list[Any], inp: SiteInput) -> None:
    problems = service.store.verify(game_id)
    lines = [f"hash chain of {len(events)} events: " + ("intact" if not problems else "; ".join(problems))]
    replayed = False
    if not problems:
        try:
            fold(game_id, events, service.store.secrets(game_id)[0], verify=True)
            replayed = True
            lines.append(f"replayed: every derived event, chance draw and state hash of "
                         f"{sum(1 for e in events if e.type == 'TurnAdjudicated')} adjudication(s) reproduced")
            if not any(e.type == "SeedRevealed" for e in events):
                lines.append("checked by the GM with the secret seed; anyone can re-check every draw once the "
                             "seed is revealed at the end of the game (its SHA-256 is the commitment below)")
        except (ReplayMismatch, DomainError) as exc:
            lines.append(f"replay: {exc}")
    inp.verified, inp.verification = replayed, lines


def _record_and_archive(service: Service, game: Game, events: list[Any], inp: SiteInput) -> None:
    from pbem.archives.archive import export_game
    from pbem.archives.records import record_of
    from turns.record import write_record

    if not game.over:
        inp.record_note = ("published when the game ends: it holds every seat's orders, which the seats "
                           "have not all seen yet")
        inp.archive_note = "The archive file is published with the site of the finished game."
        return
    inp.record_text = write_record(record_of(game, events))
    inp.archive_name = f"{game.game_id}.pbem.json"
    archive = export_game(service.store, game.game_id, include_mail=False)
    inp.archive_bytes = (json.dumps(archive, indent=1, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
