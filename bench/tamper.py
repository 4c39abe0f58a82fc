"""Tampered and malformed archives, made from a genuine one, for ``replay --verify`` and ``import``.

:func:`mutants` yields ``(name, text)`` pairs: the genuine archive's JSON text changed the ways a
careless tool or a forger changes it: structure (``events`` an object, a key dropped, a value of
another type, an event dropped or doubled, nesting 100,000 deep), numbers (a 5,001-digit
integer, ``1e400``, ``NaN``), text (truncated, a byte flipped, not UTF-8, a lone surrogate, a key
given twice, trailing garbage), and values changed deep inside with the hash chain and the
header recomputed as a forger would (:func:`forge`). Everything comes from one seeded
:class:`random.Random`. :func:`check` runs both commands on one file and says what happened.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

#: Values a field may be replaced by.
ODD = [None, True, 0, -1, 2**70, 1.5, "", "x" * 300, [], {}, [1, "a"], {"sealed": "0" * 64}, "\u202e"]


def forge(archive: dict[str, Any]) -> dict[str, Any]:
    """Recompute the hash chain and the header over what ``archive`` holds (a forger's step)."""
    from pbem.store.db import GENESIS, event_hash

    prev = GENESIS
    for e in archive["events"]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(archive["game"], e["seq"], e["type"], e["version"], e["payload"],
                                      e["recorded_at"], e["prev_hash"])
    archive["last_hash"], archive["events_count"] = prev, len(archive["events"])
    archive["turns"] = [{"turn": e["payload"].get("turn"), "seq": e["seq"], "state_hash": e["payload"].get("state_hash")}
                        for e in archive["events"] if e["type"] == "TurnAdjudicated"]
    return archive


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield from _paths(child, (*path, key))


def _set(root: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        root = root[key]
    root[path[-1]] = value


def _delete(root: Any, path: tuple[Any, ...]) -> None:
    for key in path[:-1]:
        root = root[key]
    del root[path[-1]]


def mutants(genuine: str, count: int, seed: str = "tamper") -> Iterator[tuple[str, str]]:
    """``count`` tampered or malformed versions of the archive text ``genuine``."""
    rng = random.Random(seed)
    base = json.loads(genuine)
    fixed: list[tuple[str, str]] = [
        ("events an object", json.dumps({**base, "events": {"1": base["events"][0]}})),
        ("events a list of numbers", json.dumps({**base, "events": [1, 2, 3]})),
        ("a duplicate key", genuine.replace('"format"', '"format": "pbem-archive/3", "format"', 1)),
        ("a 5,001-digit integer", genuine.replace('"seq": 1', '"seq": ' + "9" * 5001, 1)),
        ("1e400", genuine.replace('"seq": 1', '"seq": 1e400', 1)),
        ("NaN", genuine.replace('"version": 1', '"version": NaN', 1)),
        ("nested 100,000 deep", genuine[:-2] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}\n"),
        ("empty file", ""), ("only a number", "42"), ("a list", "[1, 2]"), ("null", "null"),
        ("a lone surrogate", genuine.replace('"format"', '"\\ud800format"', 1)),
        ("trailing garbage", genuine + "}}}"),
        ("a byte order mark", "\ufeff" + genuine),
        ("not UTF-8", genuine[:40] + "\udcff" + genuine[40:]),
    ]
    for n in range(count):
        if n < len(fixed):
            yield fixed[n]
            continue
        kind = rng.choice(["truncate", "flip", "type", "delete", "event", "deep"])
        if kind == "truncate":
            yield "truncated", genuine[:rng.randrange(len(genuine))]
        elif kind == "flip":
            at = rng.randrange(len(genuine))
            yield "a character changed", genuine[:at] + chr(rng.choice([0, 34, 44, 58, 91, 93, 123, 125, 0x263a])) \
                + genuine[at + 1:]
        else:
            archive = copy.deepcopy(base)
            paths = [p for p in _paths(archive) if p]
            path = rng.choice(paths)
            name = "/".join(map(str, path[:4]))
            if kind == "type":
                _set(archive, path, rng.choice(ODD))
                name = f"a value of another type at {name}"
            elif kind == "delete":
                _delete(archive, path)
                name = f"{name} removed"
            elif kind == "event":
                events = archive["events"]
                i = rng.randrange(len(events))
                op = rng.choice(["drop", "double", "swap"])
                if op == "drop":
                    del events[i]
                elif op == "double":
                    events.insert(i, copy.deepcopy(events[i]))
                else:
                    j = rng.randrange(len(events))
                    events[i], events[j] = events[j], events[i]
                name = f"event {i + 1}: {op}"
            else:
                payloads = [p for p in paths if len(p) > 3 and p[0] == "events" and p[2] == "payload"]
                path = rng.choice(payloads or paths)
                _set(archive, path, rng.choice(ODD))
                name = f"a derived value changed at {'/'.join(map(str, path[:6]))}"
            if rng.random() < 0.6:
                try:
                    forge(archive)
                    name += ", chain recomputed"
                except Exception:  # noqa: BLE001 - not every shape can be chained again: left as it is
                    pass
            yield name, json.dumps(archive)


@dataclass
class Checked:
    """What ``replay FILE --verify`` and ``import FILE`` did with one archive."""

    name: str
    codes: tuple[int, int]
    outputs: tuple[str, str]
    tracebacks: list[str]
    accepted: bool  # import took it as genuine
    changed: bool  # its events, seed or mails differ from the genuine archive's
    replayable: bool  # the genuine archive carries the seed (a finished game): every derived value is checked

    @property
    def forgery_accepted(self) -> bool:
        """An archive that says something other than the genuine one, taken as genuine, where
        verification claims to check it (a running game's derived values, with the chain
        recomputed, are said to be checkable only when it ends: ``not checked``)."""
        return self.accepted and self.changed and self.replayable


def check(path: Path, name: str, genuine: dict[str, Any], db: Path) -> Checked:
    """Run ``pbem replay PATH --verify`` and ``pbem --db DB import PATH`` (in this process) on
    one archive file; a command that raises (a traceback) or whose error is not one line is noted."""
    from pbem.cli.app import App
    from pbem.cli.main import cli

    codes, outputs, tracebacks = [], [], []
    for args in (["replay", str(path), "--verify"], ["--db", str(db), "import", str(path)]):
        result = CliRunner().invoke(cli, args, obj=App(str(db)) if args[0] == "--db" else None)
        codes.append(result.exit_code)
        outputs.append(result.output)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            tracebacks.append(f"{args[0 if args[0] != '--db' else 2]}: {type(result.exception).__name__}: "
                              f"{str(result.exception)[:120]}")
        elif result.exit_code not in (0, 1):
            tracebacks.append(f"{args[0]}: exit {result.exit_code}")
        elif result.exit_code == 1 and (len(result.output.strip().splitlines()) != 1
                                        or not result.output.startswith("Error: ")):
            tracebacks.append(f"{args[0]}: not a one-line error: {result.output[:200]!r}")
    try:
        text = path.read_text(encoding="utf-8")
        parsed = json.loads(text[1:] if text.startswith("\ufeff") else text)
        changed = _said(parsed) != _said(genuine)
        if not changed and parsed.get("mails") != genuine.get("mails"):  # said as not verifiable, or a problem
            changed = "mail" not in outputs[1]
    except Exception:  # noqa: BLE001 - not JSON: nothing it says can be taken
        changed = True
    return Checked(name, (codes[0], codes[1]), (outputs[0], outputs[1]), tracebacks, codes[1] == 0, changed,
                   genuine.get("seed") is not None)


def _said(archive: Any) -> Any:
    """What an archive says of its game: its id, seed and events (without their keys, which are
    not part of the hashes and are said to be unverifiable)."""
    if not isinstance(archive, dict):
        return archive
    events = archive.get("events")
    if isinstance(events, list):
        events = [{k: v for k, v in e.items() if k != "key"} if isinstance(e, dict) else e for e in events]
    return archive.get("game"), archive.get("seed"), events
