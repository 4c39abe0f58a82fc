"""An installed pbem (a wheel, not this checkout) has the players' pages that HELP ORDERS and
HELP RULES mail: every page :mod:`pbem.mailout.playerdocs` names is in the wheel, byte for byte."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pbem.mailout.playerdocs import every_page

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_holds_the_players_pages(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(ROOT), "-w", str(tmp_path)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("pbem-*.whl")
    names = set(every_page())
    with zipfile.ZipFile(wheel) as z:
        for name in sorted(names):
            assert z.read(f"pbem/docs/{name}") == (ROOT / "docs" / name).read_bytes(), name


def test_every_page_named_is_a_page_of_docs():
    from pbem.mailout.playerdocs import page

    names = every_page()
    assert len(names) >= 8  # the envelope, each built-in game's order and rules pages, an option's page
    for name in names:
        assert page(name) == (ROOT / "docs" / name).read_text(encoding="utf-8")
