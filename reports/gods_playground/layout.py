"""Where things sit on the God's Playground map (data units: 1 unit = 10 px at 100 dpi).

The provinces keep their real relative positions (seed 004, the board): Royal Prussia
north, Lithuania north-east, Ukraine south-east, Little Poland south, Greater Poland west;
each enemy box sits next to the province it attacks (Swedes north of Royal Prussia,
Russians by Lithuania, Tatars by Ukraine, Turks south of Little Poland, Habsburgs by
Greater Poland). The Sejm, the royal army and the VP track are in the middle.
"""

from __future__ import annotations

WIDTH, HEIGHT = 86.0, 96.0
#: (x0, y0, width, height) of each box.
PROVINCE_BOXES = {"royal_prussia": (27.0, 60.0, 30.0, 14.0), "lithuania": (56.0, 45.5, 29.5, 14.0),
                  "ukraine": (56.0, 22.0, 29.5, 14.0), "little_poland": (27.0, 14.0, 28.5, 14.0),
                  "greater_poland": (0.5, 36.0, 29.5, 14.0)}
ENEMY_BOXES = {"black": (30.0, 76.5, 24.0, 12.0), "russians": (59.0, 62.5, 26.5, 12.0),
               "tatars": (59.0, 5.5, 26.5, 12.0), "turks": (30.0, 0.5, 24.0, 12.0),
               "habsburgs": (0.5, 19.0, 25.0, 14.0)}
CENTRE_BOX = (31.5, 30.5, 22.0, 27.5)
LEGEND_BOX = (0.5, 53.0, 25.0, 36.0)
NOTE_BOX = (0.5, 0.5, 25.0, 17.0)
TITLE_Y = 94.3
TRACK_Y = 91.2
EXTENT = (0.0, WIDTH, 0.0, HEIGHT)
FIGSIZE = (WIDTH / 10, HEIGHT / 10)
#: Enemy piece colours as on the board (enemy order black, green, yellow, orange, purple).
ENEMY_COLORS = {"black": "#222222", "russians": "#009E73", "tatars": "#E6B800", "turks": "#E69F00",
                "habsburgs": "#7B3F99"}
PROVINCE_FILL = "#efe3c4"
BOX_FILL = "#e4dccb"
BACKGROUND = "#fbf6e9"


def centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    """The middle of a box."""
    x, y, w, h = box
    return x + w / 2, y + h / 2


def border_point(box: tuple[float, float, float, float], toward: tuple[float, float]) -> tuple[float, float]:
    """Where the line from the box's middle to ``toward`` leaves the box."""
    cx, cy = centre(box)
    dx, dy = toward[0] - cx, toward[1] - cy
    _, _, w, h = box
    scale = min(w / 2 / abs(dx) if dx else float("inf"), h / 2 / abs(dy) if dy else float("inf"))
    return cx + dx * scale, cy + dy * scale
