"""The God's Playground order language: order lines in, order dicts out, and back.

One order per line (``#`` starts a comment); keywords are case-insensitive; province and
enemy names in English, Polish or Hungarian, with or without diacritics. A line answers
one decision of the round; ``OR`` (or ``ELSE``) separates fallbacks, tried in order::

    NOBLES Royal Prussia 3, Lithuania 2, Ukraine 0, Little Poland 1, Greater Poland 4, King 5
    BUY Ukraine OR Lithuania OR PASS
    ACTION STEWARD Lithuania OR DANZIG
    RECRUIT Ukraine 2 INF 1 CAV 2 COSSACK OR PASS
    CAMPAIGN Tatars ROYAL OR CAMPAIGN Tatars OR PASS

The player's guide is docs/orders-gods-playground.md. :func:`parse` checks syntax and
names; the rules are ``engine.validate``'s when a line comes to be used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from adjudicator.base import Order, State
from adjudicator.gods_playground.board import ENEMIES, PROVINCES, default_board
from turns.base import LineProblem, NameIndex, ParseResult, normalise, register_grammar, strip_comment

ORDER_HELP = """God's Playground orders (one line per decision; OR separates fallbacks):
  ESTATE <province> [OR <province>]           starting estates (setup)
  NOBLES <province> <n>, ... , King <n>       six nobles: one per province and the king
  CUBES <province> <n>, ... | CUBES FIRST <province>, ...   short of cubes: where they go
  BID <n>                                     a tied election of the king
  BUY <province> OR ... OR PASS               buying estates (one line per purchase)
  ACTION STEWARD <p> [ON <value>] | DANZIG | DIPLOMACY <enemy> | MOVE <p> TO <p> [AND <p> TO <p>]
         | VETO <p> | ARMS <p> [<seat>] | JESUITS <p>, <p> ... | JESUITS ALL | TOWN <p> [ON <value>] | PASS
  RECRUIT <province> <n> INF <n> CAV <n> CANNON <n> COSSACK  OR PASS
  CAMPAIGN <enemy> [ROYAL] OR PASS
  COUNTER <province | Habsburgs> OR PASS
The whole syntax: mail HELP ORDERS."""

KEYWORDS = {
    "ESTATE": "estate", "START": "estate", "NOBLES": "nobles", "NOBLE": "nobles", "CUBES": "cubes",
    "BID": "bid", "BUY": "buy", "ACTION": "action", "RECRUIT": "recruit", "CAMPAIGN": "campaign",
    "ATTACK": "campaign", "COUNTER": "counter", "COUNTERATTACK": "counter",
}
CANONICAL = {"estate": "ESTATE", "nobles": "NOBLES", "cubes": "CUBES", "bid": "BID", "buy": "BUY",
             "action": "ACTION", "recruit": "RECRUIT", "campaign": "CAMPAIGN", "counter": "COUNTER"}
KING_WORDS = {"king", "royal", "royalarmy", "krol", "kiraly", "kiralyisereg", "krolewska"}
UNIT_WORDS = {
    "inf": ("inf", "infantry", "gyalogos", "gyalogsag", "piechota", "foot", "infanterie", "fussvolk"),
    "cav": ("cav", "cavalry", "lovas", "lovassag", "jazda", "horse", "kavallerie", "reiter", "reiterei"),
    "can": ("cannon", "can", "artillery", "agyu", "tuzerseg", "dzialo", "armata", "kanone", "geschutz", "artillerie"),
    "cossack": ("cossack", "cossacks", "kozak", "kozakok", "kozacy", "kosak", "kosaken"),
}
ACTION_WORDS = {"steward": "steward", "intezo": "steward", "danzig": "danzig", "gdansk": "danzig",
                "diplomacy": "diplomacy", "treaty": "diplomacy", "diplomacia": "diplomacy", "move": "move",
                "veto": "veto", "liberumveto": "veto", "arms": "arms", "rightofarms": "arms",
                "jesuits": "jesuits", "jesuit": "jesuits", "schools": "jesuits", "town": "town", "city": "town"}
SPLIT_ALTS = re.compile(r"\s+(?:OR|ELSE|VAGY|LUB)\s+", re.IGNORECASE)


class Bad(Exception):
    """A problem in one line."""

    def __init__(self, message: str, suggestions: Sequence[str] = (), stage: str = "syntax") -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)
        self.stage = stage


#: German names the board data does not list (docs/de: the players' German reference; the
#: grammar's own, so the board's data file and its rules versions stay as they are).
GERMAN_PROVINCES = {"royal_prussia": ["Königlich Preußen", "Preußen Königlichen Anteils"], "lithuania": ["Litauen"],
                    "ukraine": ["Ukraine"], "little_poland": ["Kleinpolen"], "greater_poland": ["Großpolen"]}
GERMAN_ENEMIES = {"black": ["Deutscher Orden", "Schweden", "Preußen"], "russians": ["Russen"],
                  "tatars": ["Tataren"], "turks": ["Türken", "Osmanen"], "habsburgs": ["Habsburger"]}


def _indexes() -> tuple[NameIndex, NameIndex]:
    b = default_board()
    provs = {p: [b["provinces"][p]["name"], *b["provinces"][p]["aliases"], *GERMAN_PROVINCES.get(p, []),
                 p.replace("_", " ")] for p in PROVINCES}
    enemies = {e: [b["enemies"][e]["name"], *b["enemies"][e]["aliases"], *GERMAN_ENEMIES.get(e, []), e]
               for e in ENEMIES}
    return NameIndex(provs), NameIndex(enemies)


PROVINCE_NAMES, ENEMY_NAMES = _indexes()


def _display(kind: str, key: str) -> str:
    b = default_board()
    return b["provinces"][key]["name"] if kind == "p" else b["enemies"][key]["name"] if key != "black" else "Black"


def province(text: str) -> str:
    """The canonical id of a written province name."""
    found, near = PROVINCE_NAMES.resolve(text)
    if found is None:
        raise Bad(f"unknown province {text.strip()!r}", [_display("p", n) for n in near], "name")
    return found


def enemy(text: str) -> str:
    """The canonical id of a written enemy name."""
    found, near = ENEMY_NAMES.resolve(text)
    if found is None:
        raise Bad(f"unknown enemy {text.strip()!r}", [_display("e", n) for n in near], "name")
    return found


def _is_pass(text: str) -> bool:
    return normalise(text) in ("pass", "passz", "pas", "nothing", "none")


def _pairs(body: str, allow_king: bool) -> dict[str, int]:
    """``<name> <n>, <name> <n>, ...`` -> {province (or "royal"): n}."""
    out: dict[str, int] = {}
    for item in [x for x in re.split(r"[,;]", body) if x.strip()]:
        m = re.fullmatch(r"\s*(.+?)\s*[:=]?\s*(\d+)\s*", item)
        if not m:
            raise Bad(f"write a name and a number, not {item.strip()!r}")
        name, n = m.group(1), int(m.group(2))
        key = "royal" if allow_king and normalise(name) in KING_WORDS else province(name)
        if key in out:
            raise Bad(f"{name} is named twice")
        out[key] = n
    return out


def _alts(body: str, one: Any, allow_pass: bool = True) -> list[dict[str, Any]]:
    alts = []
    for part in SPLIT_ALTS.split(body.strip()):
        part = re.sub(r"^\s*(BUY|ACTION|RECRUIT|CAMPAIGN|ATTACK|COUNTER|ESTATE)\s+", "", part, flags=re.IGNORECASE)
        if not part.strip():
            raise Bad("an empty alternative")
        if _is_pass(part):
            if not allow_pass:
                raise Bad("the starting estates cannot be passed")
            alts.append({"pass": True})
        else:
            alts.append(one(part))
    return alts


def _recruit(text: str) -> dict[str, Any]:
    m = re.search(r"\d", text)
    if not m:
        raise Bad("RECRUIT <province> <n> INF <n> CAV <n> CANNON <n> COSSACK")
    alt: dict[str, Any] = {"province": province(text[:m.start()])}
    for n, word in re.findall(r"(\d+)\s*([^\d,\s]+)", text[m.start():]):
        kind = next((k for k, words in UNIT_WORDS.items() if normalise(word) in words), None)
        if kind is None:
            raise Bad(f"unknown unit {word!r} (INF, CAV, CANNON, COSSACK)", stage="name")
        alt[kind] = alt.get(kind, 0) + int(n)
    return alt


def _campaign(text: str) -> dict[str, Any]:
    words = text.split()
    royal = bool(words) and normalise(words[-1]) in ("royal", "king", "withking", "kiraly", "krol")
    return {"enemy": enemy(" ".join(words[:-1] if royal else words)), "royal": royal}


def _counter(text: str) -> dict[str, Any]:
    if normalise(text) in ("habsburgs", "habsburg", "habsburgok", "habsburgowie", "habsburger", "wien", "vienna",
                           "becs", "wieden", "habsburgsbox"):
        return {"target": "habsburgs"}
    return {"target": province(text)}


def _action(text: str) -> dict[str, Any]:
    word, _, rest = text.strip().partition(" ")
    a = ACTION_WORDS.get(normalise(word))
    if a is None and normalise(text) in ("liberumveto", "rightofarms", "jesuitschools"):
        a, rest = ACTION_WORDS.get(normalise(text).replace("schools", "")), ""
    if a is None:
        raise Bad(f"unknown action {word!r}", ["STEWARD", "DANZIG", "DIPLOMACY", "MOVE", "VETO", "ARMS",
                                                "JESUITS", "TOWN"])
    if a == "danzig":
        return {"action": a}
    if a == "diplomacy":
        return {"action": a, "enemy": enemy(rest)}
    if a == "move":
        moves = []
        for leg in re.split(r"\s+AND\s+|,", rest, flags=re.IGNORECASE):
            ends = re.split(r"\s+(?:TO|->)\s+", leg.strip(), maxsplit=1, flags=re.IGNORECASE)
            if len(ends) != 2:
                raise Bad("MOVE <province> TO <province> [AND <province> TO <province>]")
            moves.append([province(ends[0]), province(ends[1])])
        return {"action": a, "moves": moves}
    if a == "jesuits":
        names = PROVINCES if normalise(rest) in ("all", "every", "osszes") else \
            [province(x) for x in re.split(r",|\s+AND\s+", rest, flags=re.IGNORECASE) if x.strip()]
        return {"action": a, "provinces": list(names)}
    if a == "arms":
        parts = rest.rsplit(" ", 1)
        if len(parts) == 2 and normalise(parts[1]) in ("white", "blue", "red"):
            return {"action": a, "province": province(parts[0]), "target": normalise(parts[1])}
        return {"action": a, "province": province(rest)}
    if a in ("steward", "town"):
        m = re.match(r"(.*?)\s+(?:(?:ON|WORTH)\s+)?(\d+)\s*$", rest, flags=re.IGNORECASE)
        if m:  # the player chooses the estate by its printed value (Phase 8, Steward)
            return {"action": a, "province": province(m.group(1)), "value": int(m.group(2))}
    return {"action": a, "province": province(rest)}


def parse_line(text: str) -> Order:
    """One order line -> its order dict; raises :class:`Bad`."""
    word, _, body = text.strip().partition(" ")
    kind = KEYWORDS.get(word.upper())
    if kind is None:
        raise Bad(f"unknown order {word!r}", sorted(k for k in CANONICAL.values() if k.startswith(word.upper()[:1])))
    if kind == "nobles":
        return {"kind": kind, "place": _pairs(body, True)}
    if kind == "cubes":
        word2, _, rest = body.strip().partition(" ")
        if word2.upper() == "FIRST":
            return {"kind": kind, "first": [province(x) for x in re.split(r"[,;]", rest) if x.strip()]}
        return {"kind": kind, "place": _pairs(body, False)}
    if kind == "bid":
        if not body.strip().isdecimal():
            raise Bad("BID <thalers>")
        return {"kind": kind, "amount": int(body)}
    one = {"estate": lambda t: {"province": province(t)}, "buy": lambda t: {"province": province(t)},
           "action": _action, "recruit": _recruit, "campaign": _campaign, "counter": _counter}[kind]
    if not body.strip():
        raise Bad(f"{CANONICAL[kind]} needs what to do (or PASS)")
    return {"kind": kind, "alts": _alts(body, one, allow_pass=kind != "estate")}


def parse(text: str, state: State | None = None) -> ParseResult:
    """Parse an order block; every problem with its line number."""
    result = ParseResult()
    for n, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw)
        if not line or line.upper() == "END":
            continue
        try:
            result.add(parse_line(line), n)
        except Bad as exc:
            result.problems.append(LineProblem(n, str(exc), exc.suggestions, exc.stage, raw))
    return result


def _p(key: str) -> str:
    return _display("p", key)


def _alt_text(kind: str, alt: dict[str, Any]) -> str:
    if alt.get("pass"):
        return "PASS"
    if kind in ("estate", "buy"):
        return _p(alt["province"])
    if kind == "recruit":
        units = " ".join(f"{alt[k]} {w}" for k, w in (("inf", "INF"), ("cav", "CAV"), ("can", "CANNON"),
                                                       ("cossack", "COSSACK")) if alt.get(k))
        return f"{_p(alt['province'])} {units}"
    if kind == "campaign":
        return _display("e", alt["enemy"]) + (" ROYAL" if alt.get("royal") else "")
    if kind == "counter":
        return "Habsburgs" if alt["target"] == "habsburgs" else _p(alt["target"])
    a = alt["action"]
    if a == "danzig":
        return "DANZIG"
    if a == "diplomacy":
        return f"DIPLOMACY {_display('e', alt['enemy'])}"
    if a == "move":
        return "MOVE " + " AND ".join(f"{_p(x)} TO {_p(y)}" for x, y in alt["moves"])
    if a == "jesuits":
        return "JESUITS " + ", ".join(_p(x) for x in alt["provinces"])
    tail = f" {alt['target']}" if alt.get("target") else ""
    if alt.get("value") is not None:
        tail = f" ON {alt['value']}"
    return f"{a.upper()} {_p(alt['province'])}{tail}"


def format_order(o: Order) -> str:
    """The canonical text of one order."""
    kind = o["kind"]
    if kind == "cubes" and "first" in o:
        return "CUBES FIRST " + ", ".join(_p(p) for p in o["first"])
    if kind in ("nobles", "cubes"):
        items = [f"{_p(p)} {n}" for p, n in o["place"].items() if p != "royal"]
        if "royal" in o["place"]:
            items.append(f"King {o['place']['royal']}")
        return f"{CANONICAL[kind]} " + ", ".join(items)
    if kind == "bid":
        return f"BID {o['amount']}"
    return f"{CANONICAL[kind]} " + " OR ".join(_alt_text(kind, a) for a in o["alts"])


def format_orders(orders: Sequence[Order]) -> str:
    """The canonical text of an order list (one line each)."""
    return "\n".join(format_order(o) for o in orders)


register_grammar("gods-playground", parse, format_orders)
