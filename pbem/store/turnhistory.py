"""The public figures after each adjudicated turn (scores, armies, money): what the reports'
charts draw and what tells which turns were reported.

Each turn's figures are derived from the state right after it and kept in ``turn_history``
(a cache, like the snapshots: written in the transaction of the adjudication), so a report
reads them instead of replaying the whole game to rebuild them: the cost of a report does not
grow with the length of the game. Figures missing from the table (a game of an older pbem, a
branch, an import) are rebuilt by a replay (:func:`replayed`) and, in a writing command, kept.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from adjudicator.base import PUBLIC, canonical_json

if TYPE_CHECKING:
    from pbem.store.events import Game
    from pbem.store.db import Store, StoredEvent


def history_entry(turn: str, view: dict[str, Any], scores: dict[str, int], engine: str | None = None) -> dict[str, Any]:
    """Public per-turn figures for charts: scores, armies per seat where the game has a board,
    and money per seat where the view shows it; with ``engine``, the turn's name for a chart's
    axis (``round 2``, ``Crécy``, ``spring 1618``)."""
    armies: dict[str, int] = {}
    for county in (view.get("counties") or {}).values():
        if county.get("owner"):
            armies[county["owner"]] = armies.get(county["owner"], 0) + int(county.get("armies") or 0)
    entry: dict[str, Any] = {"turn": turn, "scores": dict(scores), "armies": armies}
    if engine is not None:
        from reports.gamenames import turn_short

        entry["name"] = turn_short(engine, turn, view)
    seats = view.get("seats")
    if isinstance(seats, dict) and all(isinstance(r, dict) and "money" in r for r in seats.values()):
        entry["money"] = {s: int(r["money"]) for s, r in seats.items()}
    return entry


def reports_due(game: Game, payload: dict[str, Any]) -> bool:
    """Whether the turn of ``payload`` (just folded into ``game``) is one the seats get a report of."""
    due = getattr(game.engine, "report_due", None)
    return bool(due(game.state, payload["events"])) if due is not None else True


def entry_after(game: Game, payload: dict[str, Any]) -> dict[str, Any]:
    """The figures of ``payload``'s turn; ``game`` holds the state right after it."""
    entry = history_entry(payload["turn"], game.engine.view(game.state, PUBLIC), payload["scores"], game.engine.name)
    entry["reported"] = reports_due(game, payload)
    return entry


def keep(store: Store, game_id: str, seq: int, entry: dict[str, Any]) -> None:
    """Keep the figures of the turn adjudicated by event ``seq`` (inside the caller's transaction)."""
    store.conn.execute("insert or replace into turn_history (game_id, seq, entry) values (?, ?, ?)",
                       [game_id, seq, canonical_json(entry)])


def replayed(game_id: str, events: list[StoredEvent], seed: str, until: str | None = None) -> list[dict[str, Any]]:
    """The figures after each adjudicated turn (up to and including ``until``), by a replay."""
    from pbem.store.events import fold_steps

    out = []
    for game in fold_steps(game_id, events, seed):
        last = game.turns[-1]
        entry = entry_after(game, last)
        entry["seq"] = last["seq"]
        out.append(entry)
        if last["turn"] == until:
            break
    return out


def of_game(store: Store, game: Game, until: str | None = None, save: bool = False) -> list[dict[str, Any]]:
    """The figures after each turn of ``game`` (up to and including ``until``): from the table,
    or (some missing) by a replay, kept when ``save`` (inside the caller's transaction)."""
    from pbem.store.heads import turn_refs

    refs = turn_refs(game.turns)
    if until is not None:
        labels = [label for label, _ in refs]
        if until in labels:
            refs = refs[:labels.index(until) + 1]
    rows = dict(store.conn.execute("select seq, entry from turn_history where game_id = ?", [game.game_id]).fetchall())
    if all(seq in rows for _, seq in refs):
        return [json.loads(rows[seq]) for _, seq in refs]
    entries = replayed(game.game_id, store.events(game.game_id), game.seed, until)
    if save:
        for entry in entries:
            keep(store, game.game_id, entry.pop("seq"), entry)
    return [{k: v for k, v in e.items() if k != "seq"} for e in entries]
