"""Reading inbound mail: sources (files, Maildir, mbox, stdin) and the text of a message.

Everything here works on the raw bytes a mail delivery agent handed over. The bytes are
kept as they are (see :meth:`pbem.store.Store.put_mail`); :func:`parse_mail` is a
projection that can be re-run by a better parser later.

A source item that has no mail headers is taken as an order text typed by the GM
(trusted input; see :mod:`pbem.ingest`).
"""

from __future__ import annotations

import hashlib
import mailbox
import re
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, BinaryIO

from pbem.mailbase import LOOP_HEADER, MAIL_POLICY

_HEADER_LINE = re.compile(rb"^[!-9;-~]+:[ \t]?")
_BULK = {"bulk", "list", "junk"}
#: Control characters (C0 but tab/newline, DEL, C1) never kept in a header value we store.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: The longest Message-ID, subject, references or sender value kept (RFC 5322's line limit).
HEADER_LIMIT = 998


@dataclass(frozen=True)
class RawMail:
    """One item read from a source: the raw bytes and where they came from."""

    raw: bytes
    origin: str
    mailbox: bool = False  # read from a Maildir or mbox: never a GM's order text


@dataclass
class ParsedMail:
    """What ingest needs to know about one raw mail.

    ``is_mail`` is False for a GM's order text (no headers). ``text`` is the readable
    text the orders are looked for in (lines normalised to ``\\n``); ``html_only`` says it
    was extracted from an HTML part. ``ignore`` names why no reply may be sent (auto-reply,
    bulk mail, our own loop header, a bounce), else it is empty.
    """

    raw: bytes
    is_mail: bool
    message_id: str | None = None
    sender: str | None = None
    subject: str = ""
    date: datetime | None = None
    references: str = ""
    text: str = ""
    html_only: bool = False
    ignore: str = ""
    digest: str = ""
    envelope: Any = None  # its GAME blocks (turns.envelope.EnvelopeResult), once ingest read them

    @property
    def key(self) -> str:
        """The store key: Message-ID plus a hash of the body. A mail without Message-ID is
        keyed by sender, Date, Subject and body (so a re-delivery with more Received lines
        is still the same mail); a GM's text by its bytes."""
        if self.message_id:
            return f"{self.message_id}#{_sha(body_bytes(self.raw))[:16]}"
        if self.is_mail:
            return f"mail:{(self.digest or _sha(self.raw))[:32]}"
        return f"gm:{_sha(self.raw)[:32]}"

    @property
    def raw_sha256(self) -> str:
        """SHA-256 of the raw bytes."""
        return _sha(self.raw)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def body_bytes(raw: bytes) -> bytes:
    """The raw bytes after the header block (what stays the same across re-deliveries)."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        head, found, body = raw.partition(sep)
        if found:
            return body
    return raw


# -- sources -------------------------------------------------------------------------
def is_maildir(path: Path) -> bool:
    """True for a directory with Maildir's ``cur``/``new`` subdirectories."""
    return path.is_dir() and (path / "new").is_dir() and (path / "cur").is_dir()


def is_mbox(path: Path) -> bool:
    """True for a file whose first line is an mbox ``From `` separator."""
    with path.open("rb") as fh:
        return fh.read(5) == b"From "


def read_maildir(path: Path) -> list[RawMail]:
    """The mails of a Maildir (``new`` and ``cur``) in arrival order, read without changing
    the folder (Maildir unique names start with the delivery time)."""
    box = mailbox.Maildir(path, factory=None, create=False)
    out = []
    for key in sorted(box.iterkeys()):
        try:
            with box.get_file(key) as fh:
                out.append(RawMail(fh.read(), f"{path}:{key}", mailbox=True))
        except (KeyError, FileNotFoundError):  # moved by a mail client meanwhile: next run
            continue
    return out


def read_mbox(path: Path, origin: str | None = None) -> list[RawMail]:
    """The mails of an mbox file, in file order, without their ``From `` lines."""
    box = mailbox.mbox(path, create=False)
    try:
        return [RawMail(box.get_bytes(key), f"{origin or path}#{n}", mailbox=True)
                for n, key in enumerate(box.iterkeys(), 1)]
    finally:
        box.close()


def read_stream(stream: BinaryIO, origin: str = "<stdin>") -> list[RawMail]:
    """A stream (stdin) holds one mail, one order text, or an mbox (``From `` first)."""
    data = stream.read()
    if not data.startswith(b"From "):
        return [RawMail(data, origin)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stdin.mbox"
        path.write_bytes(data)
        return read_mbox(path, origin)


def read_path(path: Path) -> list[RawMail]:
    """The mails at ``path``: a Maildir, a directory of files, an mbox, or one file."""
    if is_maildir(path):
        return read_maildir(path)
    if path.is_dir():
        return [m for p in sorted(path.iterdir()) if p.is_file() and not p.name.startswith(".")
                for m in read_path(p)]
    if is_mbox(path):
        return read_mbox(path)
    return [RawMail(path.read_bytes(), str(path))]


def read_sources(paths: Iterable[str], stdin: BinaryIO) -> list[RawMail]:
    """Every mail of ``paths`` in order (``-`` is ``stdin``)."""
    out: list[RawMail] = []
    for name in paths:
        out.extend(read_stream(stdin) if name == "-" else read_path(Path(name)))
    return out


# -- parsing -------------------------------------------------------------------------
def looks_like_mail(raw: bytes) -> bool:
    """True when ``raw`` starts with a header line (``Name: value``). A GM's order text
    starts with ``GAME``, a ``#`` comment or prose, never with a header."""
    first = raw.lstrip(b"\r\n").split(b"\n", 1)[0]
    return bool(_HEADER_LINE.match(first))


def parse_mail(raw: bytes, trusted: bool = True) -> ParsedMail:
    """Parse raw bytes into a :class:`ParsedMail`; never raises on malformed input.

    Bytes without headers are a GM's order text only when ``trusted`` (a file or stdin the
    GM named); from a mailbox they are mail without a sender, which is never answered.
    """
    if not looks_like_mail(raw):
        if trusted:
            return ParsedMail(raw, is_mail=False, text=normalise_text(_decode_bytes(raw)))
        return ParsedMail(raw, is_mail=True, ignore="no mail headers (not taken as GM input from a mailbox)")
    msg = BytesParser(policy=MAIL_POLICY).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    mail = ParsedMail(raw, is_mail=True)
    mail.message_id = _message_id(_header(msg, "Message-ID"))
    mail.sender = sender_address(_header(msg, "From"))
    mail.subject = clean_header(" ".join(_header(msg, "Subject").split()))
    mail.date = _date(_header(msg, "Date"))
    mail.references = clean_header(" ".join(_header(msg, "References").split()))
    mail.ignore = ignore_reason(msg, mail.sender)
    mail.text, mail.html_only = order_text(msg)
    mail.digest = _sha("\n".join([mail.sender or "", _header(msg, "Date"), mail.subject]).encode()
                       + b"\n" + body_bytes(raw))
    return mail


def clean_text(value: str) -> str:
    """``value`` as text that can be stored and mailed: bytes the email package kept as
    surrogate escapes (undeclared 8-bit) decoded as UTF-8 where valid, else replaced."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def clean_header(value: str, limit: int = HEADER_LIMIT) -> str:
    """A header value safe to store and show: valid text, no control characters (NUL, CR,
    LF...), at most ``limit`` characters."""
    return _CONTROL.sub("", clean_text(value))[:limit]


def parse_headers(raw: bytes) -> ParsedMail:
    """What the header block alone says (sender, Message-ID, subject), for a mail whose
    body cannot be parsed; never raises."""
    mail = ParsedMail(raw, is_mail=True)
    try:
        msg = BytesHeaderParser(policy=policy.default).parsebytes(raw)
        assert isinstance(msg, EmailMessage)
        mail.message_id = _message_id(_header(msg, "Message-ID"))
        mail.sender = sender_address(_header(msg, "From"))
        mail.subject = clean_header(" ".join(_header(msg, "Subject").split()))
    except Exception:  # noqa: BLE001 - the header block is hostile too: keep only the bytes
        mail.message_id = mail.sender = None
    return mail


def _header(msg: EmailMessage, name: str) -> str:
    """A header's value as text; malformed values fall back to the raw string."""
    try:
        value = msg.get(name)
    except Exception:  # noqa: BLE001 - the email package can fail on hostile headers
        value = None
        for key, raw in msg.raw_items():
            if key.lower() == name.lower():
                value = raw
                break
    return str(value) if value is not None else ""


def _message_id(value: str) -> str | None:
    value = clean_header(value).strip()
    found = re.search(r"<[^<>\s]+>", value)
    if found:
        return found.group(0)
    return value.split()[0][:200] if value.split() else None


def sender_address(value: str) -> str | None:
    """The (lower-cased) address of a From header, or None when there is none."""
    try:
        pairs = getaddresses([value])
    except Exception:  # noqa: BLE001
        return None
    for _, addr in pairs:
        addr = clean_text(addr).strip()
        if "@" in addr and not any(c.isspace() for c in addr) and not _CONTROL.search(addr) \
                and len(addr) <= 254:
            return addr.lower()
    return None


def _date(value: str) -> datetime | None:
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def ignore_reason(msg: EmailMessage, sender: str | None) -> str:
    """Why no reply may be sent to ``msg`` (RFC 3834 and loop protection), or ``""``."""
    auto = _header(msg, "Auto-Submitted").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto.split(';')[0].strip()}"
    precedence = _header(msg, "Precedence").strip().lower()
    if precedence in _BULK:
        return f"Precedence: {precedence}"
    if _header(msg, LOOP_HEADER):
        return f"our own mail ({LOOP_HEADER})"
    if msg.get_content_type() == "multipart/report" or _is_daemon(sender):
        return "a delivery report (bounce)"
    if _header(msg, "X-Autoreply") or _header(msg, "X-Autorespond"):
        return "an auto-reply (X-Autoreply)"
    if sender is None:
        return "no sender address to reply to"
    return ""


def _is_daemon(sender: str | None) -> bool:
    local = (sender or "").split("@")[0]
    return local in {"mailer-daemon", "postmaster"}


# -- text extraction -------------------------------------------------------------------
def order_text(msg: EmailMessage) -> tuple[str, bool]:
    """The text to look for orders in, and whether it came from an HTML part.

    The main text/plain part is preferred; when it holds no ``GAME`` line, a forwarded
    message (message/rfc822) or a text/plain attachment that does is used instead.
    """
    candidates = list(_candidates(msg))
    if not candidates:
        return "", False
    for text, html in candidates:
        if re.search(r"(?im)^[ \t]*game\b", text):
            return text, html
    return candidates[0]


def _candidates(msg: EmailMessage, depth: int = 0) -> Iterator[tuple[str, bool]]:
    if depth > 5:
        return
    try:
        body = msg.get_body(preferencelist=("plain", "html"))
    except Exception:  # noqa: BLE001
        body = None
    if body is not None:
        yield part_text(body), body.get_content_type() == "text/html"
    for part in _attachments(msg):
        ctype = part.get_content_type()
        if ctype == "message/rfc822":
            inner = part.get_payload(0) if part.is_multipart() else None
            if isinstance(inner, EmailMessage):
                yield from _candidates(inner, depth + 1)
        elif ctype == "text/plain":
            yield part_text(part), False


def _attachments(msg: EmailMessage) -> list[EmailMessage]:
    try:
        return [p for p in msg.iter_attachments() if isinstance(p, EmailMessage)]
    except Exception:  # noqa: BLE001
        return []


def part_text(part: EmailMessage) -> str:
    """The decoded text of a text part (charset, QP/base64, format=flowed, HTML to text)."""
    text = _eight_bit_text(part)
    if text is None:
        try:
            text = part.get_content()
        except Exception:  # noqa: BLE001 - unknown charset or broken encoding
            payload = part.get_payload(decode=True)
            text = _decode_bytes(payload if isinstance(payload, bytes) else b"")
    if not isinstance(text, str):
        text = _decode_bytes(text if isinstance(text, bytes) else b"")
    if part.get_content_type() == "text/html":
        return normalise_text(html_to_text(text))
    text = normalise_text(text)
    if str(part.get_param("format", "")).lower() == "flowed":
        text = unflow(text, str(part.get_param("delsp", "")).lower() == "yes")
    return text


def _eight_bit_text(part: EmailMessage) -> str | None:
    """The text of a part whose decoded bytes are not all ASCII, read the way its sender
    most likely meant it: as UTF-8 when the bytes are valid UTF-8, whatever the part
    declares (clients send UTF-8 without a charset, or labelled ``us-ascii`` or
    ``iso-8859-1``); else in the declared charset; else as Latin-1. None for an ASCII
    part (its declared charset, e.g. UTF-7, is then the only way to read it)."""
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 - a broken transfer encoding: the email package decides
        return None
    if not isinstance(payload, bytes) or payload.isascii():
        return None
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        pass
    charset = (part.get_content_charset() or "").strip()
    if charset and charset not in ("us-ascii", "ascii", "utf-8", "utf8"):
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError, ValueError):
            pass
    return payload.decode("latin-1")


def _decode_bytes(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def normalise_text(text: str) -> str:
    """Lines joined with ``\\n`` (the same split :func:`turns.envelope.parse_blocks` uses),
    as valid text (see :func:`clean_text`) without NUL characters."""
    return "\n".join(clean_text(text).replace("\x00", "").splitlines())


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: join soft-broken lines, remove space-stuffing."""
    out: list[tuple[int, str]] = []
    current: tuple[int, str] | None = None
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        body = body[1:] if body.startswith(" ") else body
        flowed = body.endswith(" ") and body != "-- "
        if flowed and delsp:
            body = body[:-1]
        if current is not None and current[0] == depth:
            current = (depth, current[1] + body)
        else:
            if current is not None:
                out.append(current)
            current = (depth, body)
        if not flowed:
            out.append(current)
            current = None
    if current is not None:
        out.append(current)
    return "\n".join((">" * d + " " if d else "") + t for d, t in out)


class _HtmlText(HTMLParser):
    """Text of an HTML mail: block elements become lines; quotes, scripts, styles dropped."""

    BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
    SKIP = {"script", "style", "head", "title", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.pre = 0
        self.tight: list[bool] = []

    def _break(self, tag: str) -> None:
        """A line break for a block element: ``<br>`` always ends a line; the edges of
        other blocks (``<div>``, ``<p>``...) end the current line only when it has text, so
        that ``<div>a</div><div>b</div>`` is two lines, as a mail client shows it, and the
        line numbers of a reply match what the player sees (``<div><br></div>`` is the
        blank line of Gmail and ``<p>&nbsp;</p>`` that of Outlook)."""
        if tag == "br" or not self._at_line_start():
            self.parts.append("\n")

    def _at_line_start(self) -> bool:
        for part in reversed(self.parts):
            if part.strip(" "):
                return part.endswith("\n")
        return True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skip += 1
        elif tag in self.BLOCK and not self.skip:
            self._break(tag)
        if tag == "p":  # a paragraph is followed by a blank line unless styled without margin
            found = dict(attrs)
            style = re.sub(r"\s", "", (found.get("style") or "").lower())
            self.tight.append("msonormal" in (found.get("class") or "").lower()
                              or "margin:0" in style or "margin-bottom:0" in style)
        self.pre += tag == "pre"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCK and not self.skip:
            self._break(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCK and not self.skip:
            self._break(tag)
            if tag == "p" and not (self.tight.pop() if self.tight else False):
                self.parts.append("\n")
        if tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data if self.pre else re.sub(r"[ \t\r\n]+", " ", data))


def html_to_text(html: str) -> str:
    """A plain-text rendering of ``html`` good enough to find order lines in."""
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001
        pass
    lines = [line.strip() for line in "".join(parser.parts).split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")
