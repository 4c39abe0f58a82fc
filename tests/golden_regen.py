"""Regenerate every golden file in the tree: ``make golden`` (``python -m tests.golden_regen``).

Each part of the tree that keeps golden files adds its ``regenerate() -> list[Path]``
to :data:`REGENERATORS`; review the resulting diff like code before committing it.
"""

from __future__ import annotations

import importlib
import sys

#: Modules with a ``regenerate()`` function.
REGENERATORS = ("tests.reports.golden", "tests.reports.docs_images", "tests.gods_playground_reports.golden")


def main() -> int:
    """Run every regenerator and list what it wrote."""
    for name in REGENERATORS:
        paths = importlib.import_module(name).regenerate()
        print(f"{name}: {len(paths)} file(s)")
        for path in paths:
            print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
