"""The jinja2 environments: HTML with autoescape on, plain text without."""

from __future__ import annotations

from functools import lru_cache

import jinja2

from reports import doc as d
from reports import i18n


def _common(env: jinja2.Environment) -> jinja2.Environment:
    env.filters["wrap"] = d.wrap
    env.filters["items_text"] = d.items_text
    env.filters["table_text"] = d.table_text
    env.globals["rule"] = d.rule
    env.globals["lang"] = i18n.lang
    # the texts of the templates in the reader's language (reports.i18n.speaking)
    env.install_gettext_callables(gettext=i18n._, ngettext=i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
    return env


@lru_cache(maxsize=1)
def html_env() -> jinja2.Environment:
    """Environment for ``*.html.j2``: autoescape is always on (player text is data)."""
    return _common(jinja2.Environment(loader=jinja2.PackageLoader("reports", "templates"),
                                      autoescape=True, undefined=jinja2.StrictUndefined,
                                      trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"]))


@lru_cache(maxsize=1)
def text_env() -> jinja2.Environment:
    """Environment for ``*.txt.j2`` (plain text, never sent as HTML)."""
    return _common(jinja2.Environment(loader=jinja2.PackageLoader("reports", "templates"),
                                      autoescape=False, undefined=jinja2.StrictUndefined,
                                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                                      extensions=["jinja2.ext.i18n"]))


def render_text(template: str, **context: object) -> str:
    """Render a text template; trailing spaces are stripped from every line."""
    out = text_env().get_template(template).render(**context)
    return "\n".join(line.rstrip() for line in out.splitlines()) + "\n"


def render_html(template: str, **context: object) -> str:
    """Render an HTML template (autoescaped)."""
    return html_env().get_template(template).render(**context)
