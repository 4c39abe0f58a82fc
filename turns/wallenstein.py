"""The Wallenstein order language: order lines in, order dicts out, and back.

The lines and their dicts are fixed in ``docs/CONTRACTS.md`` ("Wallenstein order
dicts"); the player's guide is ``docs/orders-wallenstein.md``. One order per line, ``#``
starts a comment, blank lines are ignored. Keywords are case-insensitive and forgiving
(``ATTACK A``, ``attack-a``, ``RECRUIT 5``, ``BID COUNTY Böhmen``, ``FAVOR``); county names
are matched in German, English or Hungarian (:mod:`turns.wallenstein_names`). What comes
out is always canonical, and ``parse(format_orders(x)).orders == x``.

:func:`parse` checks syntax and names only, and reports every problem of every line
(stage ``syntax`` or ``name``). The rules (ownership, adjacency, costs, card counts) are
``engine.validate``'s, run afterwards by :func:`turns.base.check_orders`.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.base import Order, State
from turns.base import ParseResult, check_whole_set, register_grammar, strip_comment
from turns.envelope import clean_line
from turns.wallenstein_fields import (Line, read_armies, read_counties, read_county, read_int,
                                      read_names, read_numbers, split_list, split_markers)
# the way back, and the missed-orders policy's words, are this module's too (the grammar's API)
from turns.wallenstein_format import MISSED_HELP, format_order, format_orders, missed_help  # noqa: F401

#: The ten action names, in the order of the player board (CONTRACTS.md).
ACTIONS = ("palace", "church", "trade", "grain", "tax", "recruit5", "recruit3", "recruit1", "attacka", "attackb")
#: The five bonus tiles.
BONUS_TILES = ("attack", "tax", "grain", "recruit", "defend")
#: Actions whose line is just ``<KEYWORD> <county>``.
SIMPLE_ACTIONS = ("palace", "church", "trade", "grain", "tax", "recruit5", "recruit3")
FAVOUR_CARDS = 21
TALER_CARDS = (0, 4)

#: Written keyword (upper case, without - _ . :, up to three words run together) -> canonical.
#: The short order reminder printed in welcome mails and reports (docs/orders-wallenstein.md has it all).
ORDER_HELP = """\
TAX Burgund | GRAIN Anhalt | PALACE / CHURCH / TRADE <county>
RECRUIT5 <county> [NO TILE] | RECRUIT3 <county> | RECRUIT1 <county> [MOVE ALL|n TO <county>]
ATTACKA <county> TO <county> WITH ALL|n [LEAVE n] [IF n] [ELSE TO <county> WITH ALL|n ...] | ATTACKB ...
FAMINE <county>, <county>, ... (the order your famine revolts are fought in)
BID 0-4 | BID COUNTY <county> | BID NONE (only when no card is left)
BONUS attack tax grain recruit defend (your preference order)
Every action slot needs one of your county cards while you have cards for it; unlisted slots are money cards.
"""

KEYWORDS = {
    **{a.upper(): a.upper() for a in ACTIONS},
    "TAXES": "TAX", "COLLECTTAX": "TAX", "COLLECTTAXES": "TAX",
    "HARVEST": "GRAIN", "COLLECTGRAIN": "GRAIN",
    "BUILDPALACE": "PALACE", "BUILDCHURCH": "CHURCH", "BUILDTRADE": "TRADE",
    "TRADING": "TRADE", "TRADINGHOUSE": "TRADE", "TRADEHOUSE": "TRADE", "TRADINGPOST": "TRADE",
    "BUILDTRADINGHOUSE": "TRADE", "BUILDTRADINGPOST": "TRADE",
    **{f"{w}{n}": f"RECRUIT{n}" for w in ("RECRUIT", "RECRUITS") for n in (5, 3, 1)},
    **{f"{w}{x}": f"ATTACK{x}" for w in ("ATTACK", "MANOEUVRE", "MANEUVER") for x in "AB"},
    "BID": "BID", "BONUS": "BONUS", "FAMINE": "FAMINE", "DRAFT": "DRAFT", "GROUPS": "GROUPS", "GROUP": "GROUPS",
    "REFRESH": "REFRESH",
    **{f"COURT{n}": f"COURT{n}" for n in (1, 2, 3)},
    "FAVOUR": "FAVOUR", "FAVOR": "FAVOUR",
}
BONUS_NAMES = {"attack": "attack", "attacks": "attack", "tax": "tax", "taxes": "tax",
               "grain": "grain", "recruit": "recruit", "recruits": "recruit",
               "defend": "defend", "defence": "defend", "defense": "defend",
               # the tiles in the players' other languages (docs/hu, docs/de: the Hungarian rulebook's
               # words, rule 4.1.2, with and without accents; the German report's words)
               **{w: "attack" for w in ("támadás", "tamadas", "angriff")},
               **{w: "tax" for w in ("adó", "ado", "adószedés", "adoszedes", "steuer", "steuern")},
               **{w: "grain" for w in ("gabona", "getreide")},
               **{w: "recruit" for w in ("toborzás", "toborzas", "rekrutieren")},
               **{w: "defend" for w in ("védekezés", "vedekezes", "verteidigung")}}
NONE_WORDS = {"NONE", "NOTHING", "-"}
TALER_WORDS = {"TALER", "THALER", "TALLER", "MONEY"}
TOWER_WORDS = {"TOWER", "CUBETOWER", "TOWERCARD", "CUBETOWERCARD"}
MONEY_WORDS = {"MONEY", "MONEYCARD", "NONE"}
AT_WORDS = {"AT", "IN", "ON"}
TILE_WORDS = {"TILE", "BONUS", "BONUSTILE"}
_SYNTAX = {
    "ATTACK": "ATTACKA <from> TO <to> WITH <ALL or n> [LEAVE n] [IF n] [ELSE TO <to> WITH <ALL or n> ...]",
    "RECRUIT1": "RECRUIT1 <county> [MOVE <ALL or n> TO <county>]",
    "BID": "BID <0-4> | BID COUNTY <county> | BID TOWER | BID NONE",
    "COURT": "COURT3 <county> | COURT3 TOWER | COURT3 MONEY",
    "FAVOUR": "FAVOUR <card numbers, best first> [AT <county>] | FAVOUR NONE",
}


def _key(word: str) -> str:
    return "".join(c for c in word.upper() if c not in "-_.:")


def split_keyword(words: list[str]) -> tuple[str | None, list[str]]:
    """The canonical keyword at the start of ``words`` (up to three words) and the rest."""
    keys = [_key(w) for w in words[:3]]
    for size in (3, 2, 1):
        if len(keys) >= size:
            keyword = KEYWORDS.get("".join(keys[:size]))
            if keyword is not None:
                return keyword, words[size:]
    return None, words


def parse(text: str, state: State | None = None) -> ParseResult:
    """Wallenstein orders from ``text``: one order per line, every problem by line number.

    ``state`` is accepted for the grammar contract; names are checked against the whole
    map (which counties are in play is a rule, for ``engine.validate``).

    >>> parse("ATTACK A Herzogtum Bayern to Electoral Saxony with all").orders
    [{'kind': 'action', 'action': 'attacka', 'county': 'Fm. Bayern', 'to': 'Kursachsen', 'armies': 'ALL'}]
    """
    result = ParseResult()
    for number, raw in enumerate(text.splitlines(), start=1):
        words = strip_comment(clean_line(raw)).split()
        if not words:
            continue
        line = Line(number, raw)
        order = parse_line(words, line)
        result.problems.extend(line.problems)
        if order is not None and not line.problems:
            result.add(order, number)
    return result


def _close_keywords(word: str) -> tuple[str, ...]:
    """Up to three keywords like ``word``: those it starts, then the most similar."""
    names = sorted(set(KEYWORDS.values()))
    key = _key(word)
    started = [k for k in names if key and k.startswith(key)]
    import difflib  # only for a word that is no keyword

    close = difflib.get_close_matches(key, names, n=3, cutoff=0.5)
    return tuple(dict.fromkeys([*started, *close]))[:3]


def parse_line(words: list[str], line: Line) -> Order | None:
    """One order from the words of a line (comment removed), or ``None`` with problems."""
    keyword, rest = split_keyword(words)
    if keyword is None:
        line.problem(f"unknown order {words[0]!r}: a line starts with an order keyword such as TAX, GRAIN, "
                     "PALACE, RECRUIT5, ATTACKA, BID or BONUS (mail HELP ORDERS for the whole syntax)",
                     _close_keywords(words[0]))
        return None
    if keyword.lower() in SIMPLE_ACTIONS:
        return _simple(keyword.lower(), rest, line)
    return _READERS[keyword.rstrip("123AB")](keyword, rest, line)


def _is_tower(words: list[str]) -> bool:
    """True when the words name a cube-tower card (``TOWER``, ``CUBE TOWER``...)."""
    return bool(words) and "".join(_key(w) for w in words) in TOWER_WORDS


def _simple(action: str, words: list[str], line: Line) -> Order | None:
    """``TAX <county>`` and the other actions that take a county only (or ``TAX TOWER``)."""
    if _is_tower(words):  # court expansion: a tower card on the action space, no action
        return {"kind": "action", "action": action, "card": "tower"}
    tile, words = _tile_words(words)
    if tile is not None and action != "recruit5":
        line.problem("NO TILE and WITH TILE belong to RECRUIT5 (the recruit tile places 6 instead of 5)")
        return None
    parts = split_markers(words, line)
    if parts is None:
        return None
    head, extra = parts
    if extra:
        line.problem(f"{action.upper()} takes a county only, without {' / '.join(extra)}")
    county = read_county(head, "the county", line)
    if county is None or extra:
        return None
    order: Order = {"kind": "action", "action": action, "county": county}
    return order if tile is None else {**order, "tile": tile}


def _tile_words(words: list[str]) -> tuple[bool | None, list[str]]:
    """``... NO TILE`` (False), ``... WITH TILE`` (True) at the end of a line, and the words before."""
    keys = [_key(w) for w in words[-2:]]
    if len(keys) == 2 and keys[1] in TILE_WORDS and keys[0] in ("NO", "WITHOUT", "WITH"):
        return keys[0] == "WITH", words[:-2]
    if keys and keys[-1] in ("NOTILE", "WITHOUTTILE"):
        return False, words[:-1]
    return None, words


def _move(keyword: str, words: list[str], line: Line) -> Order | None:
    """``RECRUIT1 <county> [MOVE <q> TO <county>]`` and ``ATTACKA/B <from> TO <to> WITH <q>``."""
    if _is_tower(words):  # court expansion: a tower card on the action space, no action
        return {"kind": "action", "action": keyword.lower(), "card": "tower"}
    action = keyword.lower()
    segments = _else_segments(words) if action != "recruit1" else [words]
    parts = split_markers(segments[0], line)
    if parts is None:
        return None
    head, extra = parts
    county = read_county(head, "the county" if action == "recruit1" else "the county attacking", line)
    if action == "recruit1" and not extra:
        return None if county is None else {"kind": "action", "action": action, "county": county}
    if action == "recruit1" and ({"LEAVE", "IF"} & set(extra)):
        line.problem("LEAVE and IF belong to ATTACKA and ATTACKB")
        return None
    first = _alternative(action, extra, line)
    alts = []
    for segment in segments[1:]:
        split = split_markers(segment, line)
        if split is None:
            return None
        if split[0]:
            line.problem(f"after ELSE write TO <county> WITH <ALL or n>, not {' '.join(split[0])!r}")
            return None
        alts.append(_alternative(action, split[1], line))
    if county is None or first is None or any(a is None for a in alts):
        return None
    order: Order = {"kind": "action", "action": action, "county": county, **first}
    if alts:
        order["else"] = alts
    return order


def _else_segments(words: list[str]) -> list[list[str]]:
    """The words of a manoeuvre split at each ELSE (OTHERWISE)."""
    segments: list[list[str]] = [[]]
    for word in words:
        if word.upper() in ("ELSE", "OTHERWISE"):
            segments.append([])
        else:
            segments[-1].append(word)
    return segments


def _alternative(action: str, parts: dict[str, list[str]], line: Line) -> Order | None:
    """``TO <county> WITH <q> [LEAVE n] [IF [AT LEAST] n]`` as ``{to, armies, leave?, at_least?}``."""
    target, armies = _target(action, parts, line)
    if target is None or armies is None:
        return None
    alt: Order = {"to": target, "armies": armies}
    for marker, key, low in (("LEAVE", "leave", 1), ("IF", "at_least", 2)):
        if marker not in parts:
            continue
        words = [w for w in parts[marker] if w.upper() not in ("AT", "LEAST", "ARMY", "ARMIES", "THERE", "ARE")]
        value = read_int(words[0]) if len(words) == 1 else None
        if value is None or value < low:
            line.problem(f"{marker} needs a whole number of at least {low}, as in {marker} {low + 1}")
            return None
        alt[key] = value
    return alt


def _target(action: str, parts: dict[str, list[str]], line: Line) -> tuple[str | None, int | str | None]:
    """The TO county and the army count (from MOVE or WITH) of a move or attack."""
    usage = _SYNTAX["RECRUIT1" if action == "recruit1" else "ATTACK"].replace("ATTACKA", action.upper())
    if "MOVE" in parts and "WITH" in parts:
        line.problem(f"give the number of armies once (MOVE or WITH), as in {usage}")
        return None, None
    role = "the county moved to" if action == "recruit1" else "the county attacked"
    target = read_county(parts["TO"], role, line) if "TO" in parts else None
    if "TO" not in parts:
        line.problem(f"where do the armies go? write {usage}")
    count = parts.get("MOVE", parts.get("WITH"))
    if count is None:
        line.problem(f"how many armies? write {usage}")
        return target, None
    return target, read_armies(count, line)


def _bid(_: str, words: list[str], line: Line) -> Order | None:
    """``BID <0-4>``, ``BID COUNTY <county>`` (or just ``BID <county>``), ``BID NONE``."""
    upper = [_key(w) for w in words]
    if not words:
        line.problem(f"what do you bid? write {_SYNTAX['BID']}")
        return None
    if upper[0] in NONE_WORDS and len(words) == 1:
        return {"kind": "bid", "card": "none"}
    if _is_tower(words):  # court expansion: a tower card on the bid space counts as 0
        return {"kind": "bid", "card": "tower"}
    numbers = [read_int(w) for w, u in zip(words, upper) if u not in TALER_WORDS]
    if len(numbers) == 1 and numbers[0] is not None:
        return _taler(numbers[0], line)
    if upper[0] == "COUNTY":
        words = words[1:]
    county = read_county(words, "the county bid", line)
    return None if county is None else {"kind": "bid", "card": "county", "county": county}


def _taler(value: int, line: Line) -> Order | None:
    low, high = TALER_CARDS
    if not low <= value <= high:
        line.problem(f"the money cards show {low} to {high} Taler, not {value}")
        return None
    return {"kind": "bid", "card": "taler", "value": value}


def _bonus(_: str, words: list[str], line: Line) -> Order | None:
    """``BONUS attack tax grain recruit defend``: the bonus tiles in order of preference."""
    if not split_list(words):
        line.problem(f"list the bonus tiles in order of preference: {' '.join(BONUS_TILES)}")
        return None
    tiles = read_names(words, BONUS_NAMES, "bonus tile", line)
    return None if tiles is None else {"kind": "bonus", "order": tiles}


def _famine(_: str, words: list[str], line: Line) -> Order | None:
    """``FAMINE <county>, <county>, ...``: the order your famine revolts are fought in (4.2.2)."""
    counties = read_counties(words, line)
    return None if counties is None else {"kind": "famine", "counties": counties}


def _draft(_: str, words: list[str], line: Line) -> Order | None:
    """``DRAFT Böhmen WITH 5, Mähren, Schlesien, DECK``: counties wanted in the draft, best first,
    the army group to put on a county if you get it (``WITH <group>``), and ``DECK`` last: the top
    card of the deck when none of them is face up."""
    counties: list[str] = []
    groups: dict[str, int] = {}
    segment: list[str] = []
    rest = list(words)
    deck = bool(rest) and _key(rest[-1].strip(",;")) == "DECK"
    if deck:  # ``..., DECK``: the top card of the deck when no wish is face up (rules 1.2)
        rest.pop()
        if rest:
            rest[-1] = rest[-1].rstrip(",;")
            if not rest[-1]:
                rest.pop()
    if any(_key(w.strip(",;")) == "DECK" for w in rest):
        line.problem("DECK ends a DRAFT line, as in DRAFT Böhmen, Mähren, DECK")
        return None
    while rest:
        word = rest.pop(0)
        if _key(word) != "WITH":
            segment.append(word)
            continue
        size = read_int(rest.pop(0).strip(",;")) if rest else None
        found = read_counties(segment, line) if segment else []
        if found is None:  # the county is not one we know: read_counties said so
            return None
        if size is None or size < 1 or not found:
            line.problem("WITH follows a county and gives the army group to put there, as in DRAFT Böhmen WITH 5")
            return None
        counties += found
        groups[found[-1]] = size
        segment = []
    if segment or not (counties or deck):
        found = read_counties(segment, line)
        if found is None:
            return None
        counties += found
    order: Order = {"kind": "draft", "counties": counties}
    if groups:
        order["groups"] = groups
    return {**order, "deck": True} if deck else order


def _refresh(_: str, words: list[str], line: Line) -> Order | None:
    """``REFRESH``: when the two face-up cards are still the two you chose from at your previous
    pick, put them under the deck and turn up two others (the note of rule 3.3)."""
    if words:
        line.problem("REFRESH takes nothing after it")
        return None
    return {"kind": "refresh"}


def _groups(_: str, words: list[str], line: Line) -> Order | None:
    """``GROUPS 5 4 4 3 3 2 2 2``: the army groups of the draft, in placing order."""
    if not split_list(words):
        line.problem("list the group sizes, e.g. GROUPS 5 4 4 3 3 2 2 2")
        return None
    sizes = read_numbers(words, 1, None, "group size", line)
    return None if sizes is None else {"kind": "groups", "sizes": sizes}


def _court(keyword: str, words: list[str], line: Line) -> Order | None:
    """``COURT3 <county>`` / ``COURT2 TOWER`` / ``COURT1 MONEY`` (expansion)."""
    slot = int(keyword[-1])
    joined = "".join(_key(w) for w in words)
    if joined in TOWER_WORDS:
        return {"kind": "court", "slot": slot, "card": "tower"}
    if joined in MONEY_WORDS:
        return {"kind": "court", "slot": slot, "card": "money"}
    if words and _key(words[0]) == "COUNTY":
        words = words[1:]
    if not words:
        line.problem(f"which card? write {_SYNTAX['COURT'].replace('COURT3', keyword)}")
        return None
    county = read_county(words, "the county", line)
    return None if county is None else {"kind": "court", "slot": slot, "card": "county", "county": county}


def _favour(_: str, words: list[str], line: Line) -> Order | None:
    """``FAVOUR 10 8 2 [AT <county>]`` (favour cards wanted, best first) or ``FAVOUR NONE`` (expansion)."""
    if len(words) == 1 and _key(words[0]) in NONE_WORDS:
        return {"kind": "favour", "prefs": []}
    at = next((i for i, w in enumerate(words) if _key(w) in AT_WORDS), None)
    if at is not None:
        order = _favour(_, words[:at], line)
        tail = words[at + 1:]
        several = any(c in w for w in tail for c in ",;")
        counties = read_counties(tail, line) if several else None
        county = None if several else read_county(tail, "the county for the favour card", line)
        if order is None or (county is None and not counties):
            return None
        if not order["prefs"]:
            line.problem("FAVOUR NONE takes no county")
            return None
        if counties and len(counties) > 1:
            return {**order, "counties": counties}
        return {**order, "county": county or counties[0]}  # type: ignore[index]
    if not split_list(words):
        line.problem(f"which favour cards? write {_SYNTAX['FAVOUR']}")
        return None
    prefs = read_numbers(words, 1, FAVOUR_CARDS, "favour card number", line)
    numbers = [read_int(w) for w in split_list(words)]
    twice = sorted({n for n in numbers if n is not None and numbers.count(n) > 1})
    if twice:
        line.problem(f"favour card {', '.join(map(str, twice))} is listed twice")
    return None if prefs is None or twice else {"kind": "favour", "prefs": prefs}


_READERS: dict[str, Callable[[str, list[str], Line], Order | None]] = {
    "RECRUIT": _move, "ATTACK": _move, "BID": _bid, "BONUS": _bonus, "FAMINE": _famine, "DRAFT": _draft,
    "GROUPS": _groups, "REFRESH": _refresh, "COURT": _court, "FAVOUR": _favour,
}


register_grammar("wallenstein", parse, format_orders)
check_whole_set("wallenstein")  # a season plan: its card counts are checked with the lines
