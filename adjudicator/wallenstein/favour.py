"""Favour cards (Imperial Court expansion, rules 7.1 and 9.4): the effect vocabulary.

The 21 printed cards are not in the seed, so a card is data written in a small vocabulary
of effect primitives (docs/wallenstein-court.md, "The favour-card file"). The engine ships
a provisional deck (``data/favour_cards.json``); a GM loads the printed one with the game
option ``favour_json=<json text>`` in the same format. :func:`parse_deck` checks the
shape and raises :class:`GameError` with the card and effect at fault.

Effects are carried out at once when the card is taken, "if possible" (rule 9.4): a
quantity is given as far as the supply (and, from rules version 1.2, the bank) allows, an
effect that needs a county of the seat and finds none does nothing. Where an effect needs a
county, the first of the seat's ``FAVOUR ... AT`` counties that fits is used, else the
engine's choice (:data:`RANKED`), which the seat is told of (rules version 1.2 on).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from adjudicator.base import GameError
from adjudicator.wallenstein.data import BUILDINGS, counties, load, rules
from adjudicator.wallenstein.notes import chosen
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.state import Ctx, bank_left, pieces_left

FIRST, LAST = 1, 21  # rule 7: the cards are numbered 1-21
ATTACKS = ("attacka", "attackb")

#: primitive -> its parameters and their kinds (``int`` = whole number 1-20)
VOCABULARY: dict[str, dict[str, str]] = {
    "taler": {"n": "int"},       # gain n Taler from the bank
    "grain": {"n": "int"},       # move n up the grain table
    "vp": {"n": "int"},          # n victory points
    "armies": {"n": "int"},      # n armies from the seat's supply onto one of its counties
    "unrest": {"n": "int"},      # remove up to n revolt markers from one of its counties
    "build": {"building": "building"},  # build that building there without paying
    "protect": {"actions": "attacks"},  # this season its counties cannot be attacked by these manoeuvres
}


def _effect_problem(where: str, effect: Any) -> str | None:
    """Why an effect dict is malformed, or None."""
    if not isinstance(effect, dict) or not isinstance(effect.get("do"), str):
        return f"{where}: an effect is an object with a \"do\" primitive, e.g. {{\"do\": \"taler\", \"n\": 2}}"
    spec = VOCABULARY.get(effect["do"])
    if spec is None:
        return f"{where}: unknown primitive {effect['do']!r} (known: {', '.join(VOCABULARY)})"
    extra = sorted(set(effect) - {"do", *spec})
    if extra:
        return f"{where}: {effect['do']} takes {', '.join(spec)}, not {', '.join(extra)}"
    for key, kind in spec.items():
        value = effect.get(key)
        if kind == "int" and not (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 20):
            return f"{where}: {effect['do']} needs \"{key}\": a whole number 1-20, not {value!r}"
        if kind == "building" and value not in BUILDINGS:
            return f"{where}: build needs \"building\": one of {', '.join(BUILDINGS)}, not {value!r}"
        if kind == "attacks" and not (isinstance(value, list) and value and set(value) <= set(ATTACKS)
                                      and len(set(value)) == len(value)):
            return f"{where}: protect needs \"actions\": a list of {' and/or '.join(ATTACKS)}, not {value!r}"
    return None


def _card_problems(i: int, card: Any, seen: set[int]) -> list[str]:
    if not isinstance(card, dict):
        return [f"card {i + 1}: a card is an object with \"number\" and \"effects\""]
    number = card.get("number")
    where = f"card {number!r}"
    if not isinstance(number, int) or isinstance(number, bool) or not FIRST <= number <= LAST:
        return [f"card {i + 1}: \"number\" must be a whole number {FIRST}-{LAST}, not {number!r}"]
    if number in seen:
        return [f"{where}: the number {number} is used twice"]
    seen.add(number)
    extra = sorted(set(card) - {"number", "name", "effects", "text", "source", "note"})
    if extra:
        return [f"{where}: unknown field(s) {', '.join(extra)} (fields: number, name, effects, text, source, note)"]
    effects = card.get("effects")
    if not isinstance(effects, list) or not effects:
        return [f"{where}: \"effects\" must be a non-empty list of effects"]
    return [p for j, e in enumerate(effects) if (p := _effect_problem(f"{where}, effect {j + 1}", e))]


def parse_deck(doc: Any) -> dict[str, Any]:
    """A checked deck ``{cards, provisional, reason, source}`` from a parsed JSON document.

    Accepts ``{"cards": [...], ...}`` or a bare list of cards; raises :class:`GameError`
    listing every problem.
    """
    if isinstance(doc, list):
        doc = {"cards": doc}
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise GameError("favour deck: expected an object with a \"cards\" list (see docs/wallenstein-court.md)")
    seen: set[int] = set()
    problems = [p for i, c in enumerate(doc["cards"]) for p in _card_problems(i, c, seen)]
    if len(seen) < 3 and not problems:
        problems.append(f"the deck has {len(seen)} card(s); at least 3 are needed for one season")
    if problems:
        raise GameError("favour deck: " + "; ".join(problems))
    cards = sorted(({"number": c["number"], "name": str(c.get("name", f"Favour {c['number']}")),
                     "effects": c["effects"]} for c in doc["cards"]), key=lambda c: c["number"])
    return {"cards": cards, "provisional": bool(doc.get("provisional", False)),
            "reason": str(doc.get("reason", "")), "source": str(doc.get("source", ""))}


def load_deck(text: str | None) -> dict[str, Any]:
    """The deck of option ``favour_json`` (JSON text), or the provisional packaged deck."""
    if text is None:
        return parse_deck(load("favour_cards.json"))
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise GameError(f"favour_json is not valid JSON: {exc}") from None
    return parse_deck(doc)


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def describe(effect: Mapping[str, Any]) -> str:
    """One effect in words (reports and the view)."""
    do = effect["do"]
    if do == "build":
        name = {"trade": "trading house"}.get(effect["building"], effect["building"])
        return f"build a {name} without paying"
    if do == "protect":
        names = " or ".join(a[-1].upper() for a in effect["actions"])
        return f"this season your counties cannot be attacked by manoeuvre {names}"
    n = effect["n"]
    words = {"taler": f"{n} Taler", "grain": f"{n} grain", "vp": _plural(n, "victory point", "victory points"),
             "armies": _plural(n, "army", "armies") + " from your supply onto one of your counties",
             "unrest": f"remove up to {_plural(n, 'revolt marker', 'revolt markers')} from one of your counties"}
    return words[do]


def card_text(card: Mapping[str, Any]) -> str:
    """A card's effects in words, joined."""
    return "; ".join(describe(e) for e in card["effects"])


# --- carrying out the effects -------------------------------------------------------


def _own(ctx: Ctx, seat: str) -> list[str]:
    return sorted(n for n, c in ctx.state["counties"].items() if c["owner"] == seat)


#: what the engine's own choice of county ranks first, per effect (said in the seat's note)
RANKED = {"armies": "the most armies", "unrest": "the most revolt markers", "build": "the most empty building spaces"}


def _pick(ctx: Ctx, seat: str, wanted: list[str], fits: Callable[[str], bool],
          rank: Callable[[str], Any]) -> str | None:
    """The first wanted county that is the seat's and fits (``FAVOUR ... AT``), else the fitting
    own county ranked first (ties by name): rule 9.4, the effect is carried out if possible."""
    own = [n for n in _own(ctx, seat) if fits(n)]
    for county in wanted:
        if county in own:
            return county
    return min(own, key=lambda n: (rank(n), n)) if own else None


def _gain(ctx: Ctx, seat: str, effect: dict[str, Any], wanted: list[str]) -> dict[str, Any]:
    key, n = effect["do"], effect["n"]
    bank = bank_left(ctx.state) if key == "taler" else None
    if bank is not None and n > bank:  # rule 1: the bank pays what it still has ("amennyiben ez lehetséges")
        ctx.emit("OutOfPieces", seat=seat, piece="taler", box=rules()["coins"]["taler"], wanted=n, taken=bank,
                 note=f"The bank pays {seat} only {bank} of the {n} Taler of the favour card: the box's coins are "
                      f"{rules()['coins']['taler']} Taler and the players hold the rest.")
        n = bank
    ctx.state["players"][seat][key] += n
    return {"amount": n, key: ctx.state["players"][seat][key]}


def _armies(ctx: Ctx, seat: str, effect: dict[str, Any], wanted: list[str]) -> dict[str, Any]:
    counties_ = ctx.state["counties"]
    county = _pick(ctx, seat, wanted, lambda n: True, lambda n: -counties_[n]["armies"])
    player = ctx.state["players"][seat]
    n = min(effect["n"], player["supply"]) if county else 0
    if n:
        player["supply"] -= n
        counties_[county]["armies"] += n  # type: ignore[index]
    return {"county": county, "armies": n}


def _unrest(ctx: Ctx, seat: str, effect: dict[str, Any], wanted: list[str]) -> dict[str, Any]:
    counties_ = ctx.state["counties"]
    county = _pick(ctx, seat, wanted, lambda n: counties_[n]["markers"] > 0, lambda n: -counties_[n]["markers"])
    n = min(effect["n"], counties_[county]["markers"]) if county else 0
    if county:
        counties_[county]["markers"] -= n
    return {"county": county, "markers_removed": n}


def _build(ctx: Ctx, seat: str, effect: dict[str, Any], wanted: list[str]) -> dict[str, Any]:
    building, counties_ = effect["building"], ctx.state["counties"]

    def room(n: str) -> int:
        return counties()[n]["spaces"] - len(counties_[n]["buildings"])

    county = _pick(ctx, seat, wanted, lambda n: building not in counties_[n]["buildings"] and room(n) > 0,
                   lambda n: -room(n))
    if county and rule("box_pieces") and pieces_left(ctx.state, building) <= 0:  # rule 1: the box's pieces are the limit
        county = None
    if county:  # rule 4.1.3: no two buildings of a kind in a county, one per space
        counties_[county]["buildings"].append(building)
        counties_[county]["buildings"].sort(key=BUILDINGS.index)
    return {"county": county, "building": building if county else None}


def _protect(ctx: Ctx, seat: str, effect: dict[str, Any], wanted: list[str]) -> dict[str, Any]:
    shield = ctx.state["court"]["protect"].setdefault(seat, [])
    shield[:] = sorted(set(shield) | set(effect["actions"]))
    return {"actions": list(shield)}


_APPLY: dict[str, Callable[[Ctx, str, dict[str, Any], list[str]], dict[str, Any]]] = {
    "taler": _gain, "grain": _gain, "vp": _gain, "armies": _armies, "unrest": _unrest,
    "build": _build, "protect": _protect,
}


def apply(ctx: Ctx, seat: str, card: Mapping[str, Any], wanted: Sequence[str] | str | None) -> list[dict[str, Any]]:
    """Carry out a taken card's effects in order; return what each did (for the event).

    ``wanted``: the seat's ``FAVOUR ... AT`` counties, best first (one before rules version 1.2)."""
    counties_ = [wanted] if isinstance(wanted, str) else list(wanted or [])
    if not rule("favour_counties"):
        counties_ = counties_[:1]  # before rules version 1.2 a FAVOUR line named one county
    done = []
    for effect in card["effects"]:
        result = {"do": effect["do"], **_APPLY[effect["do"]](ctx, seat, effect, counties_)}
        _county_note(ctx, seat, card, effect, result, counties_)
        done.append(result)
    return done


def _county_note(ctx: Ctx, seat: str, card: Mapping[str, Any], effect: Mapping[str, Any],
                 result: Mapping[str, Any], wanted: list[str]) -> None:
    """Tell the seat when the engine chose the county of an effect (rules version 1.2 on)."""
    county = result.get("county")
    if effect["do"] not in RANKED or county is None or county in wanted:
        return
    why = (f"{' and '.join(wanted)} did not fit" if wanted else "you named no county (FAVOUR ... AT)")
    chosen(ctx, seat, "favour_county", card=card["number"], effect=effect["do"], county=county,
           note=f"Favour card {card['number']} ({describe(effect)}): {why}, so it went to {county}, your county "
                f"with {RANKED[effect['do']]} where it fits (the card is carried out at once if possible, rule 9.4).")


def protected(state: Mapping[str, Any], owner: str | None, action: str) -> bool:
    """True when ``owner``'s counties cannot be attacked by ``action`` this season (a favour)."""
    court = state.get("court")
    return bool(court and owner and action in court["protect"].get(owner, []))
