"""A rendered report as a mail message (stdlib ``email``, ``policy.default``).

Structure::

    multipart/mixed
      multipart/alternative
        text/plain                 the text report
        multipart/related
          text/html                pictures referred to as cid:...
          image/png (inline)       one part per picture
      image/png (attachment)       the map again, to save or forward
"""

from __future__ import annotations

import hashlib
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

from reports.model import Rendered

#: The picture that is also attached as a file.
ATTACHED = "map.png"


def content_id(name: str, message_id: str) -> str:
    """A stable Content-ID (without <>) for picture ``name`` of message ``message_id``."""
    digest = hashlib.sha256(f"{message_id}/{name}".encode("utf-8")).hexdigest()[:16]
    return f"{name.replace('.', '-')}.{digest}@pbem.invalid"


def to_message(r: Rendered, *, to: str, sender: str, subject: str, message_id: str,
               in_reply_to: str | None, references: list[str]) -> EmailMessage:
    """The report as a MIME message: text and HTML alternatives, the pictures inline
    (``cid:``) in the HTML, and the map also as an attachment.

    ``message_id`` and the ids in ``in_reply_to``/``references`` are given with or
    without angle brackets. No Date header is set (the sender adds it when sending) and
    the MIME boundaries derive from ``message_id``, so the message is a pure function
    of its arguments.
    """
    msg = EmailMessage(policy=policy.default)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = _angle(message_id)
    if in_reply_to:
        msg["In-Reply-To"] = _angle(in_reply_to)
    if references:
        msg["References"] = " ".join(_angle(ref) for ref in references)
    msg["Auto-Submitted"] = "auto-generated"
    cids = {name: content_id(name, message_id) for name in sorted(r.images)}
    msg.set_content(r.text, subtype="plain", charset="utf-8")
    msg.add_alternative(_html_with_cids(r.html, cids), subtype="html", charset="utf-8")
    html_part = msg.get_payload()[1]
    for name, cid in cids.items():
        html_part.add_related(r.images[name], maintype="image", subtype=_subtype(name),
                              cid=f"<{cid}>", filename=name, disposition="inline")
    if ATTACHED in r.images:
        msg.add_attachment(r.images[ATTACHED], maintype="image", subtype="png", filename=ATTACHED)
    _fix_boundaries(msg, message_id)
    return msg


def _fix_boundaries(msg: EmailMessage, message_id: str) -> None:
    """Replace the random MIME boundaries by ones derived from the Message-ID."""
    for i, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        digest = hashlib.sha256(f"{message_id}/boundary/{i}".encode("utf-8")).hexdigest()[:24]
        part.set_boundary(f"==pbem-{i}-{digest}==")


def _angle(msgid: str) -> str:
    msgid = msgid.strip()
    return msgid if msgid.startswith("<") else f"<{msgid}>"


def _html_with_cids(html: str, cids: dict[str, str]) -> str:
    for name, cid in cids.items():
        html = html.replace(f'src="{name}"', f'src="cid:{cid}"')
    return html


def _subtype(name: str) -> str:
    ext = name.rsplit(".", 1)[-1].lower()
    return {"jpg": "jpeg", "svg": "svg+xml"}.get(ext, ext)


__all__ = ["to_message", "content_id", "make_msgid"]
