"""The byte stream of one label and the integers drawn from it: steps 2-4 of the derivation
in :mod:`adjudicator.chance` (whose :class:`~adjudicator.chance.Chance` makes the streams).

A module of its own so that recorded chance (:mod:`adjudicator.recorded`), which
:class:`~adjudicator.chance.Chance` reads a historical game's draws from, can build on a
stream without importing ``Chance`` back.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class Stream:
    """The deterministic byte stream of one label, and the integers drawn from it.

    The stream's bytes are kept in a buffer read from position ``_pos`` (blocks are appended
    as needed, step 2 of :mod:`adjudicator.chance`), so a draw does not copy the bytes not yet used."""

    def __init__(self, seed: str, label: str) -> None:
        self._key = seed.encode("utf-8")
        self.label = label
        self._counter = 0
        self._buffer = b""
        self._pos = 0

    def _block(self) -> bytes:
        msg = f"{self.label}/{self._counter}".encode("utf-8")
        self._counter += 1
        return hmac.digest(self._key, msg, "sha256")

    def _fill(self, k: int) -> None:
        """Make at least ``k`` unused bytes available from ``_pos`` (the used ones are dropped)."""
        rest = self._buffer[self._pos:]
        while len(rest) < k:
            rest += self._block()
        self._buffer, self._pos = rest, 0

    def take(self, k: int) -> bytes:
        """Return the next ``k`` bytes of the stream."""
        if self._pos + k > len(self._buffer):
            self._fill(k)
        pos = self._pos
        self._pos = pos + k
        return self._buffer[pos:pos + k]

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling (step 3 of :mod:`adjudicator.chance`)."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        mask = (1 << bits) - 1
        if bits <= 8:  # one byte a draw (dice, towers, small shuffles): read it in place
            while True:
                if self._pos >= len(self._buffer):
                    self._fill(1)
                value = self._buffer[self._pos] & mask
                self._pos += 1
                if value < n:
                    return value
        k = (bits + 7) // 8
        while True:
            value = int.from_bytes(self.take(k), "big") & mask
            if value < n:
                return value

    def hits(self, num: int, den: int, count: int) -> int:
        """How many of ``count`` draws ``below(den)`` in turn are ``< num``: ``count`` chances
        of ``num``/``den`` each (e.g. the cubes of a tower throw), drawn as ``below`` draws them."""
        if count <= 0:
            return 0
        bits = (den - 1).bit_length()
        if den < 2 or bits > 8 or type(self).below is not Stream.below:
            return sum(1 for _ in range(count) if self.below(den) < num)
        mask, hit, buffer, pos = (1 << bits) - 1, 0, self._buffer, self._pos
        while count:  # below(den) inlined: one byte a draw, low ``bits`` bits, rejected if >= den
            if pos >= len(buffer):
                self._pos = pos
                self._fill(1)
                buffer, pos = self._buffer, 0
            value = buffer[pos] & mask
            pos += 1
            if value < den:
                count -= 1
                if value < num:
                    hit += 1
        self._pos = pos
        return hit

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]`` (both ends included)."""
        return low + self.below(high - low + 1)

    def die(self, sides: int = 6) -> int:
        """One roll of a die with ``sides`` faces, 1..sides."""
        return self.randint(1, sides)

    def choice(self, items: Sequence[T]) -> T:
        """One element of ``items``, uniformly."""
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list: ``items`` shuffled by Fisher-Yates (step 4 of :mod:`adjudicator.chance`)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def outcome(self, kind: str, compute: Callable[[Stream], T], write: Callable[[T], str],
                read: Callable[[str], T], example: str = "") -> T:
        """A compound draw (e.g. a tower throw): ``compute`` draws it from this stream.

        ``kind`` is the first word of its recorded line and ``write``/``read`` turn it into
        the rest of that line and back (``read`` checks the words against the game and raises
        :class:`adjudicator.recorded.ChanceProblem`); a recorded source reads the outcome
        instead of drawing it, a recording one writes it down (:mod:`adjudicator.recorded`).
        """
        return compute(self)
