"""Building MIME messages the same way every time: the policy, headers in order, a text part.

Only the stdlib: :mod:`pbem.mailout.mailbase` (the messages we send) and :mod:`pbem.store.mailpack` (the
outbox's stored forms, rebuilt when read) both build on it without importing each other.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from email import policy
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import EmailMessage
from functools import lru_cache
from typing import Any


class _FoldedOnce(BaseHeader):
    """A header that keeps its folded form under :data:`MAIL_POLICY` (RFC 5322 section 2.2.3
    folding and RFC 2047 encoded words, done by the stdlib): writing a message folds every
    header again from its parse tree, and a reply's headers are mostly the same objects
    (:class:`_RememberingHeaders`). The fold is a function of the header (immutable) and the
    policy alone, so the kept form is exactly what folding again would give."""

    def fold(self, *, policy: Any) -> str:
        """The header folded as :meth:`BaseHeader.fold` folds it (kept for :data:`MAIL_POLICY`)."""
        if policy is not MAIL_POLICY:  # another policy (line length, utf8...) folds afresh
            return super().fold(policy=policy)
        folded: str | None = self.__dict__.get("_pbem_folded")
        if folded is None:
            folded = self.__dict__["_pbem_folded"] = super().fold(policy=policy)
        return folded


class _RememberingHeaders(HeaderRegistry):
    """The default policy's header classes, each (name, value) parsed once: reading a mail
    asks for its headers (Content-Type above all) many times, and every mail of a game
    carries the same Content-Type, MIME-Version, To... The header objects are immutable.
    The class for a header name is made once too (the stdlib makes a new class on every
    lookup, and setting a header looks its class up for ``max_count``)."""

    def __init__(self) -> None:
        super().__init__(base_class=_FoldedOnce)

    def __getitem__(self, name: str) -> Any:
        return self._class(name)

    def map_to_type(self, name: str, cls: Any) -> None:
        """Register ``cls`` for ``name`` (forgetting the classes made so far)."""
        super().map_to_type(name, cls)
        self._class.cache_clear()

    @lru_cache(maxsize=256)  # noqa: B019 - one instance for the process (MAIL_POLICY below)
    def _class(self, name: str) -> Any:
        return super().__getitem__(name)

    def __call__(self, name: str, value: str) -> Any:
        if type(value) is not str or len(value) > 500:  # only short texts are kept (a hostile
            # mail must not fill memory; Address objects and lists are not hashable)
            return super().__call__(name, value)
        return self._remembered(name, value)

    @lru_cache(maxsize=2048)  # noqa: B019 - one instance for the process (MAIL_POLICY below)
    def _remembered(self, name: str, value: str) -> Any:
        return super().__call__(name, value)


#: ``policy.default`` with remembered headers and folds: inbound mail is parsed and outgoing
#: mail built with it (the same header classes and folding, so the same bytes as
#: ``policy.default``).
MAIL_POLICY = policy.default.clone(header_factory=_RememberingHeaders())


class Message(EmailMessage):
    """An outgoing message whose ``Content-Language`` outlives :meth:`set_content` (the stdlib's
    ``set_content`` drops every ``Content-*`` header it finds): the reader's language is said
    after the content's own headers."""

    def set_content(self, *args: Any, **kw: Any) -> None:
        kept = self.get_all("Content-Language") or []
        super().set_content(*args, **kw)
        for value in kept:
            self["Content-Language"] = str(value)


def with_headers(headers: Sequence[tuple[str, str]]) -> EmailMessage:
    """An empty message with ``headers`` set in this order."""
    msg = Message(policy=MAIL_POLICY)
    for name, value in headers:
        msg[name] = value
    return msg


#: RFC 5322 section 3.6.4's plain message id, ``"<" dot-atom-text "@" dot-atom-text ">"``, with
#: atext less "=" and "?" (nothing that could look like an RFC 2047 encoded word).
_ATEXT = r"[A-Za-z0-9!#$%&'*+/^_`{|}~-]+"


@functools.cache
def _plain_id() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(rf"<{_ATEXT}(?:\.{_ATEXT})*@{_ATEXT}(?:\.{_ATEXT})*>")


#: The headers whose value is one message id in our replies (RFC 5322 section 3.6.4).
_ID_HEADERS = frozenset({"message-id", "in-reply-to", "references"})


def text_message(headers: Sequence[tuple[str, str]], body: str) -> EmailMessage:
    """The text/plain message with ``headers`` (in this order) and ``body`` as its content:
    built the same way every time, so the same headers and text give the same bytes.

    A reply's own Message-ID and its In-Reply-To/References are new in every reply: when one
    is a plain message id it is kept as given (``set_raw``), and the policy writes it as it
    writes a header read from a mail (a short line as it is, a long one parsed and folded):
    the bytes the parsed and folded header gives, without the parse (a third of the build).
    A second Message-ID goes through ``msg[name] = value``, which refuses it as before.
    ``Content-Language`` comes after the content's headers (:class:`Message`)."""
    msg = Message(policy=MAIL_POLICY)
    for name, value in headers:
        if name.lower() in _ID_HEADERS and _plain_id().fullmatch(value) and name not in msg:
            msg.set_raw(name, value)
        else:
            msg[name] = value
    msg.set_content(body)
    return msg
