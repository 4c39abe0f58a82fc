"""The pieces of a Wallenstein order line: counties, army counts, numbers, name lists.

Each reader takes the words of one part of a line and a :class:`Line` to report problems
to; it returns the value, or ``None`` after recording why there is none. Used by
:mod:`turns.wallenstein`.
"""

from __future__ import annotations

import re

from turns.base import LineProblem
from turns.wallenstein_names import county_names, resolve_county

#: Marker words inside a line, by canonical marker.
MARKERS = {"TO": "TO", "->": "TO", "→": "TO", "INTO": "TO", "WITH": "WITH", "MOVE": "MOVE",
           "LEAVE": "LEAVE", "KEEP": "LEAVE", "IF": "IF", "ONLYIF": "IF"}
ALL_WORDS = {"ALL", "ALLE"}
ARMY_WORDS = {"ARMY", "ARMIES", "ARMEE", "ARMEEN"}
MAX_NAME_WORDS = 6
_INT = re.compile(r"[+]?\d{1,6}")


class Line:
    """One order line being read: its number, its text and the problems found in it (a plain
    class, not a dataclass: the grammar's scratch, never compared or shown, and a mail hook's
    process need not build its methods)."""

    def __init__(self, number: int, text: str) -> None:
        self.number = number
        self.text = text
        self.problems: list[LineProblem] = []

    def problem(self, message: str, suggestions: tuple[str, ...] = (), stage: str = "syntax") -> None:
        """Record a problem of this line."""
        self.problems.append(LineProblem(self.number, message, suggestions, stage, self.text))


def split_list(words: list[str]) -> list[str]:
    """Words of a list written with commas and/or spaces (``5, 4 4,3``)."""
    return [w for word in words for w in re.split(r"[,;]+", word) if w]


def read_int(word: str) -> int | None:
    """A whole number written as digits, else ``None``."""
    return int(word) if _INT.fullmatch(word) else None


def read_county(words: list[str], what: str, line: Line) -> str | None:
    """The canonical county named by ``words`` (``what`` names its role in messages)."""
    written = " ".join(words).strip(" ,;")
    if not written:
        line.problem(f"{what} is missing: name a county")
        return None
    found = resolve_county(written)
    if found.county is not None:
        return found.county
    if found.ambiguous:
        line.problem(f"{what} {written!r} could be several counties; write one of them",
                     found.suggestions, stage="name")
    else:
        line.problem(f"{what} {written!r} is not a county I know", found.suggestions, stage="name")
    return None


def read_armies(words: list[str], line: Line) -> int | str | None:
    """``"ALL"`` or a positive number of armies (a trailing ``armies`` is allowed)."""
    if len(words) > 1 and words[-1].upper() in ARMY_WORDS:
        words = words[:-1]
    if len(words) == 1 and words[0].upper() in ALL_WORDS:
        return "ALL"
    number = read_int(words[0]) if len(words) == 1 else None
    if number is None:
        line.problem(f"how many armies: write ALL or a number, not {' '.join(words) or 'nothing'!r}")
        return None
    if number < 1:
        line.problem("the number of armies must be at least 1 (leave the move out to move none)")
        return None
    return number


def read_counties(words: list[str], line: Line) -> list[str] | None:
    """A list of counties, separated by commas (or, failing that, by spaces)."""
    pieces = [p.strip() for p in re.split(r"[,;]", " ".join(words)) if p.strip()]
    if not pieces:
        line.problem("list the counties, separated by commas")
        return None
    counties: list[str] = []
    ok = True
    for piece in pieces:
        found = _segment(piece.split())
        if found is None:
            read_county(piece.split(), "county", line)
            ok = False
        else:
            counties.extend(found)
    return counties if ok else None


def _segment(words: list[str]) -> list[str] | None:
    """Split words into county names, longest names first; ``None`` if they do not split."""
    names = county_names()
    if names.exact(" ".join(words)) is not None:  # one name, even if longer than usual
        return [str(names.exact(" ".join(words)))]
    best: dict[int, list[str]] = {len(words): []}  # best[i]: the names of words[i:]
    for start in range(len(words) - 1, -1, -1):
        for end in range(min(len(words), start + MAX_NAME_WORDS), start, -1):
            county = names.exact(" ".join(words[start:end]))
            if county is not None and end in best:
                best[start] = [county, *best[end]]
                break
    return best.get(0)


def split_markers(words: list[str], line: Line) -> tuple[list[str], dict[str, list[str]]] | None:
    """Split words at the markers TO / WITH / MOVE: the head, and each marker's words."""
    head: list[str] = []
    parts: dict[str, list[str]] = {}
    current = head
    for word in words:
        marker = MARKERS.get(word.upper())
        if marker is None:
            current.append(word)
        elif marker in parts:
            line.problem(f"{marker} appears twice in this line")
            return None
        else:
            current = parts[marker] = []
    return head, parts


def read_names(words: list[str], known: dict[str, str], what: str, line: Line) -> list[str] | None:
    """A list of names from ``known`` (written form -> canonical), no repeats."""
    found: list[str] = []
    ok = True
    for word in split_list(words):
        name = known.get(word.lower().strip(".:"))
        if name is None:
            import difflib  # only for a word that names nothing

            close = tuple(difflib.get_close_matches(word.lower(), sorted(set(known.values())), n=3))
            line.problem(f"{word!r} is not a {what}; the {what}s are {', '.join(sorted(set(known.values())))}",
                         close, stage="name")
            ok = False
        elif name in found:
            line.problem(f"{name} is listed twice")
            ok = False
        else:
            found.append(name)
    return found if ok else None


def read_numbers(words: list[str], low: int, high: int | None, what: str, line: Line) -> list[int] | None:
    """A list of whole numbers in ``low..high`` (commas or spaces between them)."""
    numbers: list[int] = []
    ok = True
    for word in split_list(words):
        number = read_int(word)
        if number is None or number < low or (high is not None and number > high):
            limit = f"{low} to {high}" if high is not None else f"at least {low}"
            line.problem(f"{word!r} is not a valid {what} (a whole number, {limit})")
            ok = False
        else:
            numbers.append(number)
    return numbers if ok else None
