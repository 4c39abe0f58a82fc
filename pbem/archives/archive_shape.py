"""The shape of an archive file, checked before anything reads it.

An archive comes from outside: any key may be missing, any value of the wrong type, the
text may not be UTF-8 or may nest deeper than a parser can follow, and it may be huge.
Each of these becomes one :class:`~pbem.errors.DomainError` naming the problem, never a
traceback; files larger than :func:`max_import_bytes` are refused before they are read.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from pathlib import Path
from typing import Any

from pbem.store.clubstate import SHAPES as CLUB_SHAPES
from pbem.errors import DomainError

_EVENT = {"game": str, "seq": int, "type": str, "version": int, "payload": dict, "recorded_at": str, "prev_hash": str,
          "hash": str}
_HEADER = {"game": str, "engine": str, "engine_version": str, "options": dict, "commitment": str,
           "data_files": dict, "seats": list, "turns": list, "events": list}
_CREATED = {"engine": str, "engine_version": str, "seats": list, "options": dict, "commitment": str,
            "data_files": dict, "setup_events": list, "state_hash": str}
_PAYLOADS = {"GameCreated": _CREATED,
             "TurnAdjudicated": {"turn": str, "orders": dict, "defaulted": list, "events": list, "state_hash": str},
             "OrdersSubmitted": {"seat": str, "turn": str, "orders": list},
             "OrdersVoided": {"seat": str, "turn": str}, "StandingOrders": {"seat": str, "orders": list},
             "DeadlineSet": {"turn": str, "deadline": str}, "SeatChanged": {"seat": str},
             "SeedRevealed": {"seed": str}, "SeatPreference": {"seat": str, "digest": bool},
             "EngineUpgraded": {"from": str, "to": str, "reason": str, "data_files": dict, "state_hash": str},
             **CLUB_SHAPES}  # absences, civil disorder, votes, endings, observers (pbem.store.clubstate)


def max_import_bytes() -> int:
    """The largest file ``pbem import``/``replay`` reads (env ``PBEM_MAX_IMPORT_MB``, default 64 MiB)."""
    try:
        return int(float(os.environ.get("PBEM_MAX_IMPORT_MB", "64")) * 1024 * 1024)
    except ValueError:
        return 64 * 1024 * 1024


def read_text(path: str | Path) -> str:
    """The UTF-8 text of an archive or record file, refused when too large or not UTF-8."""
    size = Path(path).stat().st_size
    limit = max_import_bytes()
    if size > limit:
        raise DomainError(f"{path}: {size} bytes is more than the {limit} bytes an import may read "
                          "(set PBEM_MAX_IMPORT_MB to allow more)")
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DomainError(f"{path}: not UTF-8 text (byte {exc.start}); archives and records are UTF-8") from None
    return text[1:] if text.startswith("\ufeff") else text  # a byte order mark some editors write


def parse_json(path: str | Path, text: str) -> Any:
    """JSON of an archive file; bad JSON, a key given twice in one object (two readers could
    take different values), a number too large to read and too deep nesting are each a
    one-line error."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DomainError(f"{path}: not valid JSON ({exc})") from None
    except RecursionError:
        raise DomainError(f"{path}: nested too deep; not a pbem archive") from None
    except ValueError as exc:  # a key twice, NaN/Infinity, an integer of more than 4,300 digits
        raise DomainError(f"{path}: not a pbem archive ({str(exc).split(';')[0]})") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key[:40]!r} is given twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def check_shape(archive: Any) -> None:
    """Raise a :class:`DomainError` naming the first thing in ``archive`` of the wrong shape."""
    if not isinstance(archive, dict):
        raise DomainError("not a pbem archive: the file holds no JSON object")
    _fields(archive, _HEADER, "the archive header")
    if not isinstance(archive.get("seed"), (str, type(None))):
        raise DomainError(f"the archive's 'seed' must be text or null, not {type(archive['seed']).__name__}")
    if not archive["events"]:
        raise DomainError("the archive has no events")
    keys: set[str] = set()
    for n, event in enumerate(archive["events"], start=1):
        where = f"event {n}"
        if not isinstance(event, dict):
            raise DomainError(f"{where} is not an object")
        _fields(event, _EVENT, where)
        if event["game"] != archive["game"]:  # every event of an archive is of the header's game
            raise DomainError(f"{where} names game {event['game'][:40]!r}, not the archive's {archive['game'][:40]!r}")
        if not _sealed(event["payload"]):  # a payload sealed whole (a running game's votes) shows no fields
            _fields(event["payload"], _PAYLOADS.get(event["type"], {}), f"{where} ({event['type']}) payload")
        key = event.get("key")
        if key is not None and (not isinstance(key, str) or key in keys):
            raise DomainError(f"{where}: its key {str(key)[:40]!r} is not text or is used by another event")
        if key is not None:
            keys.add(key)
    for n, seat in enumerate(archive["events"][0]["payload"].get("seats", []), start=1):
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
            raise DomainError(f"GameCreated: seat {n} has no name")
    _check_mail_shapes(archive.get("mails", []))


def _check_mail_shapes(mails: Any) -> None:
    if not isinstance(mails, list):
        raise DomainError("the archive's 'mails' must be a list")
    for n, mail in enumerate(mails, start=1):
        if not isinstance(mail, dict) or not isinstance(mail.get("sha256"), str) or not isinstance(mail.get("raw"), str):
            raise DomainError(f"mail {n} of the archive needs 'sha256' and 'raw' (base64) text")
        try:
            base64.b64decode(mail["raw"], validate=True)
        except (binascii.Error, ValueError):
            raise DomainError(f"mail {n} of the archive: 'raw' is not base64") from None


def _fields(obj: dict[str, Any], wanted: dict[str, type], where: str) -> None:
    for key, kind in wanted.items():
        if key not in obj:
            raise DomainError(f"{where} lacks {key!r}")
        value = obj[key]
        if _sealed(value):  # sealed in a published running game's archive (pbem.archives.publish)
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise DomainError(f"{where}: {key!r} must be {kind.__name__}, not {type(value).__name__}")


def _sealed(value: Any) -> bool:
    """A sealed value of :mod:`pbem.archives.publish` (a dict holding its ``sealed`` commitment)."""
    return isinstance(value, dict) and isinstance(value.get("sealed"), str)
