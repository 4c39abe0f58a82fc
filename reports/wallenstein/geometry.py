"""Schematic geometry of the Wallenstein map: one cell per county.

The cells are a Voronoi diagram of the county centre points (``reports/data/
wallenstein_map.json``, with its provenance: the game's county data and hand-placed historical centres), each
cell also clipped to a disc around its point so that coastal and border counties stay
compact. Everything here is pure arithmetic on a fixed data file, computed once.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

Point = tuple[float, float]

#: Latitude whose cosine scales longitudes (an equirectangular projection centred on the map).
_REF_LAT = 51.0
#: Radius (projected degrees) of the disc that bounds every cell.
_CELL_RADIUS = 0.95
_DISC_STEPS = 48


@dataclass(frozen=True)
class County:
    """A county as the map draws it."""

    id: str
    name: str
    region: str
    x: float
    y: float
    used_with_3: bool
    neighbours: tuple[str, ...]  # canonical names
    cell: tuple[Point, ...]

    @property
    def centre(self) -> Point:
        """The cell's centroid (where labels go: better centred than the site point)."""
        return centroid(self.cell)


def project(lat: float, lon: float) -> Point:
    """Equirectangular projection: (x, y) in 'degrees of latitude'."""
    return lon * math.cos(math.radians(_REF_LAT)), lat


def centroid(poly: tuple[Point, ...] | list[Point]) -> Point:
    """Area centroid of a simple polygon."""
    a = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(poly, [*poly[1:], poly[0]]):
        cross = x1 * y2 - x2 * y1
        a += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    return cx / (3 * a), cy / (3 * a)


def extent(cells: list[tuple[Point, ...]], pad: float = 0.15) -> tuple[float, float, float, float]:
    """(xmin, xmax, ymin, ymax) around all ``cells``."""
    xs = [p[0] for c in cells for p in c]
    ys = [p[1] for c in cells for p in c]
    return min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad


def _disc(cx: float, cy: float, r: float) -> list[Point]:
    step = 2 * math.pi / _DISC_STEPS
    return [(cx + r * math.cos(i * step), cy + r * math.sin(i * step)) for i in range(_DISC_STEPS)]


def _clip(poly: list[Point], a: float, b: float, c: float) -> list[Point]:
    """Keep the part of ``poly`` where a*x + b*y <= c (Sutherland-Hodgman, one edge)."""
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def voronoi_cell(site: Point, others: list[Point], radius: float = _CELL_RADIUS) -> list[Point]:
    """The Voronoi cell of ``site`` among ``others``, clipped to a disc of ``radius``."""
    poly = _disc(site[0], site[1], radius)
    for o in others:
        # points closer to site than to o: (o - s) . x <= (|o|^2 - |s|^2) / 2
        a, b = o[0] - site[0], o[1] - site[1]
        c = (o[0] ** 2 + o[1] ** 2 - site[0] ** 2 - site[1] ** 2) / 2
        poly = _clip(poly, a, b, c)
    return poly


@lru_cache(maxsize=1)
def counties() -> dict[str, County]:
    """All 45 counties keyed by canonical name, with their cells."""
    raw = json.loads(resources.files("reports").joinpath("data/wallenstein_map.json").read_text("utf-8"))
    rows = raw["counties"]
    names = {r["id"]: r["name"] for r in rows}
    points = {r["id"]: project(r["lat"], r["lon"]) for r in rows}
    result: dict[str, County] = {}
    for r in rows:
        site = points[r["id"]]
        others = [p for k, p in points.items() if k != r["id"]]
        cell = tuple((round(x, 4), round(y, 4)) for x, y in voronoi_cell(site, others))
        result[r["name"]] = County(r["id"], r["name"], r["region"], site[0], site[1], r["used_with_3"],
                                   tuple(names[n] for n in r["neighbours"]), cell)
    return result


def shared_edges(a: County, b: County, tol: float = 1e-3) -> list[tuple[Point, Point]]:
    """Edges of ``a``'s cell that lie on the bisector between ``a`` and ``b`` (their border)."""
    ux, uy = b.x - a.x, b.y - a.y
    c = (b.x ** 2 + b.y ** 2 - a.x ** 2 - a.y ** 2) / 2
    norm = math.hypot(ux, uy)
    edges = []
    n = len(a.cell)
    for i in range(n):
        p, q = a.cell[i], a.cell[(i + 1) % n]
        on_p = abs(ux * p[0] + uy * p[1] - c) / norm < tol
        on_q = abs(ux * q[0] + uy * q[1] - c) / norm < tol
        if on_p and on_q and math.dist(p, q) > tol:
            edges.append((p, q))
    return edges


def cell_edges(county: County) -> list[tuple[Point, Point, str | None]]:
    """Every edge of ``county``'s cell with the county across it (``None``: outer edge)."""
    everyone = counties()
    out: list[tuple[Point, Point, str | None]] = []
    n = len(county.cell)
    for i in range(n):
        p, q = county.cell[i], county.cell[(i + 1) % n]
        out.append((p, q, _across(county, p, q, everyone)))
    return out


def _across(a: County, p: Point, q: Point, everyone: dict[str, County], tol: float = 1e-3) -> str | None:
    for b in everyone.values():
        if b.name == a.name:
            continue
        ux, uy = b.x - a.x, b.y - a.y
        c = (b.x ** 2 + b.y ** 2 - a.x ** 2 - a.y ** 2) / 2
        norm = math.hypot(ux, uy)
        if abs(ux * p[0] + uy * p[1] - c) / norm < tol and abs(ux * q[0] + uy * q[1] - c) / norm < tol:
            return b.name
    return None


@dataclass(frozen=True)
class Borders:
    """The fixed line work of the map, by style (each a list of segments)."""

    inner: tuple[tuple[Point, Point], ...]      # between counties of one region
    region: tuple[tuple[Point, Point], ...]     # between regions, and the outer edge
    closed: tuple[tuple[Point, Point], ...]     # cells touch, but the counties do not border
    links: tuple[tuple[Point, Point], ...]      # counties border, but their cells do not touch


@lru_cache(maxsize=1)
def borders() -> Borders:
    """Classify every cell edge once (the map data never changes)."""
    geo = counties()
    inner, region, closed = [], [], []
    touching = set()
    for county in geo.values():
        for p, q, other in cell_edges(county):
            if other is not None:
                touching.add((county.name, other))
                if other < county.name:
                    continue  # each shared edge once
            if other is not None and other not in county.neighbours:
                closed.append((p, q))
            elif other is not None and geo[other].region == county.region:
                inner.append((p, q))
            else:
                region.append((p, q))
    links = [((c.x, c.y), (geo[o].x, geo[o].y)) for c in geo.values() for o in c.neighbours
             if c.name < o and (c.name, o) not in touching]
    return Borders(tuple(inner), tuple(region), tuple(closed), tuple(links))
