"""Recorded chance: a game's chance outcomes written down instead of drawn from a seed.

A historical game (played at a table, at a tournament, on another server) has real dice,
towers and card draws but no pbem seed. Its record carries one line per draw, named in the
game's words, e.g.::

    1618-summer battle 2 for Anhalt: out red 3, blue 2, peasants 1; stayed red 1
    1618-spring actions: order tax, grain, palace, church, trade, recruit5, recruit3, recruit1, attacka, attackb
    1618-spring event: picked Pest
    round 3 campaign 2: rolled 4, 6, 1

Such a game's *seed* is the text of those lines under the first line :data:`MARK`; its
commitment (the SHA-256 of that text) is then the hash of the recorded chance, and
:class:`adjudicator.chance.Chance` over it reads every outcome from the lines instead of
drawing it. Each line is ``<label words>: <outcome>``; the label words are the draw's label
(:func:`label_words`), the outcome starts with its kind:

- ``order A, B, C`` -- a shuffle (the items not named follow in the order they were given);
- ``picked X`` -- one item chosen; ``rolled 4`` (or ``rolled 4, 6, 1``: several dice in turn);
- ``number 2`` -- a plain number; and compound draws an engine words itself (a cube
  tower: ``out ...; stayed ...``, see :func:`Stream.outcome <adjudicator.chance.Stream.outcome>`).

:class:`RecordingSeed` is the other direction: a seed whose streams draw as usual and write
every outcome down in these words (``pbem export --format record --chance``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from adjudicator import games
from adjudicator.gameinfo import GameInfo
from adjudicator.stream import Stream

T = TypeVar("T")

#: The first line of a recorded-chance seed.
MARK = "pbem recorded chance/1"

_SEASON = re.compile(r"^(\d{4}) (spring|summer|autumn|winter)\b")


class ChanceLineError(Exception):
    """A recorded chance line that is missing, of the wrong kind, or impossible here.

    ``line`` is the record line number (None when the draw has no line at all); the
    message is a sentence a person understands, naming the draw in the game's words.
    """

    def __init__(self, line: int | None, words: str, sentence: str) -> None:
        self.line, self.words, self.sentence = line, words, sentence
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{words}: {sentence}")


class ChanceProblem(ValueError):
    """Raised by an engine's ``read`` of a compound outcome: the sentence says what is wrong."""


def label_words(label: str) -> str:
    """A draw label in the game's words: the game's label root dropped (its entry's
    ``label_root``; ``<root>/1618/summer/battle/2/tower`` -> ``1618-summer battle 2 tower``),
    its ``label_prefix`` put before a number (``<root>/3/campaign/2`` -> ``round 3 campaign 2``)."""
    parts = label.split("/")
    game = _game_of_root(parts[0]) if len(parts) > 1 else None
    if game is not None:
        words = (game.label_prefix if parts[1].isdigit() else "") + " ".join(parts[1:])
    else:
        words = " ".join(parts)
    words = _SEASON.sub(r"\1-\2", words)
    return " ".join(words.replace(":", " ").split())


def _game_of_root(root: str) -> GameInfo | None:
    """The game whose chance labels start with ``root`` (its registry entry's ``label_root``)."""
    return _roots(tuple(games.names())).get(root)


@lru_cache(maxsize=8)
def _roots(names: tuple[str, ...]) -> dict[str, GameInfo]:
    return {g.label_root: g for g in map(games.info, names) if g.label_root}


def _older() -> list[tuple[re.Pattern[str], str]]:
    """How records written before some draws were named in the game's words said them (each
    game's ``older_labels``): a pattern of today's words and the older words it gives."""
    return _older_of(tuple(games.names()))


@lru_cache(maxsize=8)
def _older_of(names: tuple[str, ...]) -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(p), r) for g in map(games.info, names) for p, r in g.older_labels]


def same_draw(written: str, drawn: str) -> bool:
    """True when the chance line ``written`` says the draw ``drawn`` (both ``words: outcome``)
    in other accepted words: a battle without its number (``1618-summer battle for Anhalt``) or
    the older numbered words (``1618-summer battle 2 tower``, ``b3 deck reshuffle 1``)."""
    words, _, outcome = written.partition(": ")
    named, _, drawn_outcome = drawn.partition(": ")
    if outcome != drawn_outcome:
        return False
    forms = {re.sub(r" battle \d+ for ", " battle for ", named), *(p.sub(r, named) for p, r in _older())}
    return words in forms


def is_recorded(seed: object) -> bool:
    """True when ``seed`` is recorded chance (its text starts with :data:`MARK`)."""
    return isinstance(seed, str) and (seed == MARK or seed.startswith(MARK + "\n"))


@dataclass(frozen=True)
class Entry:
    """One recorded draw: its outcome words and its index among the seed's lines."""

    outcome: str
    index: int
    sub: int = 0  # the die's place on a 'rolled 4, 6, 1' line


@dataclass
class Recorded:
    """The parsed lines of a recorded-chance seed: label words -> draws in order."""

    draws: dict[str, list[Entry]]
    lines: list[int] | None = None  # record line number of each seed line (for messages)
    used: set[tuple[int, int]] = field(default_factory=set)
    count: int = 0
    starts: dict[tuple[str, str], int] = field(default_factory=dict)  # (words, label) -> first entry
    taken: dict[str, int] = field(default_factory=dict)  # words -> entries drawn by the labels so far

    def unused(self, upto: int) -> tuple[int, str, str] | None:
        """The first draw of seed lines ``0..upto-1`` never drawn: ``(index, words, outcome)``."""
        left = [(e.index, e.sub, w, e.outcome) for w, entries in self.draws.items() for e in entries
                if e.index < upto and (e.index, e.sub) not in self.used]
        if not left:
            return None
        index, _, words, outcome = min(left)
        return index, words, outcome

    def line_of(self, index: int) -> int:
        """The record line of seed line ``index`` (its own number when none is known)."""
        return self.lines[index] if self.lines and index < len(self.lines) else index + 1

    def stream(self, label: str, words: Sequence[tuple[str, int]] = ()) -> Stream:
        """The stream of ``label``, reading the recorded draws (named by ``words``, see
        :meth:`adjudicator.chance.Chance.stream`, or by the label's own words)."""
        return RecordedStream(label, self, [(w, self.start(w, label) if at < 0 else at) for w, at in words])

    def start(self, words: str, label: str) -> int:
        """The place of ``label``'s first draw among the draws named ``words`` (a position of -1,
        see :meth:`adjudicator.chance.Chance.stream`): after all draws of the labels so named
        before it, in the order the game first drew them (the same on every replay)."""
        return self.starts.setdefault((words, label), self.taken.get(words, 0))


def split_line(text: str) -> tuple[str, str]:
    """``(label words, outcome)`` of one chance line; raises ValueError without ``: ``."""
    words, sep, outcome = text.partition(": ")
    if not sep or not words.strip() or not outcome.strip():
        raise ValueError("a chance line is '<what was drawn>: <outcome>'")
    return " ".join(words.split()), " ".join(outcome.split())


def parse(seed: str, lines: list[int] | None = None) -> Recorded:
    """Parse a recorded-chance seed (:data:`MARK` then one ``words: outcome`` line per draw)."""
    body = seed.split("\n")[1:]
    draws: dict[str, list[Entry]] = {}
    for index, text in enumerate(body):
        try:
            words, outcome = split_line(text)
        except ValueError as exc:
            line = lines[index] if lines and index < len(lines) else index + 1
            raise ChanceLineError(line, text.strip()[:40], str(exc)) from None
        if outcome.startswith("rolled "):  # several dice of one draw on one line
            for sub, die in enumerate(outcome[len("rolled "):].split(",")):
                draws.setdefault(words, []).append(Entry("rolled " + die.strip(), index, sub))
        else:
            draws.setdefault(words, []).append(Entry(outcome, index))
    return Recorded(draws, lines, count=len(body))


@lru_cache(maxsize=8)
def _parsed(seed: str) -> Recorded:
    return parse(seed)


def source_for(seed: str) -> Any:
    """The chance source of a recorded or recording seed (see :class:`adjudicator.chance.Chance`)."""
    if isinstance(seed, RecordingSeed):
        return seed
    if isinstance(seed, RecordedSeed):
        return seed.recorded
    return _parsed(str(seed)) if is_recorded(seed) else None


def _inner_stream(seed: str, label: str, words: Sequence[tuple[str, int]]) -> Any:
    """The stream ``Chance(seed).stream(label, words)`` gives (:class:`adjudicator.chance.Chance`),
    made here without importing ``Chance``, which imports this module for its recorded seeds:
    a plain seed's HMAC stream, or the stream of the recorded or recording source it is."""
    if type(seed) is not str or seed.startswith("pbem recorded chance/"):
        source = source_for(seed)
        if source is not None:
            return source.stream(label, words)
    return Stream(seed, label)


def seed_text(lines: Sequence[str]) -> str:
    """The recorded-chance seed of these ``words: outcome`` lines."""
    return "\n".join([MARK, *(" ".join(line.split()) for line in lines)])


class RecordedSeed(str):
    """A recorded-chance seed that knows the record line of each of its lines and which
    lines were drawn (for an import's messages and its check that no line is left over)."""

    recorded: Recorded

    def __new__(cls, text: str, lines: list[int]) -> RecordedSeed:
        self = super().__new__(cls, text)
        self.recorded = parse(text, lines)
        return self


def _names(items: Sequence[Any]) -> str:
    shown = ", ".join(str(i) for i in items[:12])
    return shown + (", ..." if len(items) > 12 else "")


class RecordedStream(Stream):
    """The draws of one label read from recorded lines, each checked against what is drawn from."""

    def __init__(self, label: str, recorded: Recorded,  # noqa: D107 - no seed bytes here
                 words: Sequence[tuple[str, int]] = ()) -> None:
        self.label = label
        self._forms = [*words, (label_words(label), 0)]
        self.words = self._forms[0][0]
        self._recorded = recorded
        # the first way of naming this draw that the record uses (with enough lines so named)
        self._entries, self._next, self._written = next(
            ((recorded.draws[w], at, w) for w, at in self._forms if len(recorded.draws.get(w, ())) > at),
            ([], 0, self.words))

    def _misnamed(self) -> None:
        """Refuse a line that names this draw's place wrongly (``battle 2 for Saxony`` where
        battle 2 was fought for Anhalt): the words before ``for`` match, the place does not."""
        named, sep, place = _place(self.words)  # said with this draw's number, if it has one
        for form, _ in self._forms:
            head, sep, _ = _place(form)
            if not sep:
                continue
            for written, entries in self._recorded.draws.items():
                other = _place(written)
                unused = [e for e in entries if (e.index, e.sub) not in self._recorded.used]
                if other[:2] == (head, sep) and other[2] != place and unused:
                    line = self._recorded.line_of(unused[0].index)
                    raise ChanceLineError(line, written, f"{named} was {sep.strip()} {place}, not {sep.strip()} "
                                          f"{other[2]}")

    def _take(self, kind: str, example: str) -> tuple[str, int]:
        if self._next >= len(self._entries):
            self._misnamed()
            n = self._next + 1
            which = "" if n == 1 else f"{_ordinal(n)} "
            raise ChanceLineError(None, self.words, f"the game draws here but the record has no {which}line for "
                                  f"it: add one such as 'CHANCE {self.words}: {example}' with what happened "
                                  "at the table")
        entry = self._entries[self._next]
        self._next += 1
        self._recorded.taken[self._written] = max(self._recorded.taken.get(self._written, 0), self._next)
        self._recorded.used.add((entry.index, entry.sub))
        head, _, rest = entry.outcome.partition(" ")
        if head != kind:
            self._fail(entry, f"the game draws '{kind} ...' here (e.g. '{example}'), the line says "
                              f"'{entry.outcome[:40]}'")
        return rest.strip(), entry.index

    def _fail(self, entry_or_index: Entry | int, sentence: str) -> None:
        index = entry_or_index.index if isinstance(entry_or_index, Entry) else entry_or_index
        raise ChanceLineError(self._recorded.line_of(index), self._written, sentence)

    def below(self, n: int) -> int:
        """The recorded ``number`` (0 to n-1)."""
        return self._number(0, n - 1)

    def randint(self, low: int, high: int) -> int:
        """The recorded ``number`` (low to high)."""
        return self._number(low, high)

    def _number(self, low: int, high: int) -> int:
        rest, index = self._take("number", f"number {low}")
        if not re.fullmatch(r"-?\d+", rest) or not low <= int(rest) <= high:
            self._fail(index, f"the number must be from {low} to {high}, not '{rest}'")
        return int(rest)

    def die(self, sides: int = 6) -> int:
        """The recorded ``rolled`` die."""
        rest, index = self._take("rolled", "rolled 4")
        if not rest.isdigit() or not 1 <= int(rest) <= sides:
            self._fail(index, f"a die shows 1 to {sides}, not '{rest}'")
        return int(rest)

    def choice(self, items: Sequence[T]) -> T:
        """The recorded ``picked`` item, which must be one of ``items``."""
        rest, index = self._take("picked", f"picked {items[0] if items else '...'}")
        found = [i for i in items if str(i) == rest]
        if not found:
            self._fail(index, f"'{rest}' is not one of {_names(list(items))}")
        return found[0]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """The recorded ``order``: named items first, the others after them as given."""
        rest, index = self._take("order", "order " + ", ".join(str(i) for i in items[:3]))
        left = list(items)
        out: list[T] = []
        for name in [n.strip() for n in rest.split(",") if n.strip()]:
            match = next((i for i in left if str(i) == name), None)
            if match is None:
                again = any(str(i) == name for i in out)
                self._fail(index, f"'{name}' is named twice" if again else
                           f"'{name}' is not one of {_names(list(items))}")
            left.remove(match)  # type: ignore[arg-type]
            out.append(match)  # type: ignore[arg-type]
        return out + left

    def outcome(self, kind: str, compute: Callable[[Stream], T], write: Callable[[T], str],
                read: Callable[[str], T], example: str = "") -> T:
        """A compound draw read from its line by the engine's ``read`` (which checks it)."""
        rest, index = self._take(kind, example or kind)
        try:
            return read(rest)
        except ChanceProblem as exc:
            self._fail(index, str(exc))
            raise  # unreachable: _fail raises


_PLACE = re.compile(r"^(.*)( for | against the | on )(.*)$")


def _place(words: str) -> tuple[str, str, str]:
    """``(head, separator, place)`` of draw words naming a place: ``1618-summer battle 2 for
    Anhalt``, ``round 2 white's campaign against the Tatars``; ``(words, "", "")`` otherwise."""
    found = _PLACE.match(words)
    return (found.group(1), found.group(2), found.group(3)) if found else (words, "", "")


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third"}.get(n, f"{n}th")


class RecordingSeed(str):
    """A seed (plain or recorded) whose draws are also written down, in order, as chance lines.

    ``log`` holds ``(label words, outcome)`` pairs; a label drawn again from its start (the
    same label asked twice) is not written twice.
    """

    log: list[tuple[str, str]]
    inner: str

    def __new__(cls, seed: str) -> RecordingSeed:
        self = super().__new__(cls, seed)
        self.inner = seed  # a plain seed, or recorded chance (perhaps a RecordedSeed)
        self.log = []
        self._seen: dict[str, int] = {}
        self._starts: dict[tuple[str, str], int] = {}
        return self

    def stream(self, label: str, words: Sequence[tuple[str, int]] = ()) -> Stream:
        """A stream of ``label`` that draws from the underlying seed and writes each outcome
        down, named by the first of ``words`` (else by the label's words)."""
        stream = RecordingStream(label, _inner_stream(self.inner, label, words), self)
        if words:
            stream.words = words[0][0]
            # a repeated name (position -1): this label's draws follow those already written so
            stream._n = self._starts.setdefault((stream.words, label), self._seen.get(stream.words, 0)) \
                if words[0][1] < 0 else 0
            stream._start = stream._n
        return stream

    def note(self, words: str, position: int, outcome: str, fresh: bool = False) -> None:
        """Write down draw ``position`` of ``words`` (once); ``fresh``: the first of its label's
        draws, which starts a line of its own (a second campaign's dice are a second line)."""
        if self._seen.get(words, 0) > position:
            return
        self._seen[words] = position + 1
        self.log.append(_Noted(words, outcome, fresh))


class _Noted(tuple):  # type: ignore[type-arg]
    """One written draw, ``(words, outcome)``, knowing whether it starts its label's draws."""

    fresh: bool

    def __new__(cls, words: str, outcome: str, fresh: bool) -> _Noted:
        self = super().__new__(cls, (words, outcome))
        self.fresh = fresh
        return self


class RecordingStream(Stream):
    """Draws from ``inner`` and notes each outcome in the game's words."""

    def __init__(self, label: str, inner: Stream, seed: RecordingSeed) -> None:  # noqa: D107
        self.label, self.words, self._inner, self._seed, self._n = label, label_words(label), inner, seed, 0
        self._start = 0  # the place of this label's first draw among those named self.words

    def _note(self, outcome: str) -> None:
        self._seed.note(self.words, self._n, outcome, self._n == self._start)
        self._n += 1

    def below(self, n: int) -> int:
        """Drawn as usual; written ``number N``."""
        value = self._inner.below(n)
        self._note(f"number {value}")
        return value

    def randint(self, low: int, high: int) -> int:
        """Drawn as usual; written ``number N``."""
        value = self._inner.randint(low, high)
        self._note(f"number {value}")
        return value

    def die(self, sides: int = 6) -> int:
        """Drawn as usual; written ``rolled N``."""
        value = self._inner.die(sides)
        self._note(f"rolled {value}")
        return value

    def choice(self, items: Sequence[T]) -> T:
        """Drawn as usual; written ``picked X``."""
        value = self._inner.choice(items)
        self._note(f"picked {value}")
        return value

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Drawn as usual; written ``order A, B, C``."""
        value = self._inner.shuffled(items)
        self._note("order " + ", ".join(str(i) for i in value))
        return value

    def outcome(self, kind: str, compute: Callable[[Stream], T], write: Callable[[T], str],
                read: Callable[[str], T], example: str = "") -> T:
        """Drawn (or read) as usual; written in the engine's words."""
        value = self._inner.outcome(kind, compute, write, read, example)
        self._note(f"{kind} {write(value)}".strip())
        return value


def merged_lines(log: Sequence[tuple[str, str]]) -> list[str]:
    """The chance lines of a recording, successive dice of one label on one line."""
    out: list[tuple[str, str]] = []
    for entry in log:
        words, outcome = entry
        if (out and out[-1][0] == words and outcome.startswith("rolled ") and out[-1][1].startswith("rolled ")
                and not getattr(entry, "fresh", False)):
            out[-1] = (words, out[-1][1] + ", " + outcome[len("rolled "):])
        else:
            out.append((words, outcome))
    return [f"{w}: {o}" for w, o in out]
