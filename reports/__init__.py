"""Reports: what players read after every adjudicated turn (text, HTML, map, charts).

Public API (see docs/reports.md): :class:`reports.model.ReportInput`, :class:`reports.model.Rendered`,
:func:`reports.render.render_report`, :func:`reports.files.write_report`,
:func:`reports.message.to_message`. Import each from its module: the names below are kept for
other programs and imported when first asked for (PEP 562), which the check of import circles
(tests/test_layers.py) cannot see through, so pbem's own code does not use them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reports.files import write_report
    from reports.message import to_message
    from reports.model import ReportInput, Rendered
    from reports.render import render_report

__all__ = ["ReportInput", "Rendered", "render_report", "write_report", "to_message"]

#: Where each public name lives.
_HOMES = {"ReportInput": "reports.model", "Rendered": "reports.model", "render_report": "reports.render",
          "write_report": "reports.files", "to_message": "reports.message"}


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'reports' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
