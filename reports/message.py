"""A rendered report as a mail message (stdlib ``email``, ``policy.default``).

Structure (each picture once: a phone downloads the map once, the outbox stores it once)::

    multipart/related              (root: the alternative)
      multipart/alternative
        text/plain                 the text report (it names the attached map.png)
        text/html                  pictures referred to as cid:...
      image/png (attachment)       map.png: shown in the HTML (cid) and offered to save or forward
      image/png (inline)           the other pictures (charts), shown in the HTML
"""

from __future__ import annotations

import hashlib
from email import policy
from email.message import EmailMessage, MIMEPart
from email.policy import EmailPolicy
from email.utils import make_msgid

from reports.model import Rendered

#: The picture offered as an attachment (to save or forward); the others are inline.
ATTACHED = "map.png"


def content_id(name: str, message_id: str) -> str:
    """A stable Content-ID (without <>) for picture ``name`` of message ``message_id``."""
    digest = hashlib.sha256(f"{message_id}/{name}".encode("utf-8")).hexdigest()[:16]
    return f"{name.replace('.', '-')}.{digest}@pbem.invalid"


def to_message(r: Rendered, *, to: str, sender: str, subject: str, message_id: str,
               in_reply_to: str | None, references: list[str], language: str | None = None,
               mail_policy: EmailPolicy = policy.default) -> EmailMessage:
    """The report as a MIME message: text and HTML alternatives, the pictures (each once)
    referred to by ``cid:`` in the HTML, the map marked as an attachment.

    ``message_id`` and the ids in ``in_reply_to``/``references`` are given with or
    without angle brackets. No Date header is set (the sender adds it when sending) and
    the MIME boundaries derive from ``message_id``, so the message is a pure function
    of its arguments. ``language`` (the report's, e.g. ``hu``) is said in ``Content-Language``
    (RFC 3282), so a mail client can offer to translate or pick a spell checker.
    ``mail_policy``: the message's policy, ``policy.default`` or one giving the same bytes (a
    sender that builds many mails may pass one that keeps parsed headers, which a season's
    mails share).
    """
    msg = EmailMessage(policy=mail_policy)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = _angle(message_id)
    if in_reply_to:
        msg["In-Reply-To"] = _angle(in_reply_to)
    if references:
        msg["References"] = " ".join(_angle(ref) for ref in references)
    msg["Auto-Submitted"] = "auto-generated"
    if language:
        msg["Content-Language"] = language
    msg["MIME-Version"] = "1.0"
    cids = {name: content_id(name, message_id) for name in sorted(r.images)}
    # the boundaries are given as the parts are made (no header parsed again afterwards)
    msg.add_header("Content-Type", "multipart/related", type="multipart/alternative",
                   boundary=_boundary(message_id, 0))
    body = MIMEPart(policy=mail_policy)
    body.set_content(r.text, subtype="plain", charset="utf-8", cte=_cte(r.text))
    body.make_alternative(boundary=_boundary(message_id, 1))
    html = _html_with_cids(r.html, cids)
    html_part = MIMEPart(policy=mail_policy)
    html_part.set_content(html, subtype="html", charset="utf-8", cte=_cte(html))
    body.attach(html_part)
    msg.attach(body)
    for name, cid in cids.items():
        picture = MIMEPart(policy=mail_policy)
        picture.set_content(r.images[name], maintype="image", subtype=_subtype(name), cid=f"<{cid}>",
                            filename=name, disposition="attachment" if name == ATTACHED else "inline")
        msg.attach(picture)
    return msg


#: The longest line SMTP carries (RFC 5321 4.5.3.1.6: 1000 octets with CRLF).
MAX_LINE = 998


def _cte(text: str) -> str | None:
    """``8bit`` (the text as it is: no quoted-printable growth) when every line fits SMTP's
    line limit, else None (the stdlib chooses quoted-printable or base64)."""
    return "8bit" if max((len(line.encode("utf-8")) for line in text.splitlines()), default=0) <= MAX_LINE else None


def _boundary(message_id: str, i: int) -> str:
    """The MIME boundary of the ``i``-th multipart (in walk order), derived from the Message-ID."""
    digest = hashlib.sha256(f"{message_id}/boundary/{i}".encode("utf-8")).hexdigest()[:24]
    return f"==pbem-{i}-{digest}=="


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
