"""Seeded chance: every random outcome of a game comes from here.

The derivation (DESIGN.md, "Chance, precisely"), so that anyone can re-derive every draw
from the revealed seed without this software:

1. The seed is a text string; its bytes are its UTF-8 encoding. Players are sent only
   the commitment ``sha256(seed_bytes)`` (hex) when the game starts.
2. Every draw has a stable *label* naming what it is for, e.g.
   ``wallenstein/1618/spring/battle/3/tower``. The label's byte stream is the
   concatenation of ``HMAC-SHA256(key=seed_bytes, msg=f"{label}/{counter}")`` for
   counter = 0, 1, 2, ... (counter in decimal, UTF-8).
3. An integer in ``[0, n)`` takes ``k = ceil(b/8)`` bytes (``b`` = bit length of
   ``n-1``, at least 1 byte) from the stream, big-endian, keeps the low ``b`` bits, and is
   rejected and redrawn (from the next bytes) when it is ``>= n``. ``n == 1`` takes no bytes.
4. A shuffle of a list of length ``m`` is Fisher-Yates: for ``i`` from ``m-1`` down to 1,
   draw ``j`` in ``[0, i]`` and swap positions ``i`` and ``j``.

No game code uses the ``random`` module: its sequences are not promised across versions.

A historical game has no seed: its chance outcomes were recorded at the table. Its "seed" is
then the text of those outcomes (:mod:`adjudicator.recorded`), and :class:`Chance` over it
reads each draw from its line instead of deriving it; the commitment is the hash of that text.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def commitment(seed: str) -> str:
    """Return the public commitment to ``seed``: the hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Stream:
    """The deterministic byte stream of one label, and the integers drawn from it.

    The stream's bytes are kept in a buffer read from position ``_pos`` (blocks are appended
    as needed, step 2 above), so a draw does not copy the bytes not yet used."""

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
        """A uniform integer in ``[0, n)`` by rejection sampling (step 3 above)."""
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
        """A new list: ``items`` shuffled by Fisher-Yates (step 4 above)."""
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


class Chance:
    """The chance source of one game: a factory of labelled streams over its seed."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._source: Any = None
        if type(seed) is not str or seed.startswith("pbem recorded chance/"):
            from adjudicator.recorded import source_for  # recorded or recording chance

            self._source = source_for(seed)

    @property
    def names_draws(self) -> bool:
        """True when the ``words`` of :meth:`stream` matter (recorded or recording chance); a
        seed ignores them, so an engine need not spell them out."""
        return self._source is not None

    @property
    def commitment(self) -> str:
        """The seed commitment published to players."""
        return commitment(self.seed)

    def stream(self, label: str, words: Sequence[tuple[str, int]] = ()) -> Stream:
        """A fresh stream for ``label``; the same label always gives the same stream.

        ``words`` only matter to recorded chance: the ways a written line may name this draw
        in the game's words (the first is the one written, e.g. ``1618-summer battle 2 for
        Anhalt``), each with the place of this draw among the lines so named (the second
        battle for one county is the second ``battle for Anhalt`` line). The label's own
        words (``1618-summer battle 2 tower``) are always accepted too. A seed ignores them.
        A position of -1 means "after the draws of every label so named before this one":
        God's Playground names a campaign ``round 2 white's campaign against the Tatars``, and
        a second such campaign's dice follow the first's.
        """
        if self._source is not None:
            return self._source.stream(label, words)  # type: ignore[no-any-return]
        return Stream(self.seed, label)
