"""Rule cases of an earlier rules version: a case with ``"version"`` runs under that release."""

from __future__ import annotations

import contextlib
from typing import Any

from adjudicator.versions import Releases


def rules_of(releases: Releases, case: dict[str, Any]) -> contextlib.AbstractContextManager[Any]:
    """The block runs under the case's ``version`` (default: the newest release)."""
    version = case.get("version")
    return releases.pinned(releases.get(version)) if version else contextlib.nullcontext()
