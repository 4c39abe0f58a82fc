"""The Havoc order language: order lines in, order dicts out, and back.

One order per line (``#`` starts a comment); keywords are case-insensitive. Cards are
written ``blue7``, ``blue07``, ``blue-7`` or ``blue 7`` (also the Hungarian colours
``kék``, ``barna``, ``zöld``, ``szürke``, ``narancs``, ``sárga`` and the German ``blau``, ``braun``,
``grün``, ``grau``, ``orange``, ``gelb``), ``dog`` (``eb``, ``hund``) for any Dog of War
of the hand, ``dog03`` for a given one, or a bare value (``5``: any card of value 5). The
canonical forms are ``blue07``, ``dog``, ``5``. The player's guide is docs/orders-havoc.md.

:func:`parse` checks syntax and names; the rules are ``engine.validate``'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from adjudicator.base import Order, State
from adjudicator.havoc.cards import SUITS, card_name, dog_name
from adjudicator.havoc.tables import load_battles
from turns.base import LineProblem, NameIndex, ParseResult, register_grammar, strip_comment

COLOURS = {**{s: s for s in SUITS}, "gray": "grey", "kek": "blue", "barna": "brown", "zold": "green",
           "szurke": "grey", "narancs": "orange", "sarga": "yellow", "kék": "blue", "zöld": "green",
           "szürke": "grey", "sárga": "yellow",
           # German (docs/de/orders-havoc.md)
           "blau": "blue", "braun": "brown", "grün": "green", "gruen": "green", "grau": "grey", "gelb": "yellow"}
DOG_WORDS = {"dog", "dogs", "eb", "dogofwar", "hund"}
SOURCES = {"deck": "deck", "draw": "deck", "pile": "deck", "pakli": "deck"}
WHENS = ("recruit", "join", "round", "dogsout", "dogs", "discard", "exchange", "final", "choose")
#: Written keyword -> canonical keyword.
KEYWORDS = {
    "RECRUIT": "RECRUIT", "DRAW": "RECRUIT", "TAKE": "RECRUIT", "SIC": "SIC", "SICEM": "SIC", "KAPDEL": "SIC",
    "LOOT": "LOOT", "LOOTING": "LOOT", "LAY": "LAY", "PUT": "LAY", "HAVOC": "HAVOC", "CRYHAVOC": "HAVOC",
    "JOIN": "JOIN", "STAY": "STAY", "STAYOUT": "STAY", "OUT": "STAY", "ADD": "ADD", "PASS": "PASS",
    "SCAVENGE": "SCAVENGE", "SCAVENGING": "SCAVENGE", "KEEP": "KEEP", "DISCARD": "DISCARD",
    "NEXT": "NEXT", "EXCHANGE": "EXCHANGE", "FINAL": "FINAL", "STANDING": "STANDING",
    "DOGS": "DOGSOUT", "DOGSOUT": "DOGSOUT",
}
_SYNTAX = {
    "RECRUIT": "RECRUIT DECK | RECRUIT <recruit card>", "SIC": "SIC DECK | SIC <recruit card>",
    "LAY": "LAY <card> | LAY LOWEST", "HAVOC": "HAVOC <card> <card> ...", "JOIN": "JOIN <card> <card> ...",
    "ADD": "ADD <card> ...", "SCAVENGE": "SCAVENGE <card>", "DISCARD": "DISCARD <card> | DISCARD LOWEST",
    "NEXT": "NEXT <battle>", "DOGSOUT": "DOGS OUT 0|1|2|BEST", "EXCHANGE": "EXCHANGE <0-2>", "FINAL": "FINAL <card> ... (at most 6)",
    "STANDING": "STANDING <when>: <orders; ...> | STANDING <when>: IF LAID <= n THEN ... ELSE ... | STANDING CLEAR",
}


class Bad(Exception):
    """A problem in one line: message, suggestions and stage."""

    def __init__(self, message: str, suggestions: Sequence[str] = (), stage: str = "syntax") -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)
        self.stage = stage


def _fold(word: str) -> str:
    return re.sub(r"[^0-9a-záéíóöőúüű]", "", word.casefold())


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def read_card(token: str) -> str:
    """The canonical reference of one written card (a name, ``dog`` or a value)."""
    word = _fold(token)
    m = re.fullmatch(r"([a-záéíóöőúüű]*)(\d*)", word)
    letters, digits = (m.group(1), m.group(2)) if m else (word, "")
    if not letters and digits:
        return str(int(digits))
    if letters in DOG_WORDS:
        return dog_name(int(digits)) if digits and 1 <= int(digits) <= 12 else "dog" if not digits else _bad_card(token)
    if letters in COLOURS and digits and 1 <= int(digits) <= 18:
        return card_name(COLOURS[letters], int(digits))
    return _bad_card(token)


def _bad_card(token: str) -> str:
    near = [c for c in COLOURS if token.casefold().startswith(c[:2])][:3]
    raise Bad(f"unknown card {token!r} (write e.g. blue7, dog or 5)", near, "name")


def read_cards(words: list[str]) -> list[str]:
    """Card references; a colour word followed by a number is one card (``blue 7``)."""
    out, i = [], 0
    while i < len(words):
        word = words[i]
        if _fold(word) in COLOURS and i + 1 < len(words) and words[i + 1].isdecimal():
            word, i = word + words[i + 1], i + 1
        out.append(read_card(word))
        i += 1
    return out


def _battle_index(state: State | None) -> NameIndex:
    table = state["table_data"] if state else load_battles()[0]
    rows = [*table["battles"], *table["chevauchees"]]
    return NameIndex({b["id"]: [b["name"], str(b.get("number") or "")] for b in rows})


def parse_line(text: str, state: State | None) -> list[Order]:
    """The orders of one line (a few keywords accept several on one line)."""
    words = _tokens(text)
    if not words:
        raise Bad("an empty order")
    head = re.sub(r"[^A-Z]", "", words[0].upper())
    if head == "STAY" and len(words) > 1 and _fold(words[1]) == "out":
        words = words[1:]
    key = KEYWORDS.get(head)
    if key is None:
        raise Bad(f"unknown order {words[0]!r}", tuple(k for k in _SYNTAX if k.startswith(head[:2]))[:3])
    rest = words[1:]
    if key == "STANDING":
        return [_standing(text.split(None, 1)[1] if len(words) > 1 else "", state)]
    return _simple(key, rest, state)


def _simple(key: str, rest: list[str], state: State | None) -> list[Order]:
    if key == "DOGSOUT":
        words = [w for w in rest if _fold(w) != "out"]
        if len(words) != 1 or not (_fold(words[0]) in ("best", "none") or words[0] in ("0", "1", "2")):
            raise Bad(_SYNTAX[key] + " (how many of your laid Dogs of War stay out of the battle)")
        word = _fold(words[0])
        return [{"kind": "dogsout", "count": "best" if word == "best" else 0 if word == "none" else int(word)}]
    if key in ("STAY", "PASS", "KEEP"):
        if rest:
            raise Bad(f"{key} takes nothing after it")
        return [{"kind": key.lower()}]
    if key in ("RECRUIT", "SIC"):
        if not rest:
            raise Bad(_SYNTAX[key])
        return [{"kind": key.lower(), "card": SOURCES.get(_fold(w)) or _one(read_cards([w]))} for w in _group(rest)]
    if key == "LOOT":
        if len(rest) == 1 and _fold(rest[0]) in ("look", "ask", "choose"):
            return [{"kind": "loot", "prefs": [], "look": True}]
        return [{"kind": "loot", "prefs": read_cards(rest)}]
    if key in ("LAY", "DISCARD"):
        if len(rest) == 1 and _fold(rest[0]) == "lowest":
            return [{"kind": key.lower(), "card": "lowest"}]
        cards = read_cards(rest)
        if len(cards) != 1 or cards[0] == "dog" or cards[0].isdecimal():
            raise Bad(f"{_SYNTAX[key]} (one card by its name, e.g. blue07, or a Dog as dog03)")
        return [{"kind": key.lower(), "card": cards[0]}]
    if key in ("HAVOC", "JOIN", "ADD", "FINAL"):
        cards = read_cards(rest)
        if not cards:
            raise Bad(_SYNTAX[key])
        return [{"kind": key.lower(), "cards": cards}]
    if key == "SCAVENGE":
        cards = read_cards(rest)
        if not cards or any(c == "dog" or c.isdecimal() for c in cards):
            raise Bad(_SYNTAX[key] + " (cards by their names)")
        return [{"kind": "scavenge", "card": c} for c in cards]
    if key == "EXCHANGE":
        if len(rest) != 1 or not rest[0].isdecimal() or int(rest[0]) > 2:
            raise Bad(_SYNTAX[key])
        return [{"kind": "exchange", "count": int(rest[0])}]
    name, near = _battle_index(state).resolve(" ".join(rest))
    if name is None:
        raise Bad(f"unknown battle {' '.join(rest)!r}", near, "name")
    return [{"kind": "next", "battle": name}]


def _group(words: list[str]) -> list[str]:
    """Join ``blue 7`` into one word."""
    out: list[str] = []
    for w in words:
        if w.isdecimal() and out and _fold(out[-1]) in COLOURS:
            out[-1] += w
        else:
            out.append(w)
    return out


def _one(cards: list[str]) -> str:
    if cards[0] == "dog" or cards[0].isdecimal():
        raise Bad("name the recruit card (e.g. blue9) or DECK")
    return cards[0]


def _standing(text: str, state: State | None) -> Order:
    """``<when>: <orders>`` or ``<when>: IF <cond> THEN <orders> [ELSE <orders>]`` or ``CLEAR``."""
    if _fold(text) == "clear":
        return {"kind": "standing", "clear": True}
    when, sep, body = text.partition(":")
    when = _fold(when.replace("WHEN", "").replace("when", ""))
    if not sep or when not in WHENS:
        raise Bad(_SYNTAX["STANDING"] + f" (<when> is one of {', '.join(WHENS)})")
    order: Order = {"kind": "standing", "when": when}
    m = re.fullmatch(r"\s*(?:IF\s+)?(LAID|HAND)\s*(<=|>=)\s*(\d+)\s+THEN\s+(.*?)(?:\s+ELSE\s+(.*))?\s*", body, re.I | re.S)
    if m:
        kind, op, n = m.group(1).upper(), m.group(2), int(m.group(3))
        if (kind, op) not in (("LAID", "<="), ("HAND", ">=")):
            raise Bad("conditions: LAID <= n or HAND >= n")
        order["if"] = {"laid_max" if kind == "LAID" else "hand_min": n}
        order["then"] = _inner(m.group(4), state)
        if m.group(5) is not None:
            order["else"] = _inner(m.group(5), state)
    else:
        order["then"] = _inner(body, state)
    return order


def _inner(text: str, state: State | None) -> list[Order]:
    out: list[Order] = []
    for part in [p for p in text.split(";") if p.strip()]:
        if _fold(part.split()[0]) == "standing":
            raise Bad("STANDING cannot hold another STANDING")
        out += parse_line(part, state)
    if not out:
        raise Bad("STANDING needs orders after ':'")
    return out


def parse(text: str, state: State | None = None) -> ParseResult:
    """Parse an order block; every problem of every line is collected."""
    result = ParseResult()
    for n, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw)
        if not line:
            continue
        try:
            for order in parse_line(line, state):
                result.add(order, n)
        except Bad as bad:
            result.problems.append(LineProblem(n, str(bad), bad.suggestions, bad.stage, raw))
    return result


def format_order(order: Order) -> str:
    """The canonical line of one order."""
    kind = order["kind"]
    if kind in ("stay", "pass", "keep"):
        return kind.upper()
    if kind in ("recruit", "sic", "lay", "discard", "scavenge"):
        return f"{kind.upper()} {str(order['card']).upper() if order['card'] in ('deck', 'lowest') else order['card']}"
    if kind == "loot":
        return "LOOT LOOK" if order.get("look") else " ".join(["LOOT", *order.get("prefs", [])])
    if kind in ("havoc", "join", "add", "final"):
        return " ".join([kind.upper(), *order["cards"]])
    if kind == "exchange":
        return f"EXCHANGE {order['count']}"
    if kind == "dogsout":
        return f"DOGS OUT {str(order['count']).upper()}"
    if kind == "next":
        return f"NEXT {order['battle']}"
    if kind == "standing":
        return _format_standing(order)
    raise ValueError(f"unknown order kind {kind!r}")


def _format_standing(order: Order) -> str:
    if order.get("clear"):
        return "STANDING CLEAR"
    then = "; ".join(format_order(o) for o in order["then"])
    if "if" not in order:
        return f"STANDING {order['when'].upper()}: {then}"
    key, n = next(iter(order["if"].items()))
    cond = f"LAID <= {n}" if key == "laid_max" else f"HAND >= {n}"
    text = f"STANDING {order['when'].upper()}: IF {cond} THEN {then}"
    if "else" in order:
        text += " ELSE " + "; ".join(format_order(o) for o in order["else"])
    return text


def format_orders(orders: Sequence[Order]) -> str:
    """The canonical text of an order list, one order per line."""
    return "".join(format_order(o) + "\n" for o in orders)


register_grammar("havoc", parse, format_orders)
