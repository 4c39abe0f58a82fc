"""Ingesting the mail sources the GM names (``pbem ingest``): IMAP mailboxes, .eml files,
Maildir folders, mbox files or stdin, each mail recorded and answered once."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from pbem.loop.ingest import Outcome
    from pbem.loop.service import Service
    from pbem.mailin.mailsources import Mails
    from pbem.mailin.parse import RawMail
    from pbem.mailout.config import Config

#: Told ``(mails done, mails in the source)`` as a source is ingested.
Tell = Callable[[int, int], None]
#: Made once per source: a context giving the function told of its progress.
Progress = Callable[[], AbstractContextManager[Tell | None]]


def is_imap_url(text: str) -> bool:
    """True for an ``imap://`` or ``imaps://`` URL (:func:`pbem.mailin.imap.is_imap_url`, without
    importing imaplib)."""
    return text[:8].lower().startswith(("imap://", "imaps://"))


def configured_sources(config: Config, paths: Sequence[str]) -> tuple[str, ...]:
    """``paths``, else the mailbox of pbem.toml (``[mailbox] url`` / ``PBEM_IMAP_URL``), else none."""
    mailbox_url = config.value("mailbox", "url", "PBEM_IMAP_URL")
    if not paths and mailbox_url:
        return (str(mailbox_url),)
    return tuple(paths)


def ingest_sources(service: Service, config: Config, paths: Sequence[str], stdin: BinaryIO,
                   retry_rejected: bool = False, move_to: str | None = None,
                   progress: Progress | None = None) -> list[Outcome]:
    """Ingest every mail of ``paths`` in order (none: ``stdin``): an IMAP mailbox's mails are
    flagged, or moved to ``move_to``, only after they are recorded; ``retry_rejected`` processes
    again mails rejected before. The seats' address index is brought up to date first (a
    sender's seats are found there). One outcome per mail."""
    from pbem.loop.ingest import Ingestor
    from pbem.mailin.parse import read_sources
    from pbem.store.projection import refresh_stale

    refresh_stale(service)  # a sender's seats are found in the address index: never read it stale
    ingestor = Ingestor(service, retry_rejected)
    outcomes: list[Outcome] = []
    for path in paths or ("-",):
        with (progress or _unseen)() as tell:
            if is_imap_url(path):
                from pbem.mailin import imap  # imaplib only for a mailbox

                settings = imap.settings_from_config(config, path, move_to)
                outcomes += imap.ingest_mailbox(ingestor, settings, tell)
            else:
                mails = read_sources((path,), stdin)
                outcomes += ingestor.ingest_all(mails if tell is None else _told(mails, tell))
    return outcomes


def _unseen() -> AbstractContextManager[None]:
    return nullcontext()


def _told(mails: Mails, tell: Tell) -> Iterator[RawMail]:
    """``mails``, telling how many are done each time the next one is asked for."""
    total = len(mails)
    for done, mail in enumerate(mails, 1):
        yield mail
        tell(done, total)
