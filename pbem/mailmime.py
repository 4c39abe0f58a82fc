"""Building MIME messages the same way every time: the policy, headers in order, a text part.

Only the stdlib: :mod:`pbem.mailbase` (the messages we send) and :mod:`pbem.mailpack` (the
outbox's stored forms, rebuilt when read) both build on it without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from email import policy
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from functools import lru_cache
from typing import Any


class _RememberingHeaders(HeaderRegistry):
    """The default policy's header classes, each (name, value) parsed once: reading a mail
    asks for its headers (Content-Type above all) many times, and every mail of a game
    carries the same Content-Type, MIME-Version, To... The header objects are immutable."""

    def __call__(self, name: str, value: str) -> Any:
        if type(value) is not str or len(value) > 500:  # only short texts are kept (a hostile
            # mail must not fill memory; Address objects and lists are not hashable)
            return super().__call__(name, value)
        return self._remembered(name, value)

    @lru_cache(maxsize=2048)  # noqa: B019 - one instance for the process (MAIL_POLICY below)
    def _remembered(self, name: str, value: str) -> Any:
        return super().__call__(name, value)


#: ``policy.default`` with remembered headers: inbound mail is parsed and outgoing mail
#: built with it (the same header classes, so the same bytes as ``policy.default``).
MAIL_POLICY = policy.default.clone(header_factory=_RememberingHeaders())


def with_headers(headers: Sequence[tuple[str, str]]) -> EmailMessage:
    """An empty message with ``headers`` set in this order."""
    msg = EmailMessage(policy=MAIL_POLICY)
    for name, value in headers:
        msg[name] = value
    return msg


def text_message(headers: Sequence[tuple[str, str]], body: str) -> EmailMessage:
    """The text/plain message with ``headers`` (in this order) and ``body`` as its content:
    built the same way every time, so the same headers and text give the same bytes."""
    msg = with_headers(headers)
    msg.set_content(body)
    return msg
