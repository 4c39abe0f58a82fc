"""The published hashes of a game's states: keyed with the game's seed in new games (an
HMAC-SHA256 nobody can compute before the seed is revealed at the end, so a published hash
lets no seat test guesses about hidden information, face-down cards for one), plain SHA-256
of the canonical state in older ones. Built from the texts of a state's parts, so a replay
that verifies every step encodes only what changed."""

from __future__ import annotations

import hashlib
import hmac
import marshal
from functools import lru_cache
from typing import Any

from adjudicator.base import State, canonical_json, state_hash
from pbem.store.mismatch import ReplayMismatch

#: The keyed digest scheme of new games (see the module docstring).
KEYED_DIGEST = "hmac-sha256/seed"


def text_digest(text: str, seed: str, scheme: str | None) -> str:
    """:func:`state_digest` of the state whose canonical JSON is ``text`` (a stored state)."""
    if scheme is None:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    if scheme != KEYED_DIGEST:
        raise ReplayMismatch(f"unknown state digest scheme {scheme!r}")
    return hmac.digest(_digest_key(seed), text.encode("utf-8"), "sha256").hex()


@lru_cache(maxsize=16)
def _digest_key(seed: str) -> bytes:
    """The HMAC key of a game's state digests, made from its seed (once per game: a replay
    hashes its state after every decision)."""
    return hashlib.sha256(("pbem state digest key\0" + seed).encode("utf-8")).digest()


def state_digest(state: State, seed: str, scheme: str | None, known: tuple[str, str] | None = None,
                 texts: dict[Any, Any] | None = None) -> str:
    """The published hash of ``state``: keyed with the seed under :data:`KEYED_DIGEST`,
    else (games created before it) the plain :func:`state_hash`. ``known`` = (a top-level
    key, the canonical JSON of its value already made) spares encoding that value again;
    ``texts`` (kept by the caller from one state of a game to the next, see
    :func:`_canonical_parts`) spares encoding the top-level values that did not change."""
    if scheme is None and known is None and texts is None:
        return state_hash(state)
    return text_digest(_canonical(state, known, texts), seed, scheme)


#: Stands for a value whose canonical text is already known (a control character, so no order
#: or name a player writes carries it; if the state holds it anyway, the state is encoded whole).
_HOLE = "\x00pbem: known value\x00"
_HOLE_TEXT = canonical_json(_HOLE)


def _canonical(state: State, known: tuple[str, str] | None,
               texts: dict[Any, Any] | None = None) -> str:
    """``canonical_json(state)``, splicing in the known text of one top-level value: the
    canonical text of a dict is its sorted ``key:value`` pairs, each value encoded on its own,
    so the result is the same bytes."""
    if texts is not None and type(state) is dict and all(type(k) is str for k in state):
        return _canonical_parts(state, known, texts)
    if known is None or not isinstance(state, dict) or known[0] not in state:
        return canonical_json(state)
    key, text = known
    whole = canonical_json({**state, key: _HOLE})
    if whole.count(_HOLE_TEXT) != 1:
        return canonical_json(state)
    return whole.replace(_HOLE_TEXT, text)


def _canonical_parts(state: dict[str, Any], known: tuple[str, str] | None, texts: dict[Any, Any],
                     depth: int = 0) -> str:
    """``canonical_json(state)`` of a dict whose keys are all strings, built from its parts:
    the canonical text of such a dict is ``{``, its ``"key":value`` pairs sorted by key and
    joined by ``,``, then ``}``, each value encoded on its own. Most of a sequential game's
    state does not change in one decision, so ``texts`` holds the pairs' texts last encoded
    and a tag of each value (:func:`_tag`: its marshal bytes); a value with the same tag has
    the same text and is not encoded again. A changed dict of the state is built the same way
    from its own values (held in a dict of their own, under the key ``(key,)``: no string key).

    The tags of all the values are made in one pass and compared with the last ones in
    place (the keys in the same order); a value marshal cannot write exactly (e.g. an enum)
    sends the whole dict through :func:`_canonical_tagged`, which tags value by value."""
    keys = _sorted_keys(state, texts)
    try:
        tags = list(map(marshal.dumps, [state[k] for k in keys]))
    except ValueError:  # a value marshal cannot write: tag (or not) each value on its own
        return _canonical_tagged(state, known, texts, depth)
    held = texts.get(_TAGS)
    if held is None or held[0] is not keys:
        held = (keys, [None] * len(keys), [""] * len(keys))
        texts[_TAGS] = held
    _, old, parts = held
    for i, tag in enumerate(tags):
        key = keys[i]
        if known is not None and key == known[0]:
            parts[i], old[i] = canonical_json(key) + ":" + known[1], None
        elif old[i] != tag:
            value = state[key]
            if depth == 0 and type(value) is dict and len(parts[i]) >= _LONG and all(type(k) is str for k in value):
                # a long changed dict (a board of provinces...) mostly changes in one of its values
                parts[i] = canonical_json(key) + ":" + _canonical_parts(value, None, texts.setdefault((key,), {}), 1)
            else:
                parts[i] = canonical_json(key) + ":" + canonical_json(value)
            old[i] = tag
    return "{" + ",".join(parts) + "}"


#: The length of a changed dict's last text from which :func:`_canonical_parts` keeps the texts
#: of its values one by one (a shorter dict is encoded whole: cheaper than telling its changed
#: values from the others).
_LONG = 1000
#: Where :func:`_canonical_parts` keeps a dict's keys in sorted order and its values' tags and
#: texts (tuple keys: a state's keys are strings).
_KEYS, _TAGS = ("keys",), ("tags",)


def _sorted_keys(state: dict[str, Any], texts: dict[Any, Any]) -> list[str]:
    """``sorted(state)``, the same list object while the dict's keys stay the same, in the
    same order (so the kept tags line up with them)."""
    order = tuple(state)
    held = texts.get(_KEYS)
    if held is not None and held[0] == order:
        return held[1]
    keys = sorted(state)
    texts[_KEYS] = (order, keys)
    return keys


def _canonical_tagged(state: dict[str, Any], known: tuple[str, str] | None, texts: dict[Any, Any],
                      depth: int = 0) -> str:
    """:func:`_canonical_parts` for a dict holding a value marshal cannot write: each value
    tagged on its own (one without a tag encoded each time)."""
    parts = []
    for key in sorted(state):
        if known is not None and key == known[0]:
            parts.append(canonical_json(key) + ":" + known[1])
            continue
        value = state[key]
        tag = _tag(value)
        held = texts.get(key)
        if held is not None and tag is not None and held[0] == tag:
            parts.append(held[1])
            continue
        if tag is not None and depth == 0 and type(value) is dict and all(type(k) is str for k in value):
            text = canonical_json(key) + ":" + _canonical_parts(value, None, texts.setdefault((key,), {}), 1)
        else:
            text = canonical_json(key) + ":" + canonical_json(value)
        if tag is not None:
            texts[key] = (tag, text)
        parts.append(text)
    return "{" + ",".join(parts) + "}"


#: the types whose values are equal only when their texts are (unlike floats: 0.0 == -0.0)
_EXACT = (str, int, bool, type(None))


def _tag(value: Any) -> Any:
    """What decides the canonical text of ``value``, cheaper to make than that text, or None
    (no tag: encode it each time). A string, integer, boolean or None is its own tag with its
    exact type (so 1 and True differ); a list, tuple or dict is its marshal bytes: marshal
    writes the exact type and contents of every part, so equal bytes are equal values of
    equal types, where ``==`` would take 1, 1.0 and True, or 0.0 and -0.0, for the same (and
    bytes that differ only cost an encoding)."""
    kind = type(value)
    if kind in _EXACT:
        return (kind, value)
    if kind is dict or kind is list or kind is tuple:
        try:
            return marshal.dumps(value)
        except ValueError:  # a part marshal cannot write exactly (e.g. an enum): encoded each time
            return None
    return None
