"""Small, deterministic PNG bytes of a matplotlib figure: a palette (8-bit, 128 colours) PNG.

A report's pictures are flat fills, lines and antialiased text: a palette of the most
frequent exact colours (background, fills, seat colours stay exact) plus colours chosen by
Pillow's octree quantiser for the antialiased edges loses nothing visible and makes the
file about a third of matplotlib's RGBA PNG. Every pixel gets its nearest palette colour
(no dithering), so the same figure always gives the same bytes. No metadata is written
(no version strings, no timestamps).
"""

from __future__ import annotations

import io
import threading
from typing import Any

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from PIL import Image

from reports.glyphs import GlyphRenderer

#: The colours of the palette, and how many of them are the picture's most frequent exact colours.
#: 128 (64 exact, 64 for the antialiased edges) instead of 256: a map a seventh smaller with
#: no difference to see (mean error under 1 of 765 per pixel; the seat mail's size budget).
COLOURS = 128
EXACT = 64
DPI = 100


#: One Agg renderer per picture size and resolution, shared by every figure drawn at them:
#: matplotlib remembers text metrics per renderer, so a report's map, drawn again each
#: season with the same names, numbers and fonts, measures its labels once per process
#: instead of once per figure. A renderer clears its pixels before each draw. It lays texts
#: out and renders glyphs once per process (:class:`reports.glyphs.GlyphRenderer`: the same
#: pixels).
_RENDERERS: dict[tuple[int, int, float], RendererAgg] = {}
LOCK = threading.RLock()


class SharedCanvas(FigureCanvasAgg):
    """An Agg canvas that draws with the renderer shared by its size and resolution (see
    :data:`_RENDERERS`); a figure is drawn and read back under :data:`LOCK`."""

    def get_renderer(self) -> RendererAgg:
        """The shared renderer of the figure's current size and resolution."""
        w, h = self.get_width_height(physical=True)
        key = (w, h, float(self.figure.dpi))
        renderer = _RENDERERS.get(key)
        if renderer is None:
            if len(_RENDERERS) >= 8:
                _RENDERERS.clear()
            renderer = _RENDERERS[key] = GlyphRenderer(w, h, self.figure.dpi)
        self.renderer = renderer
        return renderer


def canvas(fig: Figure) -> FigureCanvasAgg:
    """``fig``'s Agg canvas, a :class:`SharedCanvas` unless it already has an Agg one."""
    return fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else SharedCanvas(fig)


def figure_png(fig: Figure, dpi: int = DPI, stamp: Artist | None = None) -> bytes:
    """``fig`` drawn at ``dpi`` on the Agg canvas, as palette PNG bytes.

    ``stamp``: an artist drawn on a blank part of the figure (a legend beside the map),
    the same every time its ``gid`` is the same; its pixels are drawn once and then
    copied in (see :func:`_stamped`). The picture is the same either way."""
    agg = canvas(fig)
    with LOCK:  # the pixels of a shared renderer are read before another figure draws
        fig.set_dpi(dpi)
        rgb = _stamped(fig, agg, stamp) if stamp is not None and stamp.get_gid() else None
        if rgb is None:  # drawn in place (the stamp does not lie on blank page)
            agg.draw()
            rgb = np.array(np.asarray(agg.buffer_rgba())[..., :3])
    return palette_png(rgb)


#: Pixels of the stamps drawn so far, keyed by the stamp's gid, where it lies, the picture's
#: size and resolution (the map's legend was a quarter of drawing the map).
_STAMPS: dict[tuple[Any, ...], Any] = {}
#: Pixels around a stamp's box that belong to it (antialiased edges), and so must be blank too.
_MARGIN = 3
#: The stamps (gid, the picture's size and resolution) found over drawn parts of the picture:
#: drawn in place at once, without first drawing the picture without them. (A map whose
#: legend's words are longer than the blank page beside the map, as in German and Hungarian,
#: drew every picture twice.) Either way the picture is the same.
_IN_PLACE: set[tuple[Any, ...]] = set()


def _stamped(fig: Figure, agg: FigureCanvasAgg, stamp: Artist) -> Any:
    """The figure's pixels with ``stamp`` copied in, or None where that could differ from
    drawing it (then the caller draws the figure as usual).

    The figure is drawn without the stamp; where everything under the stamp's box (and a
    margin) is blank page, drawing the stamp there is the same as drawing it in place
    (nothing else is drawn there, above or below it), so its pixels are remembered from the
    first such draw and copied in afterwards."""
    width, height = agg.get_width_height(physical=True)
    placed = (stamp.get_gid(), width, height, float(fig.dpi))
    if placed in _IN_PLACE:
        return None
    stamp.set_visible(False)
    try:
        agg.draw()
    finally:
        stamp.set_visible(True)
    renderer = agg.get_renderer()
    rgba = np.asarray(agg.buffer_rgba())
    height, width = rgba.shape[:2]
    box = stamp.get_window_extent(renderer)
    x0, x1 = max(0, int(np.floor(box.x0)) - _MARGIN), min(width, int(np.ceil(box.x1)) + _MARGIN)
    y0, y1 = max(0, height - int(np.ceil(box.y1)) - _MARGIN), min(height, height - int(np.floor(box.y0)) + _MARGIN)
    page = np.asarray(fig.get_facecolor()[:3]) * 255
    if not (rgba[y0:y1, x0:x1, :3] == np.round(page)).all():
        if len(_IN_PLACE) >= 64:
            _IN_PLACE.clear()
        _IN_PLACE.add(placed)
        return None
    key = (stamp.get_gid(), x0, x1, y0, y1, width, height, float(fig.dpi))
    pixels = _STAMPS.get(key)
    if pixels is None:
        stamp.draw(renderer)
        pixels = np.array(np.asarray(agg.buffer_rgba())[y0:y1, x0:x1, :3])
        if len(_STAMPS) >= 64:
            _STAMPS.clear()
        _STAMPS[key] = pixels
    rgb = np.array(rgba[..., :3])
    rgb[y0:y1, x0:x1] = pixels
    return rgb


def clear_stamps() -> None:
    """Forget the stamps' pixels and where they were drawn in place (tests draw them again)."""
    _STAMPS.clear()
    _IN_PLACE.clear()


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
    counts = np.fromiter((n for n, _ in found), dtype=np.int64, count=len(found))
    colours = np.array([c for _, c in found], dtype=np.int64).reshape(-1, 3)
    packed = (colours[:, 0] << 16) | (colours[:, 1] << 8) | colours[:, 2]
    ranked = np.lexsort((packed, -counts))  # most frequent first, ties by the colour
    if len(found) <= COLOURS:
        palette = [tuple(int(v) for v in colours[i]) for i in ranked]
        index = np.empty(len(found), dtype=np.uint8)
        index[ranked] = np.arange(len(found))
        return _paletted(_lookup(rgb, packed, index), palette)
    exact = ranked[:EXACT]
    octree = image.quantize(colors=COLOURS - EXACT, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = octree.getpalette()[: 3 * (COLOURS - EXACT)]
    palette = [tuple(int(v) for v in colours[i]) for i in exact] + [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    index = _nearest(colours, palette)  # every other colour: the nearest of the whole palette
    index[exact] = np.arange(len(exact))  # an exact colour keeps its own entry
    return _paletted(_lookup(rgb, packed, index), palette)


#: Colours per matrix product in :func:`_nearest`: a product of a few hundred colours by the
#: palette is too small for the BLAS library to hand to its worker threads (OpenBLAS keeps
#: one thread below 2^18 multiply-adds: 512 x 3 x 128 is 196,608), and waking those threads
#: cost several times the product itself (8 ms instead of 1.5 ms for a map).
ROWS = 512


def _nearest(colours: Any, palette: list[tuple[int, int, int]]) -> Any:
    """Per colour (an ``(n, 3)`` array): the position of the palette colour nearest to it
    (squared RGB distance, the first on a tie)."""
    ref = np.array(palette, dtype=np.float32)
    # |c - p|^2 = |p|^2 - 2 c.p (+ |c|^2, the same for every p): every term and sum is an
    # integer below 2^24 (3 * 255^2 * 2 < 400,000), so float32 is exact, and several times faster
    norms = (ref * ref).sum(axis=1)[None, :]
    values = colours.astype(np.float32)
    out = np.empty(len(values), dtype=np.uint8)
    for i in range(0, len(values), ROWS):
        out[i:i + ROWS] = np.argmin(norms - 2.0 * (values[i:i + ROWS] @ ref.T), axis=1)
    return out


#: A table from a packed 24-bit colour to its palette position, reused by every picture
#: (only the entries of the picture's own colours are written and read; under :data:`LOCK`).
_TABLE = np.zeros(1 << 24, dtype=np.uint8)


def _lookup(rgb: Any, packed_colours: Any, index: Any) -> Any:
    """Per pixel of ``rgb``: ``index`` of its colour (``packed_colours`` lists every colour
    of the picture, packed as 0xRRGGBB)."""
    pixels = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]
    with LOCK:
        _TABLE[packed_colours] = index
        return _TABLE[pixels]


def _paletted(index: Any, palette: list[tuple[int, int, int]]) -> bytes:
    out = Image.fromarray(index, "P")
    out.putpalette([v for colour in palette for v in colour])
    return _save(out)


def _save(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=6)
    return buf.getvalue()
