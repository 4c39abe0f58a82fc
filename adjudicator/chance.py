"""Seeded chance: every random outcome of a game comes from here.

The derivation (DESIGN.md, "Chance, precisely"), so that anyone can re-derive every draw
from the revealed seed without this software:

1. The seed is a text string; its bytes are its UTF-8 encoding. Players are sent only
   the commitment ``sha256(seed_bytes)`` (hex) when the game starts.
2. Every draw has a stable *label* naming what it is for, e.g.
   ``<game>/1618/spring/battle/3/tower``. The label's byte stream is the
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
from collections.abc import Sequence
from typing import Any

from adjudicator.stream import Stream  # noqa: F401 - the engines' name for it (defined apart)


def commitment(seed: str) -> str:
    """Return the public commitment to ``seed``: the hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


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
        a game may name a campaign ``round 2 white's campaign against the Tatars``, and a
        second such campaign's dice follow the first's.
        """
        if self._source is not None:
            return self._source.stream(label, words)  # type: ignore[no-any-return]
        return Stream(self.seed, label)
