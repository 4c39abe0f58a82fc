"""Small, deterministic PNG bytes of a matplotlib figure: a palette (8-bit, 256 colours) PNG.

A report's pictures are flat fills, lines and antialiased text: a palette of the most
frequent exact colours (background, fills, seat colours stay exact) plus colours chosen by
Pillow's octree quantiser for the antialiased edges loses nothing visible and makes the
file about a third of matplotlib's RGBA PNG. Every pixel gets its nearest palette colour
(no dithering), so the same figure always gives the same bytes. No metadata is written
(no version strings, no timestamps).
"""

from __future__ import annotations

import heapq
import io
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

#: The colours of the palette, and how many of them are the picture's most frequent exact colours.
COLOURS = 256
EXACT = 96
DPI = 100


def figure_png(fig: Figure, dpi: int = DPI) -> bytes:
    """``fig`` drawn at ``dpi`` on the Agg canvas, as palette PNG bytes."""
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    fig.set_dpi(dpi)
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    return palette_png(rgba[..., :3])


def palette_png(rgb: Any) -> bytes:
    """An ``(h, w, 3)`` uint8 picture as palette PNG bytes (exact when it has <= 256 colours).

    The palette: the :data:`EXACT` most frequent colours exactly (ties broken by the colour),
    then the octree's colours for the rest; a pixel of one of the exact colours keeps it, any
    other pixel takes the nearest colour of the whole palette."""
    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    image = Image.fromarray(rgb, "RGB")
    found = image.getcolors(1 << 16)
    if found is None:  # more colours than any report picture has: plain RGB, lossless
        return _save(image)
    if len(found) <= COLOURS:
        ranked = [c for _, c in sorted(found, key=lambda nc: (-nc[0], nc[1]))]
        return _paletted(_index(rgb, ranked, np.zeros(rgb.shape[:2], dtype=np.uint8)), ranked)
    exact = [c for _, c in heapq.nsmallest(EXACT, found, key=lambda nc: (-nc[0], nc[1]))]
    octree = image.quantize(colors=COLOURS - EXACT, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = octree.getpalette()[: 3 * (COLOURS - EXACT)]
    palette = exact + [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    return _paletted(_index(rgb, exact, _nearest(rgb, palette, len(exact))), palette)


def _nearest(rgb: Any, palette: list[tuple[int, int, int]], exact: int) -> Any:
    """Per pixel: the position of the palette colour nearest to it (squared RGB distance,
    the first on a tie); computed once per distinct colour, only for the pixels that are not
    one of the first ``exact`` palette colours (those keep their own; the result there is 0)."""
    packed = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]
    table = np.array(palette, dtype=np.int32)
    known = np.zeros(1 << 24, dtype=bool)
    known[(table[:exact, 0] << 16) | (table[:exact, 1] << 8) | table[:exact, 2]] = True
    other = ~known[packed]
    out = np.zeros(rgb.shape[:2], dtype=np.uint8)
    distinct, where = np.unique(packed[other], return_inverse=True)
    colours = np.stack([(distinct >> 16) & 255, (distinct >> 8) & 255, distinct & 255], axis=1).astype(np.float64)
    ref = table.astype(np.float64)
    # |c - p|^2 = |p|^2 - 2 c.p (+ |c|^2, the same for every p): exact in float64 (integers < 2^53)
    score = (ref * ref).sum(axis=1)[None, :] - 2.0 * (colours @ ref.T)
    best = np.argmin(score, axis=1).astype(np.uint8)
    out[other] = best[where]
    return out


def _index(rgb: Any, exact: list[tuple[int, int, int]], rest: Any) -> Any:
    """Per pixel: the position of its colour in ``exact`` where it is one, else ``rest``."""
    lut = np.zeros(1 << 24, dtype=np.uint16)
    table = np.array(exact, dtype=np.int32)
    lut[(table[:, 0] << 16) | (table[:, 1] << 8) | table[:, 2]] = np.arange(1, len(exact) + 1, dtype=np.uint16)
    packed = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]
    hit = lut[packed]
    return np.where(hit > 0, hit - 1, rest).astype(np.uint8)  # hit - 1 < 256


def _paletted(index: Any, palette: list[tuple[int, int, int]]) -> bytes:
    out = Image.fromarray(index, "P")
    out.putpalette([v for colour in palette for v in colour])
    return _save(out)


def _save(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=6)
    return buf.getvalue()
