"""Label boxes of a rendered map: which texts overlap (the map must have none)."""

from __future__ import annotations

from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.patches import Patch
from matplotlib.text import Text


def text_boxes(fig: Any) -> list[tuple[str, Any]]:
    """(text, pixel bounding box) of every visible non-empty label of ``fig``."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    out = []
    for t in fig.findobj(Text):
        if t.get_visible() and t.get_text().strip():
            out.append((t.get_text(), t.get_window_extent(renderer)))
    return out


def piece_boxes(fig: Any) -> list[Any]:
    """Pixel boxes of the pieces drawn on the map (patches at zorder 4: chips, estates, discs)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    return [p.get_window_extent(renderer) for p in fig.findobj(Patch) if p.get_zorder() == 4]


def _cross(ba: Any, bb: Any, slack: float) -> bool:
    return min(ba.x1, bb.x1) - max(ba.x0, bb.x0) > slack and min(ba.y1, bb.y1) - max(ba.y0, bb.y0) > slack


def overlaps(fig: Any, slack: float = 0.5) -> list[tuple[str, str]]:
    """Pairs of labels whose boxes overlap by more than ``slack`` pixels each way, and labels
    that run onto a piece they are not written in; labels that run outside the figure are
    reported against ``<edge>``."""
    boxes = text_boxes(fig)
    pieces = piece_boxes(fig)
    for text, bt in boxes:
        cx, cy = (bt.x0 + bt.x1) / 2, (bt.y0 + bt.y1) / 2
        for bp in pieces:
            inside = bp.x0 <= cx <= bp.x1 and bp.y0 <= cy <= bp.y1
            if not inside and _cross(bt, bp, slack):
                return [(text, f"<piece at {bp.x0:.0f},{bp.y0:.0f}>")]
    w, h = fig.get_size_inches() * fig.dpi
    bad = []
    for i, (a, ba) in enumerate(boxes):
        if ba.x0 < -slack or ba.y0 < -slack or ba.x1 > w + slack or ba.y1 > h + slack:
            bad.append((a, "<edge>"))
        for b, bb in boxes[i + 1:]:
            if _cross(ba, bb, slack):
                bad.append((a, b))
    return bad
