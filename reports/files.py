"""Reports as files: the bytes of each file (pure), and a tiny writer for the pbem shell."""

from __future__ import annotations

import os
from pathlib import Path

from reports.model import Rendered


def report_files(r: Rendered, stem: str = "report") -> dict[str, bytes]:
    """File name -> bytes: ``<stem>.txt``, ``<stem>.html`` and every picture by its name.

    The HTML refers to the pictures by these names, so the files belong in one directory.
    """
    files = {f"{stem}.txt": r.text.encode("utf-8"), f"{stem}.html": r.html.encode("utf-8")}
    for name in sorted(r.images):
        files[name] = r.images[name]
    return files


def write_report(r: Rendered, directory: str | os.PathLike[str], stem: str = "report") -> list[Path]:
    """Write :func:`report_files` into ``directory`` (created if needed); the paths written.

    This is the only file writing in ``reports``; call it from the shell (``pbem``).
    Give each report its own directory: the picture names are the same in every report.
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in report_files(r, stem).items():
        path = out / name
        path.write_bytes(data)
        paths.append(path)
    return paths
