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
    if texts is not None and type(state) is dict:
        keys = _sorted_keys(state, texts)
        if keys is not None:
            return _canonical_parts(state, known, texts, keys)
    if known is None or not isinstance(state, dict) or known[0] not in state:
        return canonical_json(state)
    key, text = known
    whole = canonical_json({**state, key: _HOLE})
    if whole.count(_HOLE_TEXT) != 1:
        return canonical_json(state)
    return whole.replace(_HOLE_TEXT, text)


def _canonical_parts(state: dict[str, Any], known: tuple[str, str] | None, texts: dict[Any, Any],
                     keys: list[str], depth: int = 0) -> str:
    """``canonical_json(state)`` of a dict whose keys are all strings (``keys``, sorted), built
    from its parts: the canonical text of such a dict is ``{``, its ``"key":value`` pairs sorted
    by key and joined by ``,``, then ``}``, each value encoded on its own. Most of a sequential
    game's state does not change in one decision, so ``texts`` holds the pairs' texts last
    encoded and a tag of each value (:func:`_tag`: its marshal bytes); a value with the same tag
    has the same text and is not encoded again.

    A long dict of the state (1,000 characters: a board of provinces) that changed is built
    from its values, kept value by value (in a dict of its own, under the key ``(key,)``: no
    string key); while it goes on changing from one state to the next, it is built so without
    a tag of the whole, which would serialise it twice. The tags of the other values are made
    in one pass and compared with the last ones in place (the keys in the same order); a value
    marshal cannot write exactly (e.g. an enum) sends the whole dict through
    :func:`_canonical_tagged`, which tags value by value."""
    held = texts.get(_TAGS)
    if held is None or held[0] is not keys:
        held = (keys, [None] * len(keys), [""] * len(keys), [False] * len(keys), [canonical_json(k) + ":" for k in keys])
        texts[_TAGS] = held
    _, old, parts, split, names = held
    values = [state[k] for k in keys]
    try:
        tags = list(map(marshal.dumps, [None if split[i] else v for i, v in enumerate(values)]
                                        if True in split else values))
    except ValueError:  # a value marshal cannot write: tag (or not) each value on its own
        return _canonical_tagged(state, known, texts, depth)
    for i, tag in enumerate(tags):
        if known is not None and keys[i] == known[0]:
            parts[i], old[i] = names[i] + known[1], None
        elif split[i]:  # changed at the last state: built from its values' tags, without a tag of the whole
            text = _split_text(keys[i], values[i], texts, names[i])
            if text is None or text == parts[i]:  # unchanged now (or no longer a dict): tagged again
                split[i] = False
            parts[i], old[i] = text or names[i] + canonical_json(values[i]), None
        elif old[i] != tag:
            value = values[i]
            # a long changed dict (a board of provinces...) mostly changes in one of its values
            text = _split_text(keys[i], value, texts, names[i]) \
                if depth == 0 and type(value) is dict and len(parts[i]) >= _LONG else None
            if text is None:
                text = names[i] + canonical_json(value)
            elif text != parts[i]:
                split[i] = True  # it may well change at the next state too
            parts[i], old[i] = text, tag
    return "{" + ",".join(parts) + "}"


def _split_text(key: str, value: Any, texts: dict[Any, Any], name: str) -> str | None:
    """The ``"key":value`` text (``name`` is ``"key":``) of a long dict built from its values
    (:func:`_canonical_parts` one level down, its texts kept under ``(key,)``), or None when
    ``value`` is not a dict of string keys."""
    if type(value) is dict:
        sub = texts.setdefault((key,), {})
        keys = _sorted_keys(value, sub)
        if keys is not None:
            return name + _canonical_parts(value, None, sub, keys, 1)
    return None


#: The length of a changed dict's last text from which :func:`_canonical_parts` keeps the texts
#: of its values one by one (a shorter dict is encoded whole: cheaper than telling its changed
#: values from the others; and only the state's own values: splitting the values of such a
#: dict again costs more bookkeeping than the encoding it spares).
_LONG = 1000
#: Where :func:`_canonical_parts` keeps a dict's keys in sorted order and its values' tags and
#: texts (tuple keys: a state's keys are strings).
_KEYS, _TAGS = ("keys",), ("tags",)


def _sorted_keys(state: dict[Any, Any], texts: dict[Any, Any]) -> list[str] | None:
    """``sorted(state)``, the same list object while the dict's keys stay the same, in the
    same order (so the kept tags line up with them); None when a key is not a string."""
    order = tuple(state)
    held = texts.get(_KEYS)
    if held is not None and held[0] == order:
        return held[1]
    keys = sorted(order) if all(type(k) is str for k in order) else None
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
        sub = texts.setdefault((key,), {}) if tag is not None and depth == 0 and type(value) is dict else None
        keys = _sorted_keys(value, sub) if sub is not None else None
        if keys is not None:
            text = canonical_json(key) + ":" + _canonical_parts(value, None, sub, keys, 1)
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
