"""Headless Chromium screenshots of report HTML (tests and docs/img)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

WINDOW = (1000, 1400)
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")


def chromium() -> str | None:
    """Path of Debian's ``chromium``, or None when it is not installed."""
    return shutil.which("chromium")


def screenshot(html_file: Path, png_file: Path, window: tuple[int, int] = WINDOW, timeout: float = 180) -> Path:
    """Open ``html_file`` in headless Chromium and save a screenshot as ``png_file``."""
    exe = chromium()
    if exe is None:
        raise FileNotFoundError("chromium is not installed (apt-get install -y chromium)")
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        cmd = [exe, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={png_file}",
               f"--window-size={window[0]},{window[1]}", html_file.resolve().as_uri()]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if not png_file.exists():
        raise RuntimeError(f"chromium wrote no screenshot (exit {done.returncode}): {done.stderr[-2000:]}")
    return png_file
