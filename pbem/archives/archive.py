"""Self-contained game archives: export, verify, import.

An archive (JSON, format ``pbem-archive/3``) holds every event of one game (with its hash
chain), the raw order mails (or only the order texts already in the events, with
``include_mail=False``), the options, the engine version and the hashes of the data files it
used, the state hash after every turn, the seed commitment, and the seed itself once the game
is over. A published archive (the default) holds the events in their published form
(:mod:`pbem.archives.publish`: while the game runs, what the public may not see is sealed with a
commitment, and the events are chained again); a GM's backup (``gm_backup``) holds them
exactly as recorded. Verification checks the chain (a changed or removed event is named),
the seed against the commitment, and — when the seed is known — re-runs the engine from the
input events and checks every derived event and state hash.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.base import GameError, canonical_json
from adjudicator.registry import get_engine
from adjudicator.chance import commitment
from pbem.archives.archive_shape import check_shape
from pbem.store.auth import check_game_id, check_seat_name
from pbem.errors import DomainError
from pbem.archives.masking import mask_mail
from pbem.archives.publish import SEAL_SCHEME, count_sealed, publish
from pbem.store.events import EngineVersionMismatch, Game, ReplayMismatch, SeedUnknown, engine_for, fold
from pbem.store.db import StoredEvent, Store, verify_chain
from pbem.archives.verifysource import check_sources
from pbem.archives.withhold import addresses, is_withheld

FORMAT = "pbem-archive/3"
#: Older formats still read: ``pbem-archive/1`` has no length in its header; ``pbem-archive/2``
#: holds every event as recorded (nothing sealed), as a GM's backup of format 3 does.
OLD_FORMATS = ("pbem-archive/1", "pbem-archive/2")
#: Formats without a length in their header.
UNCOUNTED = ("pbem-archive/1",)


@dataclass
class Verification:
    """The outcome of verifying an archive or a stored game."""

    game_id: str
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    turns: int = 0
    replayed: bool = False
    final_hash: str | None = None
    sealed: int = 0
    checked: list[str] = field(default_factory=list)  # checks beyond the chain and the replay, said as done
    unverifiable: list[str] = field(default_factory=list)  # what nothing in the archive can prove

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"game": self.game_id, "ok": self.ok, "problems": self.problems, "warnings": self.warnings,
                "turns": self.turns, "replayed": self.replayed, "final_state_hash": self.final_hash,
                "sealed": self.sealed, "checked": self.checked, "unverifiable": self.unverifiable}


#: The note of a kept mail imported with its passwords masked (its key names the original's hash).
MASKED_NOTE = "masked in the archive it was imported from"

#: Events of a running game's pending turn that an export leaves out (secret until adjudicated).
UNDECIDED = ("OrdersSubmitted", "OrdersVoided", "StandingOrders")


def export_game(store: Store, game_id: str, include_mail: bool = True, raw_mail: bool = False,
                gm_backup: bool = False) -> dict[str, Any]:
    """The archive of ``game_id`` as a JSON-ready dict.

    Of a running game it holds the events up to the first undecided order (orders of the
    turn not adjudicated yet; the events after it are left out and counted in ``withheld``).
    The events are published (:mod:`pbem.archives.publish`: sealed while the game runs) unless
    ``gm_backup``; the raw order mails have their passwords masked unless ``raw_mail`` (which
    is for the GM's own backup, so it implies ``gm_backup``).
    """
    store.require_game(game_id)
    events = store.events(game_id)
    withheld = _undecided_cut(events)
    if withheld:
        events = events[:-withheld]
    created = events[0].payload
    published = None
    if not (gm_backup or raw_mail):
        published = publish(events, _engine(game_id, created), store.secrets(game_id)[0], _ended(events) is None)
        events = published.events
    revealed = next((e.payload["seed"] for e in events if e.type == "SeedRevealed"), None)
    turns = [{"turn": e.payload["turn"], "seq": e.seq, "state_hash": e.payload["state_hash"]}
             for e in events if e.type == "TurnAdjudicated"]
    archive: dict[str, Any] = {
        "format": FORMAT, "game": game_id, "engine": created["engine"],
        "engine_version": created["engine_version"], "data_files": created["data_files"],
        "options": created["options"], "seats": [s["name"] for s in created["seats"]],
        "commitment": created["commitment"], "seed": revealed, "turns": turns,
        "events": [e.as_dict() for e in events], "mails": [],
        # what makes a shortened archive detectable
        "events_count": len(events), "last_hash": events[-1].hash, "over": _ended(events) is not None,
        "published": published is not None,
    }
    if published is not None and published.sealed:
        archive.update(sealed=published.sealed, seal=SEAL_SCHEME)
    from pbem.store.rollback import summary

    if summary(events):  # each rollback with its reason (the events hold it too)
        archive["rollbacks"] = summary(events)
    if withheld:
        archive["withheld"] = {"events": withheld, "reason": "the game is running: the orders of the turn not "
                               "adjudicated yet, and every event after the first of them, are left out"}
    if include_mail:
        seats = [s["name"] for s in created["seats"]]
        known = addresses(store.events(game_id))  # as recorded: the published events hold none
        archive["mails"] = _mails(store, events, None if raw_mail else seats, None if gm_backup else known)
    return archive


def _engine(game_id: str, created: dict[str, Any]) -> Any:
    """The engine whose views say what the public may see (None: seal every derived event)."""
    try:
        return engine_for(game_id, created)
    except Exception:  # noqa: BLE001 - an engine not here (another version): nothing is shown unsealed
        return None


def _undecided_cut(events: list[StoredEvent]) -> int:
    """How many events at the end of a running game's log an export leaves out (0: none)."""
    if _ended(events) is not None:
        return 0
    start = max((i for i, e in enumerate(events) if e.type == "TurnAdjudicated"), default=0) + 1
    first = next((i for i in range(start, len(events)) if events[i].type in UNDECIDED), None)
    return 0 if first is None else len(events) - first


def _mails(store: Store, events: Iterable[StoredEvent], mask_for: list[str] | None,
           known: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The raw mails the events refer to (passwords masked unless ``mask_for`` is None; the
    ``known`` addresses, and any other but message ids, masked too unless ``known`` is None)."""
    wanted = _referenced(events)
    out: list[dict[str, Any]] = []
    for row in store.db.query("select key, raw, note from mails order by received_at, key"):
        raw = bytes(row["raw"])
        digest = hashlib.sha256(raw).hexdigest()
        original = row["key"][len("archive:"):] if row["note"] == MASKED_NOTE else None
        if original in wanted:  # a masked mail imported from an archive: export it as it came
            wanted.discard(original)
            out.append({"sha256": original, "masked": True, "masked_sha256": digest,
                        "raw": base64.b64encode(raw).decode("ascii")})
            continue
        if digest not in wanted:
            continue
        wanted.discard(digest)
        if mask_for is None:
            out.append({"sha256": digest, "raw": base64.b64encode(raw).decode("ascii")})
            continue
        masked = mask_mail(raw, mask_for, known)
        out.append({"sha256": digest, "masked": True, "masked_sha256": hashlib.sha256(masked).hexdigest(),
                    "raw": base64.b64encode(masked).decode("ascii")})
    return out


def archive_events(archive: dict[str, Any]) -> list[StoredEvent]:
    """The events of an archive as :class:`StoredEvent` values."""
    return [StoredEvent(archive["game"], e["seq"], e["type"], e["version"], e["payload"], e["recorded_at"],
                        e["prev_hash"], e["hash"], e.get("key")) for e in archive["events"]]


def verify_archive(archive: dict[str, Any], progress: Callable[[int], None] | None = None) -> Verification:
    """Check an archive: its shape, hash chain, seed, data files, mails and (with the seed) a replay."""
    if not isinstance(archive, dict) or archive.get("format") not in (FORMAT, *OLD_FORMATS):
        found = archive.get("format") if isinstance(archive, dict) else None
        raise DomainError(f"not a pbem archive (format {found!r}, expected {FORMAT})")
    check_shape(archive)
    game_id = check_game_id(archive.get("game"))
    result = Verification(game_id)
    events = archive_events(archive)
    _check_names(archive, events)
    result.problems += verify_chain(events, game_id)
    if not events or events[0].type != "GameCreated":
        result.problems.append("the first event is not GameCreated")
        return result
    _check_header(archive, events, result)
    _check_complete(archive, events, result)
    note = _check_sealed(archive, events, result)
    _check_mails(archive, events, result)
    problems, unchecked = check_sources(archive.get("mails", []), events)
    result.problems += problems
    if result.problems:
        return result
    verify_replay(game_id, events, archive.get("seed"), result, progress)
    result.warnings += [note] if note else []
    result.unverifiable += unchecked + unverifiable_parts(archive.get("mails", []), events)
    return result


def unverifiable_parts(mails: list[dict[str, Any]], events: list[StoredEvent] | None = None) -> list[str]:
    """What no archive can prove, whatever else verifies: masked mails, addresses, times.
    ``events``: the archive's (its seats' addresses withheld, as published, or not)."""
    out = []
    masked = sum(1 for m in mails if isinstance(m, dict) and m.get("masked"))
    if masked:
        out.append(f"{masked} masked order mail(s) (passwords and press masked out): the orders they carried are "
                   "in the events, but that they are the mails the seats sent cannot be checked without the "
                   "originals, whose SHA-256 the events name")
    seats = events[0].payload.get("seats", []) if events and events[0].type == "GameCreated" else []
    if seats and all(isinstance(s, dict) and is_withheld(s.get("email")) for s in seats):
        out.append("the seats' addresses: withheld from a published file (only the GM's own backup holds them)")
    else:
        out.append("the seats' addresses: nothing in an archive can prove them")
    out.append("the times of the events and the deadlines: as the GM's log recorded them")
    out.append("the events' keys (which mail or command each came from, for not recording it twice): "
               "not part of their hashes")
    return out


def _check_names(archive: dict[str, Any], events: list[StoredEvent]) -> None:
    """Every seat name in the archive follows the one rule of ``pbem new``."""
    created = events[0].payload if events and events[0].type == "GameCreated" else {}
    seats = [s.get("name") if isinstance(s, dict) else s for s in created.get("seats", [])]
    for name in [*archive.get("seats", []), *seats]:
        check_seat_name(name)


def _check_header(archive: dict[str, Any], events: list[StoredEvent], result: Verification) -> None:
    created = events[0].payload
    for key in ("engine", "engine_version", "options", "commitment", "data_files"):
        if archive.get(key) != created.get(key):
            result.problems.append(f"archive header {key!r} differs from the GameCreated event")
    recorded = [{"turn": e.payload["turn"], "seq": e.seq, "state_hash": e.payload["state_hash"]}
                for e in events if e.type == "TurnAdjudicated"]
    if archive.get("turns") != recorded:
        result.problems.append("the archive's list of turn hashes differs from its events")
    from pbem.store.rollback import summary

    if archive.get("rollbacks", []) != summary(events):
        result.problems.append("the archive's list of rollbacks differs from its events")
    seed = archive.get("seed")
    if seed is not None and commitment(seed) != created["commitment"]:
        result.problems.append("the seed does not match the published commitment (wrong seed)")
    try:
        engine = get_engine(created["engine"])
    except Exception as exc:  # noqa: BLE001 - an unknown engine is reported, not raised
        result.problems.append(str(exc))
        return
    from adjudicator.versions import unknown_data

    unknown = unknown_data(engine, created["data_files"])
    if unknown:  # the replay reads its rules version's own files instead; verification tells
        result.warnings.append(f"this pbem does not keep the version of {', '.join(unknown)} the game was "
                               "played with (its rules version's own is read)")
    try:  # every rules version is kept; one this pbem does not know is refused by name
        engine_for(created["game"], created)
    except EngineVersionMismatch as exc:
        result.problems.append(str(exc))


def _ended(events: list[StoredEvent]) -> StoredEvent | None:
    """The event that ended the game (a final ``TurnAdjudicated``, ``GameAbandoned``, or ``GameEnded``:
    the players ended it, :mod:`pbem.club.endings`), if any."""
    return next((e for e in events if e.type in ("GameAbandoned", "GameEnded")
                 or (e.type == "TurnAdjudicated" and e.payload.get("over"))), None)


def _check_complete(archive: dict[str, Any], events: list[StoredEvent], result: Verification) -> None:
    """Detect a shortened archive, naming the check that found it."""
    end = _ended(events)
    revealed = [e for e in events if e.type == "SeedRevealed"]
    if end is not None and (not revealed or events[-1].type != "SeedRevealed" or revealed[0].seq != end.seq + 1):
        result.problems.append(f"shortened: the game ended at event {end.seq} ({end.type}) but the log does not "
                               "end with the SeedRevealed event that must follow it")
    if archive.get("seed") is not None and not revealed:
        result.problems.append("shortened: the header carries the seed but the log has no SeedRevealed event")
    if archive.get("format") in UNCOUNTED:
        result.warnings.append(f"an older archive ({archive.get('format')}) has no length in its header: a copy "
                               "shortened before the end of the game cannot be told apart from it")
        return
    count, last, over = archive.get("events_count"), archive.get("last_hash"), archive.get("over")
    if (count, last) != (len(events), events[-1].hash):
        result.problems.append(f"shortened: the header says {count} events ending in hash {str(last)[:12]}, the "
                               f"log has {len(events)} ending in {events[-1].hash[:12]}")
    if over and end is None:
        result.problems.append("shortened: the header says the game is over but the log has no end-of-game event")
    if not over and end is not None:
        result.problems.append("the header says the game is running but the log holds its end")


def _check_sealed(archive: dict[str, Any], events: list[StoredEvent], result: Verification) -> str | None:
    """Sealed values (pbem.archives.publish) belong to a running game's published archive only."""
    result.sealed = count_sealed(events)
    if archive.get("sealed", 0) != result.sealed:
        result.problems.append(f"the archive header says {archive.get('sealed', 0)} sealed values, its events hold "
                               f"{result.sealed}")
    if not result.sealed:
        return None
    if _ended(events) is not None or archive.get("seed") is not None:
        result.problems.append(f"the game is over but {result.sealed} values of its events are sealed: the archive "
                               "of a finished game shows everything")
        return None
    return sealed_note(result.sealed)


def sealed_note(count: int) -> str:
    """What a running game's sealed values are, and when they can be checked."""
    return (f"{count} sealed values (what the public may not see while the game runs: committed with the seed): "
            "checkable when the game ends, with 'pbem replay FINISHED.json --verify --earlier THIS.json'")


def _check_mails(archive: dict[str, Any], events: list[StoredEvent], result: Verification) -> None:
    for mail in archive.get("mails", []):
        expected = mail.get("masked_sha256") if mail.get("masked") else mail["sha256"]
        if hashlib.sha256(base64.b64decode(mail["raw"])).hexdigest() != expected:
            result.problems.append(f"a kept mail ({mail['sha256'][:12]}) was altered")


def verify_replay(game_id: str, events: list[StoredEvent], seed: str | None, result: Verification,
                  progress: Callable[[int], None] | None = None) -> Verification:
    """Re-run the engine over ``events`` checking every derived event and state hash."""
    result.turns = sum(1 for e in events if e.type == "TurnAdjudicated")
    try:
        game = fold(game_id, _counting(events, progress), seed, verify=True)
    except SeedUnknown:
        result.warnings.append("the seed is not revealed yet (the game is running): the hash chain was "
                               "verified, the chance draws and state hashes cannot be until it ends; a copy "
                               f"cut at an earlier event would verify too: this one holds events 1-{len(events)} "
                               f"ending in hash {events[-1].hash[:12]}, compare that with an export the GM makes now")
        return result
    except ReplayMismatch as exc:
        result.problems.append(str(exc))
        return result
    except (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as exc:
        # a malformed event the engine cannot even read: not genuine
        result.problems.append(f"the replay failed on a malformed event ({type(exc).__name__}: {str(exc)[:80]})")
        return result
    result.replayed = True
    result.final_hash = game.state_hash
    from collections import Counter

    result.unverifiable += [f"{n} {note}" if n > 1 else note for note, n in Counter(game.unverified).items()]
    return result


def _counting(events: list[StoredEvent], progress: Callable[[int], None] | None) -> Iterable[StoredEvent]:
    for ev in events:
        yield ev
        if progress is not None and ev.type == "TurnAdjudicated":
            progress(1)


def import_archive(store: Store, archive: dict[str, Any]) -> Verification:
    """Verify ``archive`` and, if it is genuine, store its game (events verbatim)."""
    result = verify_archive(archive)
    if not result.ok:
        raise DomainError(f"archive of {result.game_id} is not genuine: " + "; ".join(result.problems))
    game_id = archive["game"]
    events = archive_events(archive)
    wanted = _referenced(events)
    with store.transaction():
        if store.game_row(game_id) is not None:
            raise DomainError(f"game {game_id!r} already exists in {store.path}")
        for ev in events:
            if ev.key is not None and store.find_key(ev.key) is not None:
                raise DomainError(f"event {ev.seq} of the archive has the key {ev.key[:40]!r} of an event "
                                  f"already in {store.path}: this game (or a copy of it) was imported before")
            store.db["events"].insert({"game_id": ev.game_id, "seq": ev.seq, "type": ev.type,
                                       "version": ev.version, "payload": canonical_json(ev.payload),
                                       "recorded_at": ev.recorded_at, "prev_hash": ev.prev_hash,
                                       "hash": ev.hash, "key": ev.key})
        skipped = 0
        for mail in archive.get("mails", []):
            if mail["sha256"] not in wanted:  # only the mails the events refer to
                skipped += 1
                continue
            raw = base64.b64decode(mail["raw"])
            store.db["mails"].insert({"key": "archive:" + mail["sha256"], "message_id": None, "sender": None,
                                      "raw": raw, "received_at": store.now(), "status": "imported",
                                      "note": MASKED_NOTE if mail.get("masked") else ""},
                                     ignore=True)
        if archive.get("seed"):
            store.put_secrets(game_id, archive["seed"], {})
        _project_imported(store, game_id, archive)
    if skipped:
        result.warnings.append(f"{skipped} mail(s) of the archive are referred to by no event: not stored")
    return result


def _referenced(events: Iterable[StoredEvent]) -> set[str]:
    """The SHA-256 of every raw mail an event refers to (its ``source.raw_sha256``)."""
    out = set()
    for ev in events:
        source = ev.payload.get("source")
        if isinstance(source, dict) and isinstance(source.get("raw_sha256"), str):
            out.add(source["raw_sha256"])
    return out


def _project_imported(store: Store, game_id: str, archive: dict[str, Any]) -> None:
    from pbem.store import projection

    turns = archive.get("turns", [])
    if archive.get("seed"):
        game: Game = fold(game_id, store.events(game_id), archive["seed"])
        projection.project(store, game, created=True)
        return
    store.upsert_game(game_id, engine=archive["engine"], created_at=store.now(), turn=None,
                      state_hash=turns[-1]["state_hash"] if turns else None)
    projection.unreplayable(store, game_id)
