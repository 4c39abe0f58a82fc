"""How a branch (``pbem branch``) marks its reports and mails: one banner line.

Kept apart from :mod:`pbem.loop.branch`, which queues mail, so that :mod:`pbem.mailout.reporting` can mark
a branch's reports without an import circle (reporting -> branch -> notify -> reporting).
"""

from __future__ import annotations

from typing import Any


def banner(created: dict[str, Any]) -> str | None:
    """The line reports and mails of a branch start with (None for other games)."""
    b = created.get("branch")
    if not b:
        return None
    chance = "the same seed as" if b.get("same_seed") else "its own seed after that turn, not"
    return (f"This game is a branch of {b['of']} at turn {b['at']} (a what-if: {b['of']} is not affected; "
            f"it draws from {chance} {b['of']}'s).")


def with_banner(rendered: Any, line: str) -> Any:
    """``rendered`` (a :class:`reports.model.Rendered`) with ``line`` first in its text and HTML."""
    import html
    import re

    from reports.model import Rendered

    block = f'<p class="branch" style="margin:12px;font-weight:bold;">{html.escape(line)}</p>'
    page = rendered.html
    match = re.search(r"<body[^>]*>", page)
    page = page[:match.end()] + "\n" + block + page[match.end():] if match else block + page
    return Rendered(text=line + "\n\n" + rendered.text, html=page, images=dict(rendered.images))
