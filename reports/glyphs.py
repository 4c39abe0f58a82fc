"""An Agg renderer that remembers laid-out texts and rendered glyphs: the same pixels, drawn
without asking FreeType again for what it has already answered.

A report's pictures draw the same labels season after season (county names, army counts,
tick labels, the legend): matplotlib's Agg renderer lays every text out again (HarfBuzz
shaping) and renders every glyph again (FreeType), which was about two thirds of drawing a
map. Both are pure functions:

- a text's layout (its glyphs and their offsets) depends on the text, the font files, the
  size, the resolution, the hinting and kerning settings, the OpenType features and the
  language;
- a glyph's bitmap depends on the font, size, resolution, glyph, rotation, hinting, whether it
  is antialiased and where its origin falls within a pixel (matplotlib places glyphs at 1/64
  of a pixel). Moving the origin by whole pixels moves the bitmap by as many pixels and
  leaves it the same (FreeType hints the outline before moving it and rounds the bitmap's
  box to whole pixels), so a glyph is rendered once per sub-pixel phase and copied to where
  it lies.

Each bitmap is then blended into the picture by matplotlib's own ``draw_text_image``, so the
pixels are the ones matplotlib draws. The renderer checks that once per process on sample
texts (sizes, rotations, sub-pixel positions) against matplotlib's own drawing; where any
pixel differs, or where this matplotlib version lays text out another way, it draws as
matplotlib does.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_agg import RendererAgg, get_hinting_flag
from matplotlib.font_manager import FontProperties, fontManager, get_font
from matplotlib.ft2font import FT2Font

#: Laid-out texts: key -> the glyphs as ``_draw_text_glyphs_and_boxes`` takes them.
_LAYOUTS: dict[tuple[Any, ...], tuple[tuple[Any, ...], ...]] = {}
#: Rendered glyphs: key (with the sub-pixel phase) -> (bitmap, left and top at pixel 0).
_GLYPHS: dict[tuple[Any, ...], tuple[Any, int, int]] = {}
#: Bounds on what is kept (about 0.5 KB a glyph; a season's map and chart use ~2,000).
MAX_LAYOUTS = 20_000
MAX_GLYPHS = 20_000
#: The 16.16 rotation matrices by angle (and slant, extend), as matplotlib computes them.
_MATRICES: dict[tuple[float, float, float], Any] = {}

#: Whether this matplotlib draws text the way this renderer copies (checked once).
_AVAILABLE = all(hasattr(FT2Font, name) for name in ("_layout", "_render_glyph", "_set_transform")) and \
    hasattr(RendererAgg, "_draw_text_glyphs_and_boxes")
_checked: list[bool] = []
_CHECK_LOCK = threading.Lock()


class GlyphRenderer(RendererAgg):
    """:class:`RendererAgg` with texts laid out and glyphs rendered once per process (see the
    module's docstring); the same pixels as matplotlib's own drawing."""

    def draw_text(self, gc: Any, x: float, y: float, s: str, prop: Any, angle: float, ismath: Any = False,
                  mtext: Any = None) -> None:
        """Draw ``s`` as :meth:`RendererAgg.draw_text` does, its layout remembered."""
        if ismath or not remembering():
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        self._draw_glyphs(gc, x, y, angle, self._layout(s, prop, mtext))
        return None

    def _get_font_height_metrics(self, prop: Any) -> tuple[float | None, float | None, float | None]:
        """The font's ascent, descent and line gap at its size, which matplotlib's ``Text``
        asks its renderer for (and else reads from the font's tables for every text it lays
        out): read from the same tables once per font, size and resolution, by the same
        arithmetic (None: matplotlib reads them itself)."""
        if not remembering():
            return None, None, None
        size = prop.get_size_in_points()
        key = (threading.get_ident(), _font_paths(prop), size, self.dpi)
        found = _HEIGHTS.get(key)
        if found is None:
            found = (None, None, None)
            font = get_font(list(key[1]))
            for table_name, gap, ascent, descent in (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                                                      ("hhea", "lineGap", "ascent", "descent")):
                table = font.get_sfnt_table(table_name)
                if table is None:
                    continue
                units_per_em = font.get_sfnt_table("head")["unitsPerEm"]
                scale = 1 / units_per_em * size * self.dpi / 72  # matplotlib's, term for term
                found = (table[ascent] * scale, -table[descent] * scale, table[gap] * scale)
                break
            if len(_HEIGHTS) >= 1024:
                _HEIGHTS.clear()
            _HEIGHTS[key] = found
        return found

    def _layout(self, s: str, prop: Any, mtext: Any) -> tuple[tuple[Any, ...], ...]:
        flags = get_hinting_flag()
        features = mtext.get_fontfeatures() if mtext is not None else None
        language = mtext.get_language() if mtext is not None else None
        size = prop.get_size_in_points()
        key = (threading.get_ident(), _font_paths(prop), size, self.dpi, s, flags,
               None if features is None else tuple(features), language,
               mpl.rcParams["text.hinting_factor"], mpl.rcParams["text.kerning_factor"])
        glyphs = _LAYOUTS.get(key)
        if glyphs is None:
            font = self._prepare_font(prop)
            glyphs = tuple((item.ft_object, size, item.glyph_index, 0, 1, item.x, item.y)
                           for item in font._layout(s, flags=flags, features=features, language=language))
            if len(_LAYOUTS) >= MAX_LAYOUTS:
                _LAYOUTS.clear()
            _LAYOUTS[key] = glyphs
        return glyphs

    def _draw_text_glyphs_and_boxes(self, gc: Any, x: float, y: float, angle: float, glyphs: Any,
                                    boxes: Any) -> None:
        """Each glyph's bitmap from :data:`_GLYPHS` (rendered on first use), blended in by
        matplotlib; then the boxes (mathtext's rules) as matplotlib draws them."""
        if not remembering():
            return super()._draw_text_glyphs_and_boxes(gc, x, y, angle, glyphs, boxes)
        self._draw_glyphs(gc, x, y, angle, glyphs)
        if boxes:
            super()._draw_text_glyphs_and_boxes(gc, x, y, angle, (), boxes)
        return None

    def _draw_glyphs(self, gc: Any, x: float, y: float, angle: float, glyphs: Any) -> None:
        """The glyphs at ``(x, y)`` (display units, y downwards), as matplotlib places them."""
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        flags = get_hinting_flag()
        antialiased = bool(gc.get_antialiased())
        height, dpi, draw = self.height, self.dpi, self._renderer.draw_text_image
        for font, size, glyph_index, slant, extend, dx, dy in glyphs:  # dy is upwards
            matrix = _matrix(angle, cos, sin, slant, extend)
            # the glyph's origin in 1/64 pixel, as matplotlib computes it (FreeType's y is upwards)
            ox = round(0x40 * (x + dx * cos - dy * sin))
            oy = round(0x40 * (height - y + dx * sin + dy * cos))
            key = (font, size, dpi, glyph_index, matrix[1], ox & 63, oy & 63, flags, antialiased)
            found = _GLYPHS.get(key)
            if found is None:
                found = _render(font, size, dpi, glyph_index, matrix[0], ox & 63, oy & 63, flags, antialiased)
                if len(_GLYPHS) >= MAX_GLYPHS:
                    _GLYPHS.clear()
                _GLYPHS[key] = found
            bitmap, left, top = found
            # draw_text_image's y is downwards & the bitmap's bottom side (as matplotlib's)
            draw(bitmap, left + (ox >> 6), int(height) - (top + (oy >> 6)) + bitmap.shape[0], 0, gc)


#: The font files of a font's properties (what ``fontManager._find_fonts_by_props`` finds:
#: it copies the properties and looks each family up on every call), keyed by the properties'
#: values and the rcParams that name the generic families' fonts.
_PATHS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
#: Ascent, descent and line gap by font files, size and resolution (``_get_font_height_metrics``).
_HEIGHTS: dict[tuple[Any, ...], tuple[float | None, float | None, float | None]] = {}
_RC_FONTS = ("font.family", "font.sans-serif", "font.serif", "font.monospace", "font.cursive", "font.fantasy")


def _font_paths(prop: Any) -> tuple[Any, ...]:
    """The font files ``fontManager._find_fonts_by_props(prop)`` finds, remembered."""
    key = (tuple(prop.get_family()), prop.get_style(), prop.get_variant(), prop.get_weight(), prop.get_stretch(),
           prop.get_size_in_points(), prop.get_file(), prop.get_math_fontfamily(),
           *(tuple(mpl.rcParams[name]) for name in _RC_FONTS))
    found = _PATHS.get(key)
    if found is None:
        if len(_PATHS) >= 1024:
            _PATHS.clear()
        found = _PATHS[key] = tuple(fontManager._find_fonts_by_props(prop))
    return found


def _matrix(angle: float, cos: float, sin: float, slant: float, extend: float) -> tuple[Any, bytes]:
    """FreeType's 16.16 transform for a glyph, as matplotlib computes it, and its bytes (a key)."""
    key = (angle, slant, extend)
    found = _MATRICES.get(key)
    if found is None:
        m = (0x10000 * np.array([[cos, -sin], [sin, cos]]) @ [[extend, extend * slant], [0, 1]]).round().astype(int)
        if len(_MATRICES) >= 256:
            _MATRICES.clear()
        found = _MATRICES[key] = (m, m.tobytes())
    return found


def _render(font: Any, size: float, dpi: float, glyph_index: int, matrix: Any, phase_x: int, phase_y: int,
            flags: Any, antialiased: bool) -> tuple[Any, int, int]:
    """The glyph rendered with its origin at ``(phase_x, phase_y)`` / 64 pixel: its bitmap (a
    copy) and its left and top pixel."""
    from matplotlib.ft2font import RenderMode

    font.set_size(size, dpi)
    font._set_transform(matrix, [phase_x, phase_y])
    rendered = font._render_glyph(glyph_index, flags, RenderMode.NORMAL if antialiased else RenderMode.MONO)
    bitmap = np.array(rendered.buffer, dtype=np.uint8)
    if not antialiased:
        bitmap *= 0xff
    return bitmap, int(rendered.left), int(rendered.top)


def clear() -> None:
    """Forget every layout, glyph and font metric (tests draw again from nothing)."""
    _LAYOUTS.clear()
    _GLYPHS.clear()
    _PATHS.clear()
    _HEIGHTS.clear()


def remembering() -> bool:
    """Whether texts are drawn from what is remembered: this matplotlib lays text out as the
    renderer expects and, checked once per process, draws the same pixels both ways."""
    if not _checked:
        with _CHECK_LOCK:
            if not _checked:
                _checked.append(_AVAILABLE and _same_pixels())
    return _checked[0]


#: The texts of the check: accents, digits, symbols the maps draw, sizes and rotations.
_SAMPLES = (("Áöß Königsberg 19 ▲3 ⚔", 7.5, 0.0, "bold"), ("Mähren 12 P", 9.0, 90.0, "normal"),
            ("Oberösterreich", 13.0, 30.0, "normal"))


def _same_pixels() -> bool:
    """Draw the samples at many sub-pixel positions with matplotlib's renderer and with this
    one (each glyph drawn twice, so the second comes from memory); True when every pixel is
    the same."""
    from matplotlib.backends.backend_agg import RendererAgg as Plain

    size = (300, 200)
    plain, mine = Plain(*size, 80), GlyphRenderer(*size, 80)
    for renderer in (plain, mine):
        for i in range(6):  # 3 sub-pixel offsets, each at 2 places whole pixels apart
            for text, points, angle, weight in _SAMPLES:
                prop = FontProperties(size=points, weight=weight)
                x, y = 30 + (i % 2) * 97 + (i // 2) * 0.29, 60 + (i % 2) * 51 + (i // 2) * 0.41
                gc = renderer.new_gc()
                gc.set_foreground((0.1, 0.2, 0.3))
                gc.set_alpha(0.7 if i == 1 else 1.0)
                gc.set_antialiased(i != 4)
                if renderer is mine:
                    mine._draw_glyphs(gc, x, y, angle, mine._layout(text, prop, None))
                else:
                    renderer.draw_text(gc, x, y, text, prop, angle)
                gc.restore()
    same = bool((np.asarray(plain.buffer_rgba()) == np.asarray(mine.buffer_rgba())).all())
    clear()
    return same
