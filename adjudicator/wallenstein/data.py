"""The Wallenstein data files (``data/*.json``), loaded once and read-only.

Every figure in the files carries its source; provisional figures say so and why. Nothing
here is hard-coded a second time: the rules modules read these tables.

A game reads the data files of its own rules version (:mod:`adjudicator.wallenstein.releases`,
by their hashes): every function here reads the version in force, and caches per version.
The module's constants (``ACTIONS`` ...) are figures no release has changed
(tests/test_versions.py checks it).
"""

from __future__ import annotations

from typing import Any

from adjudicator.wallenstein.releases import DATA_DIR, RELEASES

FILES = ("counties.json", "events.json", "famine.json", "rules.json", "setup.json", "tower.json")
#: read only with the Imperial Court expansion (their provisional figures: court.provisional)
COURT_FILES = ("court.json", "favour_cards.json")


def load(name: str) -> Any:
    """The parsed JSON of data file ``name`` in the game's rules version (read-only)."""
    return RELEASES.load(name)


def data_files() -> dict[str, str]:
    """Data file name -> SHA-256 of the files the game in force reads (a new game: today's)."""
    return RELEASES.data_files()


@RELEASES.cached
def counties() -> dict[str, dict[str, Any]]:
    """All 45 counties by canonical name."""
    return {c["name"]: c for c in load("counties.json")["counties"]}


@RELEASES.cached
def in_play(n_seats: int) -> tuple[str, ...]:
    """Canonical names of the counties used with ``n_seats`` seats (rule 3.1), sorted."""
    return tuple(sorted(n for n, c in counties().items() if n_seats > 3 or c["used_with_3"]))


@RELEASES.cached
def neighbours(name: str, n_seats: int) -> tuple[str, ...]:
    """The in-play neighbours of a county (out-of-play counties 'do not exist', rule 3.1)."""
    return tuple(n for n in counties()[name]["neighbours"] if n_seats > 3 or counties()[n]["used_with_3"])


@RELEASES.cached
def events() -> dict[str, dict[str, Any]]:
    """The 12 event cards by id."""
    return {e["id"]: e for e in load("events.json")["events"]}


def famine_row(shortfall: int) -> dict[str, Any] | None:
    """The famine-table row for a grain shortfall (rule 4.2.2), or None when there is none."""
    if shortfall < 1:
        return None
    for row in load("famine.json")["rows"]:
        top = row["shortfall_max"]
        if row["shortfall_min"] <= shortfall and (top is None or shortfall <= top):
            return row
    raise ValueError(f"no famine row for shortfall {shortfall}")


def setup_value(key: str, n_seats: int | None = None) -> Any:
    """A figure of ``setup.json`` (per seat count when ``n_seats`` is given)."""
    entry = load("setup.json")[key]
    return entry[str(n_seats)] if n_seats is not None else entry["value"]


def piece_colours() -> tuple[str, ...]:
    """The colours of the players' pieces, as the setup data lists them (the registry entry's
    palette)."""
    return tuple(setup_value("colors"))


def rules() -> dict[str, Any]:
    """``rules.json``: action costs, bonus tiles, scoring."""
    return load("rules.json")


ACTIONS: tuple[str, ...] = tuple(load("rules.json")["actions"]["order"])
BONUS_TILES: tuple[str, ...] = tuple(load("rules.json")["bonus_tiles"]["value"])
BUILDINGS: tuple[str, ...] = tuple(load("rules.json")["buildings"]["value"])
MONEY_CARDS: tuple[int, ...] = tuple(load("rules.json")["money_cards"]["value"])


def provisional() -> list[dict[str, str]]:
    """Every provisional figure of the base game: ``{file, figure, reason}``."""
    out = []
    for name in FILES:
        doc = load(name)
        if isinstance(doc, dict):
            if doc.get("provisional"):
                out.append({"file": name, "figure": "model", "reason": doc.get("reason", "")})
            for key, value in doc.items():
                if isinstance(value, dict) and value.get("provisional"):
                    out.append({"file": name, "figure": key, "reason": value.get("reason", "")})
    return out
