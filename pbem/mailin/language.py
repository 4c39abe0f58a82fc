"""The language to answer a mail in when no seat is proven (an unauthenticated mail, a club
command from any address): what the mail says of itself, else a guess from its words.

In order: the ``Accept-Language`` header (RFC 3282/9110: the languages the sender reads, best
first by ``q``), the ``Content-Language`` header (what the mail is written in), then the
words of its subject and text: a few words common in Hungarian or German mail and orders
(``és``, ``kérem``, ``und``, ``bitte`` ...) counted, two or more and more than the other
language's needed. English when nothing tells. Nothing here depends on who the sender is, so
an answer's language says nothing about the address (it may be a seat's or nobody's).
"""

from __future__ import annotations

import re
from email.parser import BytesHeaderParser
from email.policy import compat32

from reports.i18n import DEFAULT, UnknownLanguage, check_language

#: Words frequent in a Hungarian or German mail to a game master and rare in the other
#: languages pbem reads (no order keywords: those are English in every language).
WORDS = {
    "hu": frozenset("és az hogy nem van vagy egy meg kérem köszönöm szia sziasztok üdv üdvözlettel játék "
                    "játékba jelszó jelszavam parancs parancsok szeretnék szeretném csatlakozni lenne "
                    "tartomány tartományok helló kösz".split()),
    "de": frozenset("und ich nicht ist bitte danke hallo spiel passwort befehle möchte mit grüße gruß viele "
                    "liebe mein meine dem den auch wie ein eine das die der zum beitreten".split()),
}
_WORD = re.compile(r"[^\W\d_]+")
#: The most of a mail read for its language headers.
HEAD_BYTES = 65536


def mail_language(raw: bytes, subject: str = "", text: str = "") -> str:
    """The language code to answer the mail ``raw`` in (its subject and readable text given
    as ingest read them)."""
    head = raw[:HEAD_BYTES]  # the header block (a mail refused for its size is not parsed whole)
    end = min((i for i in (head.find(b"\r\n\r\n"), head.find(b"\n\n")) if i >= 0), default=len(head))
    headers = BytesHeaderParser(policy=compat32).parsebytes(head[:end + 2], headersonly=True)
    for name in ("Accept-Language", "Content-Language"):
        found = header_language(str(headers.get(name, "") or ""))
        if found:
            return found
    return guessed_language(f"{subject}\n{text}")


def header_language(value: str) -> str | None:
    """The first language pbem writes in a header's list (``hu-HU,hu;q=0.9,en;q=0.8``; by
    ``q``, best first), or None."""
    ranked = []
    for n, item in enumerate(value.split(",")):
        code, _, params = item.strip().partition(";")
        q = 1.0
        m = re.search(r"q\s*=\s*([^\s;,]*)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
        if code and q > 0:
            ranked.append((-q, n, code.strip()))
    for _, _, code in sorted(ranked):
        try:
            return check_language(code)
        except UnknownLanguage:
            continue
    return None


def guessed_language(text: str, limit: int = 4000) -> str:
    """Hungarian or German when the words of ``text`` (its first ``limit`` characters, quoted
    lines left out) say so, else English."""
    own = "\n".join(line for line in text[:limit].splitlines() if not line.lstrip().startswith(">"))
    words = [w.lower() for w in _WORD.findall(own)]
    counts = {lang: sum(1 for w in words if w in vocabulary) for lang, vocabulary in WORDS.items()}
    best = max(counts, key=lambda lang: counts[lang])
    others = [n for lang, n in counts.items() if lang != best]
    return best if counts[best] >= 2 and all(counts[best] > n for n in others) else DEFAULT
