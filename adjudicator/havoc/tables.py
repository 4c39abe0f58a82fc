"""Loading and checking the Havoc data files (battle deck, setup figures).

Every figure in ``data/battles.json`` is ``{value, status, source}``; ``provisional``
figures are listed by :func:`provisional` so the view (and every report footer) shows them.
A GM may supply the printed cards as option ``battles_json`` (the shell reads the file):
the same shape, where plain numbers count as verified.
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.base import GameError
from adjudicator.havoc.releases import RELEASES

FILES = ("battles.json", "setup.json")

#: the setup figures: a file no release has changed (tests/test_versions.py checks it)
SETUP: dict[str, Any] = RELEASES.load("setup.json")
#: today's battle deck (a game reads its own version's: :func:`battles_raw`)
BATTLES_RAW: dict[str, Any] = RELEASES.load("battles.json")


def battles_raw() -> dict[str, Any]:
    """The packaged battle deck of the game's rules version (read-only)."""
    return RELEASES.load("battles.json")


def data_files() -> dict[str, str]:
    """name -> SHA-256 of each data file the game in force reads (a new game: today's)."""
    return RELEASES.data_files()


def _figure(raw: Any, where: str, provisional: list[str]) -> Any:
    """The value of a labelled figure; notes it in ``provisional`` when so labelled."""
    if isinstance(raw, dict) and "value" in raw:
        if raw.get("status") == "provisional" or raw.get("provisional") is True:
            provisional.append(f"{where} = {json.dumps(raw['value'], ensure_ascii=False)} ({raw.get('source', 'no source')})")
        return raw["value"]
    return raw


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise GameError(f"battles: {where} must be a whole number >= 0, not {value!r}")
    return value


def _card(raw: Any, where: str, provisional: list[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise GameError(f"battles: {where} must be an object")
    name = _figure(raw.get("name"), f"{where} name", provisional)
    if not isinstance(name, str) or not name:
        raise GameError(f"battles: {where} needs a name")
    points_raw = raw.get("points")
    if not isinstance(points_raw, list) or not points_raw:
        raise GameError(f"battles: {name} needs a non-empty list of points")
    points = [_int(_figure(p, f"{name} place {i + 1} points", provisional), f"{name} points")
              for i, p in enumerate(points_raw)]
    deal = _figure(raw.get("deal", {"all": 0, "initiator": 0}), f"{name} deal", provisional)
    if not isinstance(deal, dict) or set(deal) - {"all", "initiator"}:
        raise GameError(f"battles: {name} deal must be {{'all': n, 'initiator': n}}")
    deal = {k: _int(deal.get(k, 0), f"{name} deal {k}") for k in ("all", "initiator")}
    if "number_status" in raw:
        _figure(raw["number_status"], f"{name} position", provisional)
    return {"id": str(raw.get("id") or name.lower()), "name": name, "points": points, "deal": deal,
            "number": raw.get("number"), "final": bool(raw.get("final", False))}


def load_battles(text: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """The battle table (``battles`` in order, ``chevauchees``) and its provisional figures.

    ``text`` is a GM's own JSON (option ``battles_json``); its shape is checked and a
    :class:`GameError` names what is wrong.
    """
    packaged = battles_raw()
    raw = packaged
    if text is not None:
        try:
            raw = json.loads(text)
        except ValueError as exc:
            raise GameError(f"battles_json is not JSON: {exc}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("battles"), list):
        raise GameError("battles_json must be an object with a list 'battles'")
    provisional: list[str] = []
    battles = [_card(b, f"battle {i + 1}", provisional) for i, b in enumerate(raw["battles"])]
    if len(battles) != 9:
        raise GameError(f"battles_json must list 9 battles, not {len(battles)}")
    ids = [b["id"] for b in battles]
    if len(set(ids)) != len(ids):
        raise GameError("battles_json: battle ids must be unique")
    if len(battles[-1]["points"]) < 6:
        battles[-1]["points"] += [0] * (6 - len(battles[-1]["points"]))
    chev_raw = raw.get("chevauchees", packaged["chevauchees"])
    if not isinstance(chev_raw, list) or len(chev_raw) != 2:
        raise GameError("battles_json: 'chevauchees' must list the two sides (odd, even)")
    chev = [_card(c, f"Chevauchées side {i + 1}", provisional) for i, c in enumerate(chev_raw)]
    return {"battles": battles, "chevauchees": chev}, provisional
