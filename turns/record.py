"""The readable game record (the PGN of this project): a plain-text transcript of a game.

Example (a game of seasons; ``<game>`` is the engine's name)::

    [Game "w1"]
    [Engine "<game>"]
    [EngineVersion "1"]
    [Seat "red"]
    [Seat "blue"]
    [Option "setup=random"]
    [Commitment "9f2c..."]
    [Seed "demo-seed"]
    [Result "red"]

    CHANCE setup tower: out red 2, blue 6, peasants 4; stayed red 5, blue 1, peasants 6

    = 1618-spring
    - red
      TAX Burgund
      BID 2
    - blue missed
    CHANCE 1618-spring actions: order palace, attacka, recruit3, recruit1, attackb, tax, grain, church, trade, recruit5
    ; chance <game>/1618/spring/actions: Action 1: collect taxes
    ; scores red 3, blue 2
    # state 5d41402abc4b2a76b9719d911017c592...

Headers are ``[Name "value"]`` lines (a name may repeat: ``Seat``, ``Option``). Each turn
starts with ``= <turn label>``; ``- <seat>`` starts a seat's orders, written two spaces in,
in the game's canonical order syntax (``- <seat> missed``: the seat sent none and the
missed-orders policy applied); ``;`` lines are notes for people (chance outcomes, results)
that readers keep but do not interpret; ``# state <hash>`` is the state hash after the turn.
``CHANCE <what was drawn>: <outcome>`` lines (before the first turn: the setup's draws; in a
turn: the draws of its adjudication) carry the chance outcomes of a game with recorded
chance (:mod:`adjudicator.recorded`); each remembers its line number for messages.
An archivist may add ``;`` notes anywhere in a turn. ``read_record(write_record(r)) == r``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADER = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


class RecordError(ValueError):
    """A record text that cannot be read; the message names the line."""


@dataclass
class RecordTurn:
    """One turn: each seat's orders as canonical text (``None``: missed), notes, state hash."""

    turn: str
    orders: dict[str, str | None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    state_hash: str = ""
    chance: list[str] = field(default_factory=list)
    chance_lines: list[int] = field(default_factory=list, compare=False)  # line number of each
    line: int = field(default=0, compare=False)  # line number of '= <turn>'
    seat_lines: dict[str, int] = field(default_factory=dict, compare=False)  # line of '- <seat>'


@dataclass
class Record:
    """A whole game: ordered headers and turns."""

    headers: list[tuple[str, str]] = field(default_factory=list)
    turns: list[RecordTurn] = field(default_factory=list)
    chance: list[str] = field(default_factory=list)  # the setup's chance lines
    chance_lines: list[int] = field(default_factory=list, compare=False)
    notes: list[str] = field(default_factory=list)  # ';' lines before the first turn

    def header(self, name: str) -> str | None:
        """The first header called ``name``, or None."""
        return next((v for k, v in self.headers if k == name), None)

    def headers_named(self, name: str) -> list[str]:
        """Every header called ``name``, in order."""
        return [v for k, v in self.headers if k == name]


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def write_record(record: Record) -> str:
    """The text of ``record``."""
    lines = [f'[{name} "{_quote(value)}"]' for name, value in record.headers]
    lines += [f"; {note}" for note in record.notes]
    if record.chance:
        lines += ["", *(f"CHANCE {c}" for c in record.chance)]
    for turn in record.turns:
        lines += ["", f"= {turn.turn}"]
        for seat, text in turn.orders.items():
            if text is None:
                lines.append(f"- {seat} missed")
                continue
            lines.append(f"- {seat}")
            lines += [f"  {line}" for line in text.splitlines() if line.strip()]
        lines += [f"CHANCE {c}" for c in turn.chance]
        lines += [f"; {note}" for note in turn.notes]
        lines.append(f"# state {turn.state_hash}")
    return "\n".join(lines) + "\n"


def read_record(text: str) -> Record:
    """Parse a record text; raises :class:`RecordError` naming the first bad line."""
    record = Record()
    turn: RecordTurn | None = None
    seat: str | None = None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if turn is None and line.startswith("["):
            match = _HEADER.match(line)
            if not match:
                raise RecordError(f"line {n}: bad header {line!r}")
            record.headers.append((match.group(1), _unquote(match.group(2))))
        elif line.startswith("= "):
            turn, seat = RecordTurn(line[2:].strip(), line=n), None
            record.turns.append(turn)
        elif line.startswith("CHANCE "):
            holder = record if turn is None else turn
            holder.chance.append(" ".join(line[len("CHANCE "):].split()))
            holder.chance_lines.append(n)
            seat = None
        elif turn is None and line.startswith(";"):
            record.notes.append(line[1:].strip())
        elif turn is None:
            raise RecordError(f"line {n}: expected a header or '= <turn>', got {line!r}")
        elif line.startswith("- "):
            words = line[2:].split()
            if not words or len(words) > 2 or (len(words) == 2 and words[1] != "missed"):
                raise RecordError(f"line {n}: expected '- <seat>' or '- <seat> missed'")
            seat = words[0]
            turn.orders[seat] = None if len(words) == 2 else ""
            turn.seat_lines[seat] = n
            if len(words) == 2:
                seat = None
        elif line.startswith("  "):
            if seat is None:
                raise RecordError(f"line {n}: an order line outside a seat's orders")
            previous = turn.orders[seat] or ""
            turn.orders[seat] = previous + ("\n" if previous else "") + line.strip()
        elif line.startswith(";"):
            turn.notes.append(line[1:].strip())
        elif line == "# state" or line.startswith("# state "):
            turn.state_hash = line[len("# state"):].strip()
        else:
            raise RecordError(f"line {n}: cannot read {line!r}")
    return record
