"""The boxes of the map's labels in display units, measured by matplotlib and remembered.

Placing the map's labels (names fitted to their cells, small labels moved clear of others,
region names where they cover nothing) asks for the boxes of the same labels at the same
spots every season: a box is a pure function of what it is keyed by, so it is measured once
per process (:data:`BOXES`).
"""

from __future__ import annotations

from typing import Any

#: The gid prefix of the map's legend (+ its palette as JSON: what it shows).
LEGEND = "legend:"

#: Label boxes measured so far (display units), keyed by everything a box depends on: the
#: text, its font, alignment, rotation, rounded box style, where it is anchored on the figure
#: and the resolution. Every map draws the same labels at the same spots season after season
#: and game after game, so placing them measures almost nothing after the first map (the
#: label fitting measured text extents hundreds of times per map). Exact: a box is a pure
#: function of its key, so the placement and the picture are the same bytes.
BOXES: dict[tuple[Any, ...], tuple[float, float, float, float]] = {}
BOXES_MAX = 50_000


def _font_key(text: Any) -> tuple[Any, ...]:
    fp = text.get_fontproperties()
    return (tuple(fp.get_family()), fp.get_style(), fp.get_variant(), fp.get_weight(), fp.get_stretch(),
            fp.get_size_in_points(), fp.get_file(), fp.get_math_fontfamily())


def _box_key(text: Any, renderer: Any, patch: bool) -> tuple[Any, ...]:
    x, y = text.get_transform().transform(text.get_unitless_position())
    key: tuple[Any, ...] = (text.get_text(), _font_key(text), text.get_horizontalalignment(),
                            text.get_verticalalignment(), text.get_rotation(), text.get_rotation_mode(),
                            text.get_linespacing(), text.get_usetex(), text.get_parse_math(),
                            float(x), float(y), text.get_figure(root=True).dpi, renderer.dpi)
    if patch:
        bbox = text.get_bbox_patch()
        style = bbox.get_boxstyle()
        key += (type(style).__name__, tuple(sorted(vars(style).items())), bbox.get_mutation_aspect())
    return key


def _remembered(key: tuple[Any, ...], measure: Any) -> Any:
    from matplotlib.transforms import Bbox

    bounds = BOXES.get(key)
    if bounds is None:
        if len(BOXES) >= BOXES_MAX:
            BOXES.clear()
        bounds = BOXES[key] = tuple(measure().extents)
    return Bbox.from_extents(*bounds)


def text_box(text: Any, renderer: Any) -> Any:
    """The text's own box in display units (remembered; see :data:`BOXES`)."""
    return _remembered(_box_key(text, renderer, False), lambda: text.get_window_extent(renderer))


def box(text: Any, renderer: Any) -> Any:
    """A label's box in display units: its rounded box where it has one, else the text
    (remembered; see :data:`BOXES`)."""
    if text.get_bbox_patch() is None:
        return text_box(text, renderer)
    return _remembered(_box_key(text, renderer, True), lambda: measured_box(text, renderer))


def legend_box(legend: Any, renderer: Any) -> Any:
    """The legend's box in display units while the map is built (remembered by what it
    shows, see :data:`LEGEND`, and the figure's size and resolution: the map's axes always
    take the same place). Not ``axes.get_position()``: that applies the equal aspect, which
    only drawing the map may do."""
    fig = legend.get_figure(root=True)
    key = (str(legend.get_gid()), tuple(fig.get_size_inches()), fig.dpi, renderer.dpi)
    if not key[0].startswith(LEGEND):
        return legend.get_window_extent(renderer)
    return _remembered(key, lambda: legend.get_window_extent(renderer))


def measured_box(text: Any, renderer: Any) -> Any:
    """A label's box as matplotlib measures it (see :func:`box`)."""
    patch = text.get_bbox_patch()
    if patch is None:
        return text.get_window_extent(renderer)
    text.update_bbox_position_size(renderer)
    return patch.get_window_extent(renderer)
