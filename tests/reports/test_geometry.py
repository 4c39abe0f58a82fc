"""The schematic map geometry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reports.wallenstein.geometry import cell_edges, counties

SHARED = Path("/work/shared/data/wallenstein/provinces.json")


def _inside(pt, poly):
    x, y = pt
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_45_counties_in_5_regions_of_9():
    cs = counties()
    assert len(cs) == 45
    regions = {}
    for c in cs.values():
        regions[c.region] = regions.get(c.region, 0) + 1
    assert sorted(regions.values()) == [9] * 5
    assert sum(c.used_with_3 for c in cs.values()) == 37


def test_every_cell_holds_its_centre():
    for c in counties().values():
        assert len(c.cell) >= 3
        assert _inside((c.x, c.y), list(c.cell)), c.name


def test_adjacency_is_symmetric_and_named_canonically():
    cs = counties()
    for c in cs.values():
        for n in c.neighbours:
            assert c.name in cs[n].neighbours, (c.name, n)


def test_edges_across_are_mutual():
    cs = counties()
    for c in cs.values():
        for _, _, other in cell_edges(c):
            if other is not None:
                assert any(o == c.name for _, _, o in cell_edges(cs[other])), (c.name, other)


def test_map_data_matches_the_shared_source_when_present():
    if not SHARED.exists():
        pytest.skip(f"{SHARED} not present (the shared research data is not part of a clean clone)")
    src = {p["name"]: p for p in json.loads(SHARED.read_text("utf-8"))["provinces"]}
    cs = counties()
    assert set(src) == set(cs)
    for name, c in cs.items():
        assert c.region == src[name]["region"] and c.used_with_3 == src[name]["used_with_3"]
