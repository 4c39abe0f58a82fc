"""Game seeds: generated with :mod:`secrets`, or given by the GM and checked for strength.

All chance of a game comes from its seed (adjudicator/chance.py) and players get
``sha256(seed)`` at the start. A short seed (``--seed 1``) lets anyone reverse that
commitment by trying candidates and then predict every draw, so a GM-given seed must carry
at least :data:`MIN_BITS` bits of entropy unless the GM says it is for a demo or a test
(``pbem new --weak-seed``).
"""

from __future__ import annotations

import math
import secrets
import string

from pbem.errors import DomainError

#: The least entropy a GM-given seed must have.
MIN_BITS = 128


def new_seed() -> str:
    """A fresh seed: 256 random bits from :mod:`secrets`, as 64 hex digits."""
    return secrets.token_hex(32)


def seed_bits(seed: str) -> float:
    """An upper estimate of the entropy of ``seed`` in bits, as if each character were drawn
    at random from the character classes it uses (digits, lower, upper, other printable,
    anything else); a seed of few distinct characters counts only those."""
    pool = 0
    for chars, size in ((string.digits, 10), (string.ascii_lowercase, 26), (string.ascii_uppercase, 26),
                        (string.punctuation + " ", 33)):
        if any(c in chars for c in seed):
            pool += size
    if any(not c.isascii() or not c.isprintable() for c in seed):
        pool += 128
    if pool < 2:
        return 0.0
    distinct = len(set(seed))
    if distinct < 2:
        return 0.0
    return len(seed) * math.log2(min(pool, distinct * 2))


def check_seed(seed: str | None, weak_ok: bool = False) -> str:
    """``seed`` (a fresh one when ``None``); a GM-given seed under :data:`MIN_BITS` bits is
    refused unless ``weak_ok``."""
    if seed is None:
        return new_seed()
    if not seed:
        raise DomainError("the seed is empty; leave --seed out to get 256 random bits")
    if not weak_ok and seed_bits(seed) < MIN_BITS:
        raise DomainError(f"the seed {'*' * min(len(seed), 8)} is too weak (about {seed_bits(seed):.0f} bits, "
                          f"at least {MIN_BITS} needed: players could reverse its commitment and predict every "
                          "draw); leave --seed out for 256 random bits, give e.g. 32 random hex digits, or "
                          "add --weak-seed for a demo or a test")
    return seed
