"""The palette PNG's nearest-colour search (done in chunks of rows) gives every
colour the nearest palette entry, the first one on a tie, whatever the number of colours."""

from __future__ import annotations

import numpy as np
import pytest

from reports import pngout


def _brute(colours: np.ndarray, palette: list[tuple[int, int, int]]) -> np.ndarray:
    diff = colours[:, None, :].astype(np.int64) - np.array(palette, dtype=np.int64)[None, :, :]
    return np.argmin((diff * diff).sum(axis=2), axis=1)  # argmin: the first of equal distances


@pytest.mark.parametrize("n", [1, pngout.ROWS - 1, pngout.ROWS, pngout.ROWS + 1, 3 * pngout.ROWS + 17])
def test_nearest_is_the_first_closest_palette_colour(n):
    rng = np.random.RandomState(n)
    palette = [tuple(int(v) for v in c) for c in rng.randint(0, 256, size=(128, 3))]
    palette[40] = palette[7]  # a tie between two entries: the first wins
    colours = np.concatenate([rng.randint(0, 256, size=(n, 3)), np.array(palette[:3])])[:max(n, 3)]
    assert (pngout._nearest(colours, palette) == _brute(colours, palette)).all()
