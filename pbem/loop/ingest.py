"""Processing one inbound mail: keep, dedupe, read the envelope, authenticate, validate,
record, reply.

For every mail, in ONE transaction (a savepoint of the transaction of its batch, see
:meth:`Ingestor.ingest_all`): the raw bytes are kept (keyed by Message-ID + body
hash, so the same mail twice is a no-op), each ``GAME`` block is authenticated and its
orders checked against the game's current state, accepted blocks are recorded as
``OrdersSubmitted`` events, and the one reply is put in the outbox. Mail that must not be
answered (auto-replies, bulk mail, our own mail, bounces) is kept and marked ``ignored``.

A source item without mail headers is an order text typed by the GM: trusted, the
password may be omitted, and the reply is returned to be printed instead of mailed.
"""

from __future__ import annotations

from pbem.loop.authenticating import Authenticating
from pbem.loop.inbound import (BATCH, MAX_BLOCKS, NO_BLOCK_REPLIES, OUTCOMES, REFUSED_REPLIES,  # noqa: F401 - named here
                               UNAUTHENTICATED_REPLIES, Outcome, _with_line_refs, digest_word)
from pbem.loop.intake import Intake
from pbem.loop.recording import Recording
from pbem.loop.replying import Replying


class Ingestor(Intake, Authenticating, Recording, Replying):
    """Ingests mails into the games of one :class:`pbem.loop.service.Service`: reading the mail
    (:class:`~pbem.loop.intake.Intake`), authenticating each block
    (:class:`~pbem.loop.authenticating.Authenticating`), recording what it carries
    (:class:`~pbem.loop.recording.Recording`) and replying
    (:class:`~pbem.loop.replying.Replying`)."""
