"""A GM's God's Playground board file checked against the rulebook's shape, every problem at once.

``pbem new ... --option board_json=@FILE`` calls :func:`board_problems` before the game is
made, so that a GM gets one message per problem of the file and fixes them in one go.
:func:`adjudicator.gods_playground.board.compile_board` (which every replay runs, for every
game already made) is left as it is: a board it accepted once still opens, and a valid board
plays as before.

Beyond the type and range of every figure, the shape the rulebook gives the board (seed 004;
docs/gods-playground-rules.md, "The board data"): each enemy borders its own province and has
its own die face (1-5; a 6 is no invasion), a Sejm space per province, the estate tracks start
within their limits, and the royal army table starts at a total of 0 and gives no fewer units
for a higher total.
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.gods_playground.board import ENEMIES, MARKERS, PROVINCES, STATUSES, UNITS

_MISSING = object()


class _Check:
    """Walks a board file, noting each problem (with the field it is in) and going on."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def bad(self, message: str) -> None:
        self.problems.append(message)

    def get(self, raw: Any, key: str, where: str) -> Any:
        """``raw[key]``, or _MISSING (noted) when ``raw`` is no object or lacks it."""
        if not isinstance(raw, dict) or key not in raw:
            self.bad(f"missing field {where}{'.' if where else ''}{key}")
            return _MISSING
        return raw[key]

    def fig(self, raw: Any, where: str) -> Any:
        """The value of a figure ``{value, status, source}``, or _MISSING (noted)."""
        if raw is _MISSING:
            return _MISSING
        if not isinstance(raw, dict) or "value" not in raw:
            self.bad(f"{where} must be {{value, status, source}}")
            return _MISSING
        if raw.get("status", "verified") not in STATUSES:
            self.bad(f"{where}.status must be one of {', '.join(STATUSES)}, not {raw.get('status')!r}")
        return raw["value"]

    def whole(self, value: Any, where: str, low: int, high: int) -> int | None:
        if value is _MISSING:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.bad(f"{where} must be a whole number {low}-{high}, not {_short(value)}")
            return None
        return value

    def units(self, value: Any, where: str) -> dict[str, int | None] | None:
        if value is _MISSING:
            return None
        if not isinstance(value, dict):
            self.bad(f"{where} must be {{inf, cav, can}}")
            return None
        return {u: self.whole(self.get(value, u, where), f"{where}.{u}", 0, 4) for u in UNITS}

    def provinces_once(self, value: Any, where: str, what: str) -> None:
        """``value`` must list each province exactly once."""
        if value is _MISSING:
            return
        if not isinstance(value, list) or sorted(map(str, value)) != sorted(PROVINCES):
            missing = [p for p in PROVINCES if not isinstance(value, list) or p not in value]
            extra = [str(v) for v in value if v not in PROVINCES] if isinstance(value, list) else []
            twice = sorted({v for v in value if isinstance(v, str) and value.count(v) > 1}) \
                if isinstance(value, list) else []
            detail = "; ".join(part for part in (
                f"missing {', '.join(missing)}" if missing else "", f"twice: {', '.join(twice)}" if twice else "",
                f"not a province: {', '.join(_short(e) for e in extra)}" if extra else "") if part)
            self.bad(f"{where} must list {what} once each ({', '.join(PROVINCES)})" + (f": {detail}" if detail else ""))


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def board_problems(text: str) -> list[str]:
    """Every problem of a board file (the text of ``board_json``), each naming its field;
    empty when the file has the rulebook's shape."""
    try:
        raw = json.loads(text)
    except ValueError as exc:
        return [f"not valid JSON ({exc})"]
    if not isinstance(raw, dict):
        return ["the file must hold a JSON object"]
    c = _Check()
    c.provinces_once(c.fig(c.get(raw, "province_order", ""), "province_order"), "province_order", "every province")
    _provinces(c, c.get(raw, "provinces", ""))
    order = c.fig(c.get(raw, "enemy_order", ""), "enemy_order")
    if order is not _MISSING and order != list(ENEMIES):
        c.bad(f"enemy_order must be {', '.join(ENEMIES)} (fact 31)")
    _enemies(c, c.get(raw, "enemies", ""))
    _track(c, c.get(raw, "estate_track", ""))
    _royal(c, raw)
    c.provinces_once(c.fig(c.get(raw, "sejm_spaces", ""), "sejm_spaces"), "sejm_spaces",
                     "a Sejm space for each province (fact 47)")
    for key, high, names in (("unit_costs", 20, ("inf", "cav", "can", "cossack")),
                             ("unit_counts", 9, ("inf", "cav", "can", "cossack"))):
        table = c.fig(c.get(raw, key, ""), key)
        if table is not _MISSING:
            for name in names:
                c.whole(c.get(table, name, key), f"{key}.{name}", 0, high)
    return c.problems


def _provinces(c: _Check, provs: Any) -> None:
    if provs is _MISSING:
        return
    for p in PROVINCES:
        where = f"provinces.{p}.estates"
        row = c.fig(c.get(c.get(provs, p, "provinces"), "estates", f"provinces.{p}"), where) \
            if isinstance(provs, dict) and p in provs else c.get(provs, p, "provinces")
        if row is _MISSING:
            continue
        if not isinstance(row, list) or not 1 <= len(row) <= 12:
            c.bad(f"{where} must be a list of 1-12 printed values")
            continue
        values = [c.whole(v, f"{where}[{i}]", 0, 20) for i, v in enumerate(row)]
        if None not in values and values != sorted(values):  # type: ignore[type-var]
            c.bad(f"{where} must rise from the centre to the border")


def _enemies(c: _Check, enemies: Any) -> None:
    if enemies is _MISSING:
        return
    dice: dict[int, list[str]] = {}
    borders: dict[str, list[str]] = {}
    for e in ENEMIES:
        src = c.get(enemies, e, "enemies")
        if src is _MISSING:
            continue
        where = f"enemies.{e}"
        strength = c.get(src, "strength", where)
        if strength is not _MISSING and (not isinstance(strength, list) or len(strength) != 4):
            c.bad(f"{where}.strength must list 4 rounds")
        elif strength is not _MISSING:
            for i, s in enumerate(strength):
                value = c.fig(s, f"{where}.strength[{i}]")
                if not (e == "habsburgs" and i < 3):
                    c.whole(value, f"{where}.strength[{i}]", 0, 30)
                elif value is not None:  # rounds 1-3: influence markers (habsburg_influence=track), or none
                    c.whole(value, f"{where}.strength[{i}]", 0, MARKERS)
        raids = c.fig(c.get(src, "raids", where), f"{where}.raids")
        if raids is not _MISSING and (not isinstance(raids, list) or any(x not in PROVINCES for x in raids)):
            c.bad(f"{where}.raids must list provinces ({', '.join(PROVINCES)})")
        elif raids is not _MISSING and len(set(raids)) != len(raids):
            c.bad(f"{where}.raids names a province twice")
        die = c.whole(c.fig(c.get(src, "die", where), f"{where}.die"), f"{where}.die", 1, 5)
        if die is not None:
            dice.setdefault(die, []).append(e)
        province = c.fig(c.get(src, "province", where), f"{where}.province")
        if province is not _MISSING and province not in PROVINCES:
            c.bad(f"{where}.province must be one of {', '.join(PROVINCES)}")
        elif province is not _MISSING:
            borders.setdefault(province, []).append(e)
        c.whole(c.fig(c.get(src, "vp", where), f"{where}.vp"), f"{where}.vp", 0, 20)
        if "names_by_round" in src:
            names = c.fig(src["names_by_round"], f"{where}.names_by_round")
            if names is not _MISSING and (not isinstance(names, list) or len(names) != 4
                                          or not all(isinstance(n, str) and n.strip() for n in names)):
                c.bad(f"{where}.names_by_round must list 4 names, one a round")
    for die, who in sorted(dice.items()):
        if len(who) > 1:
            c.bad(f"enemies {', '.join(who)} all have die face {die} (enemies.<enemy>.die): each enemy has "
                  "its own face, 1-5 (a 6 is no invasion)")
    for province, who in borders.items():
        if len(who) > 1:
            c.bad(f"enemies {', '.join(who)} all border {province} (enemies.<enemy>.province): each enemy "
                  "borders its own province")
    turks = enemies.get("turks") if isinstance(enemies, dict) else None
    if isinstance(turks, dict):
        key = "enemies.turks.strength_round4_with_habsburg_box"
        c.whole(c.fig(c.get(turks, "strength_round4_with_habsburg_box", "enemies.turks"), key), key, 0, 30)


def _track(c: _Check, track: Any) -> None:
    if track is _MISSING:
        return
    got = {k: c.whole(c.fig(c.get(track, k, "estate_track"), f"estate_track.{k}"), f"estate_track.{k}", 0, 9)
           for k in ("start", "min", "max")}
    start, low, high = got["start"], got["min"], got["max"]
    if low is not None and high is not None and low >= high:
        c.bad(f"estate_track.min ({low}) must be below estate_track.max ({high})")
    elif start is not None and low is not None and high is not None and not low <= start <= high:
        c.bad(f"estate_track.start ({start}) must lie within estate_track.min-max ({low}-{high})")


def _royal(c: _Check, raw: dict[str, Any]) -> None:
    court = c.get(raw, "court_troops", "")
    if court is not _MISSING and (not isinstance(court, list) or len(court) != 4):
        c.bad("court_troops must list 4 rounds")
    elif court is not _MISSING:
        for i, row in enumerate(court):
            c.units(c.fig(row, f"court_troops[{i}]"), f"court_troops[{i}]")
    table = c.fig(c.get(raw, "royal_army_table", ""), "royal_army_table")
    if table is not _MISSING and (not isinstance(table, list) or not table):
        c.bad("royal_army_table must be a list of {min, inf, cav, can} rows")
    elif table is not _MISSING:
        rows = []
        for i, row in enumerate(table):
            where = f"royal_army_table[{i}]"
            units = c.units(row, where)
            low = c.whole(c.get(row, "min", where), f"{where}.min", 0, 30) if units is not None else None
            if units is not None and low is not None and None not in units.values():
                rows.append((low, units))
        mins = [low for low, _ in rows]
        if len(rows) == len(table):
            if 0 not in mins:
                c.bad("royal_army_table has no row for a total of 0 (a row with min 0): every total of the "
                      "nobles must find its row")
            for low in sorted({m for m in mins if mins.count(m) > 1}):
                c.bad(f"royal_army_table has two rows for min {low}")
            ordered = sorted(rows, key=lambda r: r[0])
            for (low_a, a), (low_b, b) in zip(ordered, ordered[1:]):
                fewer = [u for u in UNITS if (b[u] or 0) < (a[u] or 0)]
                if fewer and low_a != low_b:
                    c.bad(f"royal_army_table: the row for min {low_b} gives fewer {', '.join(fewer)} than the "
                          f"row for min {low_a} (a higher total never gives fewer units)")
    c.units(c.fig(c.get(raw, "royal_army_max", ""), "royal_army_max"), "royal_army_max")
