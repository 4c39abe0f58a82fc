"""The God's Playground board data: loading, checking, and the compact tables the engine uses.

``data/board.json`` holds every figure the board prints as ``{value, status, source}``
(verified / consistent / provisional). A GM with the printed board passes the same shape as
option ``board_json`` (``--option board_json=@FILE``): it is checked field by field, and a
bad file is refused with an error naming the field before anything is created.
"""

from __future__ import annotations

import json
import os
from typing import Any

from adjudicator.base import GameError
from adjudicator.gods_playground.releases import DATA_DIR, RELEASES, rule

#: today's board file (a game reads the one of its rules version: :func:`default_board`)
BOARD_FILE = os.path.join(DATA_DIR, "board.json")
PROVINCES = ("royal_prussia", "lithuania", "ukraine", "little_poland", "greater_poland")
ENEMIES = ("black", "russians", "tatars", "turks", "habsburgs")
UNITS = ("inf", "cav", "can")
STATUSES = ("verified", "consistent", "provisional")
#: Habsburg influence markers in the box (Components: „10 Habsburg befolyásjelző”)
MARKERS = 10


def data_files() -> dict[str, str]:
    """name -> SHA-256 of the board file the game in force reads (a new game: today's)."""
    return RELEASES.data_files()


class _Reader:
    """Reads labelled figures, noting the provisional ones and naming a bad field."""

    def __init__(self) -> None:
        self.provisional: list[str] = []

    def fig(self, raw: Any, where: str) -> Any:
        if not isinstance(raw, dict) or "value" not in raw:
            raise GameError(f"board_json: {where} must be {{value, status, source}}")
        status = raw.get("status", "verified")
        if status not in STATUSES:
            raise GameError(f"board_json: {where}.status must be one of {', '.join(STATUSES)}, not {status!r}")
        if status == "provisional":
            value = json.dumps(raw["value"], ensure_ascii=False)
            self.provisional.append(f"{where} = {value} (provisional: {raw.get('source', 'no source')})")
        return raw["value"]


def _int(value: Any, where: str, low: int = 0, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise GameError(f"board_json: {where} must be a whole number {low}-{high}, not {value!r}")
    return value


def _get(raw: dict[str, Any], key: str, where: str) -> Any:
    if not isinstance(raw, dict) or key not in raw:
        raise GameError(f"board_json: missing field {where}{'.' if where else ''}{key}")
    return raw[key]


def _units(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise GameError(f"board_json: {where} must be {{inf, cav, can}}")
    return {u: _int(_get(value, u, where), f"{where}.{u}", 0, 4) for u in UNITS}


def _order(r: _Reader, raw: dict[str, Any], key: str, names: tuple[str, ...], ordered: bool, why: str = "") -> list[str]:
    """The figure ``key``: each of ``names`` once, in that order when ``ordered``."""
    order = list(r.fig(_get(raw, key, ""), key))
    if (order != list(names)) if ordered else (sorted(order) != sorted(names)):
        raise GameError(f"board_json: {key} must {'be' if ordered else 'list'} {', '.join(names)}{why}")
    return order


def compile_board(raw: dict[str, Any]) -> dict[str, Any]:
    """The compact tables of a board file; :class:`GameError` naming the first bad field."""
    r = _Reader()
    if not isinstance(raw, dict):
        raise GameError("board_json: the file must hold a JSON object")
    out: dict[str, Any] = {"provinces": {}, "enemies": {}}
    out["province_order"] = _order(r, raw, "province_order", PROVINCES, ordered=False)
    provs = _get(raw, "provinces", "")
    for p in PROVINCES:
        row = r.fig(_get(_get(provs, p, "provinces"), "estates", f"provinces.{p}"), f"provinces.{p}.estates")
        if not isinstance(row, list) or not 1 <= len(row) <= 12:
            raise GameError(f"board_json: provinces.{p}.estates must be a list of 1-12 printed values")
        values = [_int(v, f"provinces.{p}.estates[{i}]", 0, 20) for i, v in enumerate(row)]
        if values != sorted(values):
            raise GameError(f"board_json: provinces.{p}.estates must rise from the centre to the border")
        prov = provs[p]
        out["provinces"][p] = {"estates": values, "name": str(prov.get("name", p)),
                               "aliases": [str(a) for a in prov.get("aliases", [])]}
    out["enemy_order"] = _order(r, raw, "enemy_order", ENEMIES, ordered=True, why=" (fact 31)")
    enemies = _get(raw, "enemies", "")
    for e in ENEMIES:
        src = _get(enemies, e, "enemies")
        where = f"enemies.{e}"
        strength = _get(src, "strength", where)
        if not isinstance(strength, list) or len(strength) != 4:
            raise GameError(f"board_json: {where}.strength must list 4 rounds")
        track = [r.fig(s, f"{where}.strength[{i}]") for i, s in enumerate(strength)]
        if e == "habsburgs" and rule("influence_track"):  # rules version 3: rounds 1-3 give influence markers
            out["influence_track"] = [None if v is None else _int(v, f"{where}.strength[{i}]", 0, MARKERS)
                                      for i, v in enumerate(track[:3])]
        track = [None if (e == "habsburgs" and i < 3) else _int(v, f"{where}.strength[{i}]", 0, 30)
                 for i, v in enumerate(track)]
        raids = r.fig(_get(src, "raids", where), f"{where}.raids")
        if not isinstance(raids, list) or any(x not in PROVINCES for x in raids):
            raise GameError(f"board_json: {where}.raids must list provinces ({', '.join(PROVINCES)})")
        out["enemies"][e] = {
            "name": str(src.get("name", e)), "aliases": [str(a) for a in src.get("aliases", [])],
            "die": _int(r.fig(_get(src, "die", where), f"{where}.die"), f"{where}.die", 1, 5),
            "province": r.fig(_get(src, "province", where), f"{where}.province"),
            "strength": track, "vp": _int(r.fig(_get(src, "vp", where), f"{where}.vp"), f"{where}.vp", 0, 20),
            "raids": list(raids),
        }
        if out["enemies"][e]["province"] not in PROVINCES:
            raise GameError(f"board_json: {where}.province must be one of {', '.join(PROVINCES)}")
        names = src.get("names_by_round")
        if names is not None:
            out["enemies"][e]["names_by_round"] = [str(n) for n in r.fig(names, f"{where}.names_by_round")]
    turks = _get(enemies, "turks", "enemies")
    out["turks_round4_with_box"] = _int(r.fig(_get(turks, "strength_round4_with_habsburg_box", "enemies.turks"),
                                              "enemies.turks.strength_round4_with_habsburg_box"),
                                        "enemies.turks.strength_round4_with_habsburg_box", 0, 30)
    track = _get(raw, "estate_track", "")
    out["track"] = {k: _int(r.fig(_get(track, k, "estate_track"), f"estate_track.{k}"), f"estate_track.{k}", 0, 9)
                    for k in ("start", "min", "max")}
    court = _get(raw, "court_troops", "")
    if not isinstance(court, list) or len(court) != 4:
        raise GameError("board_json: court_troops must list 4 rounds")
    out["court"] = [_units(r.fig(c, f"court_troops[{i}]"), f"court_troops[{i}]") for i, c in enumerate(court)]
    table = r.fig(_get(raw, "royal_army_table", ""), "royal_army_table")
    if not isinstance(table, list) or not table:
        raise GameError("board_json: royal_army_table must be a list of {min, inf, cav, can} rows")
    rows = []
    for i, row in enumerate(table):
        units = _units(row, f"royal_army_table[{i}]")
        rows.append({"min": _int(_get(row, "min", f"royal_army_table[{i}]"), f"royal_army_table[{i}].min", 0, 30),
                     **units})
    out["royal_table"] = sorted(rows, key=lambda x: x["min"])
    out["royal_max"] = _units(r.fig(_get(raw, "royal_army_max", ""), "royal_army_max"), "royal_army_max")
    out["sejm"] = list(r.fig(_get(raw, "sejm_spaces", ""), "sejm_spaces"))
    costs = r.fig(_get(raw, "unit_costs", ""), "unit_costs")
    out["costs"] = {k: _int(_get(costs, k, "unit_costs"), f"unit_costs.{k}", 0, 20) for k in ("inf", "cav", "can", "cossack")}
    counts = r.fig(_get(raw, "unit_counts", ""), "unit_counts")
    out["counts"] = {k: _int(_get(counts, k, "unit_counts"), f"unit_counts.{k}", 0, 9) for k in ("inf", "cav", "can", "cossack")}
    out["provisional"] = r.provisional
    return out


@RELEASES.cached
def default_board() -> dict[str, Any]:
    """The compact tables of the packaged board file of the game's rules version."""
    return compile_board(RELEASES.load("board.json"))


def board_from_option(text: str) -> dict[str, Any]:
    """The compact tables of a GM's board file (option ``board_json``)."""
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise GameError(f"board_json: not valid JSON ({exc})") from None
    return compile_board(raw)



def board(state: dict[str, Any]) -> dict[str, Any]:
    """The tables a game uses: its own (``state["board"]``) or the packaged default."""
    custom = state.get("board")
    return default_board() if custom is None else custom
