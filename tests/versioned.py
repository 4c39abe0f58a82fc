"""Rule cases of an earlier rules version: a case with ``"version"`` runs under that release, as a
game created at the case's ``"created"`` moment reads it (a window of that version, if any)."""

from __future__ import annotations

import contextlib
from typing import Any

from adjudicator.versions import Releases


def rules_of(releases: Releases, case: dict[str, Any]) -> contextlib.AbstractContextManager[Any]:
    """The block runs under the case's ``version`` (default: the newest release) as of ``created``."""
    version = case.get("version")
    if not version:
        return contextlib.nullcontext()
    return releases.pinned(releases.get(version).as_created(case.get("created")))
