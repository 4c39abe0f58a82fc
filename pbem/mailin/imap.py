"""Reading the game mailbox over IMAP (stdlib ``imaplib``).

``imaps://USER@HOST[:PORT]/FOLDER`` is implicit TLS (port 993); ``imap://...`` connects on
port 143 and upgrades with STARTTLS before logging in (a server without STARTTLS is
refused: the password never crosses the network in clear). The certificate is verified.
The password comes from the environment or a private password file (:mod:`pbem.mailout.config`),
never from the URL, the command line or a log.

Every message is read once. Messages are fetched in batches (``BODY.PEEK[]``, so nothing
is marked read by fetching); each is recorded by :class:`pbem.loop.ingest.Ingestor` in its own
transaction, and only then is the batch flagged (keyword ``$PbemIngested`` plus ``\\Seen``)
or moved (``move_to``). A run killed between recording and flagging leaves messages that
the next run fetches again: ingest recognises them by Message-ID and body hash (the store
key) and records nothing twice; they are then flagged or moved.
"""

from __future__ import annotations

import imaplib
import logging
import re
import ssl
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from pbem.mailout.config import Config
from pbem.errors import DomainError
from pbem.mailin.parse import RawMail

if TYPE_CHECKING:  # the loop above passes its ingestor in; this room never imports it
    from pbem.loop.ingest import Ingestor, Outcome

log = logging.getLogger("pbem.imap")

KEYWORD = "$PbemIngested"
BATCH = 50
Progress = Callable[[int, int], None]


@dataclass
class ImapSettings:
    """Where the game mailbox is and what to do with a message once it is recorded."""

    host: str
    user: str
    folder: str = "INBOX"
    port: int = 993
    implicit_tls: bool = True
    password: str | None = field(default=None, repr=False)
    move_to: str | None = None
    cafile: str | None = None
    batch: int = BATCH
    timeout: float = 60.0


def is_imap_url(text: str) -> bool:
    """True for an ``imap://`` or ``imaps://`` URL."""
    return bool(re.match(r"(?i)^imaps?://", text))


def parse_url(url: str) -> ImapSettings:
    """``imaps://USER@HOST[:PORT]/FOLDER`` (the user may itself contain ``@``; ``%40``
    works too). A password in the URL is refused."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("imap", "imaps"):
        raise DomainError(f"not an IMAP URL: {url!r} (use imaps://USER@HOST/FOLDER)")
    userinfo, _, hostport = parts.netloc.rpartition("@")
    if ":" in userinfo:
        raise DomainError("the IMAP URL must not carry a password; set PBEM_IMAP_PASSWORD or [mailbox] password_file")
    host, _, port = hostport.partition(":")
    if not userinfo or not host:
        raise DomainError(f"IMAP URL {url!r} needs a user and a host: imaps://USER@HOST[:PORT]/FOLDER")
    try:
        number = int(port) if port else (993 if scheme == "imaps" else 143)
    except ValueError:
        raise DomainError(f"IMAP port {port!r} is not a number") from None
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    return ImapSettings(host, unquote(userinfo), folder, number, scheme == "imaps")


def settings_from_config(config: Config, url: str | None = None, move_to: str | None = None) -> ImapSettings:
    """The mailbox of ``url`` (else ``PBEM_IMAP_URL`` / ``[mailbox] url``), with the
    password, ``move_to`` and CA file from the environment or ``pbem.toml``."""
    url = url or config.value("mailbox", "url", "PBEM_IMAP_URL")
    if not url:
        raise DomainError("no mailbox: give imaps://USER@HOST/FOLDER or set [mailbox] url in pbem.toml")
    settings = parse_url(str(url))
    settings.move_to = move_to or config.value("mailbox", "move_to", "PBEM_IMAP_MOVE_TO") or None
    settings.cafile = config.value("mailbox", "cafile", "PBEM_IMAP_CAFILE") or None
    settings.password = config.secret("mailbox", "PBEM_IMAP_PASSWORD", settings.host, settings.user)
    if settings.password is None:
        raise DomainError(f"no IMAP password for {settings.user}: set PBEM_IMAP_PASSWORD or [mailbox] password_file")
    batch = config.value("mailbox", "batch", "PBEM_IMAP_BATCH")
    if batch:
        settings.batch = max(1, int(batch))
    return settings


class Mailbox:
    """One logged-in IMAP session on the game folder."""

    def __init__(self, settings: ImapSettings) -> None:
        self.s = settings
        self.imap = self._connect()
        self.keyword = False

    def _connect(self) -> imaplib.IMAP4:
        s = self.s
        context = ssl.create_default_context(cafile=s.cafile)
        try:
            if s.implicit_tls:
                imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(s.host, s.port, ssl_context=context, timeout=s.timeout)
            else:
                imap = imaplib.IMAP4(s.host, s.port, timeout=s.timeout)
                if "STARTTLS" not in imap.capabilities:
                    imap.shutdown()
                    raise DomainError(f"{s.host}:{s.port} offers no STARTTLS; refusing to send the password in clear")
                imap.starttls(ssl_context=context)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise DomainError(f"cannot reach the mailbox {s.host}:{s.port}: {_describe(exc)}") from None
        try:
            imap.login(s.user, s.password or "")
            typ, data = imap.capability()  # servers announce more (MOVE, UIDPLUS) after login
            if typ == "OK" and data and data[-1]:
                imap.capabilities = tuple(_text(data[-1]).upper().split())
        except imaplib.IMAP4.error as exc:
            imap.shutdown()
            raise DomainError(f"{s.host}: login as {s.user} refused: {_describe(exc)}") from None
        return imap

    def open(self) -> list[bytes]:
        """Select the folder; the UIDs of the messages not yet ingested, oldest first."""
        typ, data = self.imap.select(_quote(self.s.folder))
        if typ != "OK":
            raise DomainError(f"no folder {self.s.folder!r} in the mailbox: {_text(data)}")
        flags = _text(self.imap.response("PERMANENTFLAGS")[1])
        self.keyword = "\\*" in flags or KEYWORD in flags
        query = f"UNKEYWORD {KEYWORD}" if self.keyword else "UNSEEN"
        typ, data = self.imap.uid("SEARCH", None, "UNDELETED", query)
        if typ != "OK":
            raise DomainError(f"searching {self.s.folder!r} failed: {_text(data)}")
        return sorted((u for u in b" ".join(d for d in data if d).split()), key=int)

    def fetch(self, uids: Sequence[bytes]) -> Iterator[tuple[bytes, bytes]]:
        """``(uid, raw bytes)`` of each message of ``uids`` (read without marking it seen)."""
        typ, data = self.imap.uid("FETCH", b",".join(uids).decode(), "(UID BODY.PEEK[])")
        if typ != "OK":
            raise DomainError(f"fetching from {self.s.folder!r} failed: {_text(data)}")
        for item in data:
            if isinstance(item, tuple):
                found = re.search(rb"UID (\d+)", item[0])
                if found:
                    yield found.group(1), item[1]

    def done(self, uids: Sequence[bytes]) -> None:
        """Flag (or move) messages that are recorded."""
        if not uids:
            return
        which = b",".join(uids).decode()
        if self.s.move_to:
            self._move(which)
            return
        flags = f"({KEYWORD} \\Seen)" if self.keyword else "(\\Seen)"
        typ, data = self.imap.uid("STORE", which, "+FLAGS.SILENT", flags)
        if typ != "OK":
            raise DomainError(f"flagging messages in {self.s.folder!r} failed: {_text(data)}")

    def _move(self, which: str) -> None:
        target = _quote(self.s.move_to or "")
        self.imap.create(target)  # fails harmlessly when it exists
        if "MOVE" in self.imap.capabilities:
            typ, data = self.imap.uid("MOVE", which, target)
        else:
            typ, data = self.imap.uid("COPY", which, target)
            if typ == "OK":
                self.imap.uid("STORE", which, "+FLAGS.SILENT", "(\\Deleted)")
                self.imap.expunge()
        if typ != "OK":
            raise DomainError(f"moving messages to {self.s.move_to!r} failed: {_text(data)}")

    def close(self) -> None:
        """Log out (ignoring a dead connection)."""
        try:
            self.imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def ingest_mailbox(ingestor: Ingestor, settings: ImapSettings, progress: Progress | None = None,
                   origin: str | None = None) -> list[Outcome]:
    """Ingest every new message of the mailbox, batch by batch; flag or move each batch
    after all its messages are recorded. ``progress(done, total)`` is called per message."""
    box = Mailbox(settings)
    outcomes: list[Outcome] = []
    try:
        uids = box.open()
        where = origin or f"imap://{settings.host}/{settings.folder}"
        for start in range(0, len(uids), settings.batch):
            batch = uids[start:start + settings.batch]
            recorded = []
            with ingestor.store.group_commit():  # the batch is on disk before it is flagged
                for uid, raw in box.fetch(batch):
                    outcomes.append(ingestor.ingest(RawMail(raw, f"{where};UID={uid.decode()}", mailbox=True)))
                    recorded.append(uid)
                    if progress is not None:
                        progress(len(outcomes), len(uids))
            box.done(recorded)
            log.info("%s: %d message(s) recorded and %s", where, len(recorded),
                     f"moved to {settings.move_to}" if settings.move_to else "flagged")
    except (OSError, imaplib.IMAP4.abort) as exc:
        raise DomainError(f"the mailbox connection broke: {_describe(exc)}; run again to go on") from None
    finally:
        box.close()
    return outcomes


def ingest_configured(ingestor: Ingestor, config: Config, move_to: str | None = None,
                      progress: Progress | None = None) -> list[Outcome]:
    """``pbem ingest`` without a path, as a function (for ``pbem tick``): the mailbox of
    ``PBEM_IMAP_URL`` / ``[mailbox] url``; nothing when none is configured."""
    if not config.value("mailbox", "url", "PBEM_IMAP_URL"):
        return []
    return ingest_mailbox(ingestor, settings_from_config(config, move_to=move_to), progress)


def _quote(folder: str) -> str:
    """An IMAP mailbox name as a quoted string."""
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(data: object) -> str:
    if isinstance(data, (list, tuple)):
        return " ".join(_text(d) for d in data if d is not None)
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return str(data)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"
