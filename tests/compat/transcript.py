"""Seeded random games as transcripts: the orders of each step and the state hash after it.

Run against the code of any commit (the engine API has not changed since the first one)::

    python tests/compat/transcript.py WORKTREE ENGINE SEATS OPTIONS_JSON SEED...

prints one JSON line per game: engine, version, data files (name -> SHA-256), seats, options, seed, the hash of the state
after ``create`` and of its setup events, then per step the orders given (random legal orders
drawn from ``Chance("bot:" + seed)``, as the contract test draws them) and the hashes of the
state and of the derived events after ``advance``. :mod:`tests.compat.test_transcripts` replays
them on today's engines, under the version each game was played with.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any


def isolate(tree: str) -> None:
    """Import pbem's packages from ``tree`` only: drop the finder of an editable install of
    today's pbem (it would lend the old tree the modules it lacks) and put ``tree`` first."""
    def editable(finder: object) -> bool:
        return str(getattr(finder, "__module__", "")).startswith("__editable__")

    sys.meta_path[:] = [f for f in sys.meta_path if not editable(f)]
    sys.path[:] = [tree] + [p for p in sys.path if p and "__editable__" not in p and not p.endswith("tests/compat")]
    for name in [m for m in sys.modules if m.split(".")[0] in ("pbem", "adjudicator", "turns", "reports")]:
        del sys.modules[name]


def _engine(name: str) -> Any:
    try:
        from adjudicator.registry import get_engine
    except ImportError:  # the first releases looked engines up in the base module
        from adjudicator.base import get_engine
    return get_engine(name)


def digest(value: Any) -> str:
    """SHA-256 of the canonical JSON of ``value`` (the first 16 hex digits: a transcript is a check)."""
    from adjudicator.base import canonical_json

    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()[:16]


def play(name: str, seats: list[str], options: dict[str, str], seed: str, max_steps: int = 3000) -> dict[str, Any]:
    """One random game of engine ``name`` as a transcript."""
    from adjudicator.chance import Chance

    engine = _engine(name)
    state, events = engine.create(seats, options, seed)
    bot = Chance("bot:" + seed)
    steps: list[list[Any]] = []
    game = {"engine": name, "version": engine.version, "data_files": engine.data_files(),
            "seats": seats, "options": options, "seed": seed,
            "setup": [digest(state), digest(events)], "steps": steps}
    for step in range(max_steps):
        pending = engine.pending(state)
        if pending is None:
            return game
        orders = {seat: engine.random_orders(state, seat, bot.stream(f"{step}/{seat}")) for seat in pending.seats}
        state, events = engine.advance(state, orders, seed)
        steps.append([orders, digest(state), digest(events)])
    game["unfinished"] = True
    return game


def main(argv: list[str]) -> None:
    """Print the transcripts of ``argv``: WORKTREE ENGINE SEATS OPTIONS_JSON SEED..."""
    isolate(argv[0])
    argv = argv[1:]
    name, seats, options = argv[0], argv[1].split(","), json.loads(argv[2])
    for seed in argv[3:]:
        print(json.dumps(play(name, seats, options, seed), sort_keys=True, separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
