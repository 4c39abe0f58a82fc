"""The sizes a mail may have before pbem reads it, checked before it is parsed.

An order mail is a few kilobytes of text; a reply quoting a report with its pictures stays
far below a megabyte. A hostile mail may be anything: MIME nested thousands deep, thousands
of parts, megabytes of base64, tens of thousands of order lines. Each of these is bounded
here, before the parser or the order grammar spends time on it, so that no mail holds the
mailbox for long (``make bench``'s hostile-mail row measures it):

- the raw bytes (:data:`MAX_MAIL_BYTES`) and the header block (:data:`MAX_HEADER_BYTES`);
- the MIME structure, counted in the raw bytes: multipart and message containers
  (:data:`MAX_CONTAINERS`, which also bounds their nesting) and body parts (:data:`MAX_PARTS`);
- the decoded text orders are looked for in (:data:`MAX_TEXT_BYTES`, checked as each text
  part is decoded: :class:`TooLarge`; :data:`MAX_TEXT_LINES`);
- the order lines of a block (:data:`MAX_BLOCK_LINES`) and of a whole mail
  (:data:`MAX_MAIL_LINES`), checked by ingest before any line is read as an order.

A mail over a limit is kept whole and marked ``refused`` with the limit it broke; its sender
gets a short reply naming the limit when the address is a seat's, else none.
"""

from __future__ import annotations

import re

#: The largest mail read (raw bytes, headers and every part).
MAX_MAIL_BYTES = 2 * 1024 * 1024
#: The largest header block read.
MAX_HEADER_BYTES = 64 * 1024
#: Multipart and message/* containers in one mail (a forward of a forward is 4 or 5).
MAX_CONTAINERS = 12
#: Body parts in one mail (a report mail has 4: text, HTML and two pictures).
MAX_PARTS = 100
#: The decoded text of a part that orders are looked for in, in bytes and in lines.
MAX_TEXT_BYTES = 128 * 1024
MAX_TEXT_LINES = 4000
#: Order lines (not blank, not a comment) in one GAME block, and in all blocks of one mail.
MAX_BLOCK_LINES = 100
MAX_MAIL_LINES = 200

_CONTAINER = re.compile(rb"(?im)^content-type:\s*(?:multipart|message)/")
_BOUNDARY = re.compile(rb'(?i)\bboundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))')


class TooLarge(Exception):
    """A part of the mail is over a limit (the message names it)."""


def size(n: int) -> str:
    """``n`` bytes as a reader says it, rounded up (``4,352 KB``, ``256 KB``)."""
    return f"{max(1, -(-n // 1024)):,} KB"


def precheck(raw: bytes) -> str:
    """Why ``raw`` must not be parsed (its size or MIME structure is over a limit), or ``""``."""
    if len(raw) > MAX_MAIL_BYTES:
        return f"the mail is {size(len(raw))}, more than the {size(MAX_MAIL_BYTES)} read"
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=len(raw))
    if end > MAX_HEADER_BYTES:
        return f"its header block is {size(end)}, more than the {size(MAX_HEADER_BYTES)} read"
    containers = len(_CONTAINER.findall(raw))
    if containers > MAX_CONTAINERS:
        return (f"it has {containers} MIME containers (multipart or message parts, nested or side by side), "
                f"more than the {MAX_CONTAINERS} read")
    boundaries = {m.group(1) or m.group(2) for m in _BOUNDARY.finditer(raw)}
    parts = sum(raw.count(b"\n--" + b) for b in boundaries)
    if parts > MAX_PARTS + MAX_CONTAINERS:
        return f"it has about {parts} MIME parts, more than the {MAX_PARTS} read"
    return ""


def check_text(data: bytes | str) -> None:
    """Raise :class:`TooLarge` when a decoded text part is over :data:`MAX_TEXT_BYTES` or
    :data:`MAX_TEXT_LINES`."""
    if len(data) > MAX_TEXT_BYTES:
        raise TooLarge(f"a text part of it is {size(len(data))} decoded, more than the {size(MAX_TEXT_BYTES)} "
                       "read for orders")
    lines = data.count(b"\n" if isinstance(data, bytes) else "\n")
    if lines > MAX_TEXT_LINES:
        raise TooLarge(f"a text part of it has {lines:,} lines, more than the {MAX_TEXT_LINES:,} read for orders")


def order_lines(body: str) -> int:
    """The order lines of a block's body: lines with text that are not only a comment."""
    return sum(1 for line in body.split("\n") if line.split("#", 1)[0].strip())


def N_(message: str) -> str:
    """A text of the catalogue, translated where it is used (``reports.i18n.N_``, not imported
    here: ``pbem status`` loads this module without the reports package)."""
    return message


#: The reasons above, as templates of the catalogue: the reply gives the reason in the current
#: language (the GM's notes keep it as written here).
REASONS = (N_("the mail is {size}, more than the {most} read"),
           N_("its header block is {size}, more than the {most} read"),
           N_("it has {n} MIME containers (multipart or message parts, nested or side by side), more than the {most} "
              "read"), N_("it has about {n} MIME parts, more than the {most} read"),
           N_("a text part of it is {size} decoded, more than the {most} read for orders"),
           N_("a text part of it has {n} lines, more than the {most} read for orders"))


def refusal_text(reason: str) -> str:
    """The reply to a mail refused over a limit (it names the limit, never the mail's content),
    in the current language."""
    from reports.enginetext import Sentences, Template
    from reports.i18n import _

    said = Sentences(tuple(Template(text) for text in REASONS))(reason)
    return (_("Your mail to the game master was not read: {reason}.").format(reason=said) + "\n"
            + _("Nothing of it was recorded. Send your orders as plain text (GAME ... END) in a smaller mail, "
                "without attachments or quoted reports.") + "\n")
