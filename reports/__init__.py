"""Reports: what players read after every adjudicated turn (text, HTML, map, charts).

Public API (see docs/reports.md)::

    from reports import ReportInput, Rendered, render_report, write_report, to_message
"""

from reports.files import write_report
from reports.message import to_message
from reports.model import ReportInput, Rendered
from reports.render import render_report

__all__ = ["ReportInput", "Rendered", "render_report", "write_report", "to_message"]
