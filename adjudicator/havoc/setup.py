"""Creating a game: options, the deck by seat count, the deal (seed 002, "Előkészületek")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import GameError, State
from adjudicator.havoc.cards import GAUNT, JOHN, game_cards
from adjudicator.havoc.dealwords import deal_words, read_deal
from adjudicator.havoc.releases import FIVE_SIX_READINGS, READINGS, RELEASES, rule
from adjudicator.havoc.state import Ctx, to_hand
from adjudicator.havoc.tables import SETUP, load_battles

RELEASES_SINCE = RELEASES.since("gm_readings")

#: Options and their legal values (docs/havoc-rules.md, "Options").
OPTIONS: dict[str, tuple[str, ...]] = {
    "gaunt": ("off", "on", "extra"),     # John of Gaunt; "extra": the Chevauchées is an extra battle
    "peace": ("auto", "12", "123"),      # which Havoc/Peace card; "12" with <= 4 seats is the fast option
    "small": ("off", "on"),              # the 2-3 seat variant (no 2nd-place points)
    "order": ("fixed", "random", "winner"),  # battle order variants (Castillon stays last)
}


def known_options() -> dict[str, tuple[str, ...]]:
    """The options of the rules version in force: from version 3 on also the GM's choice of
    the readings the rulebook leaves open (``READINGS``, docs/havoc-rules.md "Readings")."""
    return {**OPTIONS, **READINGS} if rule("gm_readings") else dict(OPTIONS)


def parse_options(options: Mapping[str, str], nseats: int) -> dict[str, Any]:
    """The normalised options; :class:`GameError` for an unknown option or value."""
    known = known_options()
    out: dict[str, Any] = {k: v[0] for k, v in known.items()}
    for key, raw in options.items():
        if key == "battles_json":
            continue
        if key not in known:
            later = f" (it came with havoc rules version {RELEASES_SINCE})" if key in READINGS else ""
            raise GameError(f"unknown option {key!r}{later} (known: {', '.join([*known, 'battles_json'])})")
        value = str(raw).lower()
        if value in ("yes", "true", "1") and "on" in known[key]:
            value = "on"
        if value in ("no", "false", "0") and "off" in known[key]:
            value = "off"
        if value not in known[key]:
            raise GameError(f"option {key} must be one of {', '.join(known[key])}, not {raw!r}")
        out[key] = value
    if out["small"] == "on" and nseats > 3:
        raise GameError("option small=on is the 2-3 seat variant")
    for key in FIVE_SIX_READINGS:
        if nseats < 5 and key in out:
            if key in options:
                raise GameError(f"option {key} is a reading of the 5-6 seat rules (seed 002, \"5-6 játékos\")")
            del out[key]
    if out["peace"] == "auto":
        out["peace"] = "12" if nseats >= 5 else "123"
    if out["peace"] == "123" and nseats >= 5:
        raise GameError("with 5-6 seats the Peace card is the 1-2 side (seed 002)")
    return out


def create(seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[dict[str, Any]]]:
    """A new game, dealt and waiting for the first Peacekeeper's turn."""
    n = len(seats)
    if not 2 <= n <= 6 or len(set(seats)) != n or JOHN in seats:
        raise GameError("Havoc needs 2 to 6 distinct seats")
    opts = parse_options(options, n)
    table, provisional = load_battles(options.get("battles_json"))
    ordinary, dogs, box = game_cards(n)
    spec = SETUP["by_seats"][str(n)]
    state: State = {
        "game": "havoc", "version": 1, "seats": list(seats), "options": opts,
        "limit": spec["recruit_limit"], "table_data": table, "provisional": provisional,
        "battles": [b["id"] for b in table["battles"]], "removed": [], "won": {s: [] for s in seats},
        "points": {s: 0 for s in seats}, "deck": [], "hands": {s: [] for s in seats}, "recruits": [],
        "field": {}, "discard": [], "box": list(box), "table": [],
        "peace": {"holder": seats[0], "side": "peace", "position": 0, "max": 3 if opts["peace"] == "123" else 2,
                  # seed 002, 5-6 players: in the first round the 1-2 card need not be rotated
                  # yet (a 5-6 player rule: not for the faster game with 4 or fewer seats);
                  # GM option peace_first_round=turned reads it away (docs/havoc-rules.md, reading 3)
                  "fresh": (n >= 5 and opts.get("peace_first_round", "exempt") == "exempt")
                  if rule("peace_fresh_five_seats") else opts["peace"] == "12"},
        "john": {"where": "deck" if opts["gaunt"] != "off" else "unused", "left_of": None, "won": [], "points": 0},
        "phase": {"name": "turn", "seat": seats[0]}, "bno": 1, "counters": {"step": 0, "reshuffle": 0},
        "standing": {s: [] for s in seats}, "last_battle": None, "castillon": None, "winner": None, "over": False,
    }
    if opts["gaunt"] == "off":
        state["box"].append(GAUNT)
    ctx = Ctx(state, seed)
    _order_battles(ctx)
    _deal(ctx, ordinary, dogs)
    return ctx.s, ctx.events


def _order_battles(ctx: Ctx) -> None:
    """Variants: the battles at random (Castillon stays last) -- seed 002, Variánsok."""
    s = ctx.s
    if s["options"]["order"] == "random":
        label = "havoc/setup/battles"
        s["battles"] = ctx.chance.stream(label).shuffled(s["battles"][:-1]) + s["battles"][-1:]
        ctx.emit("BattleOrder", label=label, order=list(s["battles"]))


def _deal(ctx: Ctx, ordinary: list[str], dogs: list[str]) -> None:
    """Seed 002: one Dog each; 7 ordinary cards each and 3 recruits from the shuffled
    ordinary cards; then the other Dogs (and John of Gaunt) shuffled into the rest."""
    s = ctx.s
    label = "havoc/deal/initial"
    hand_size, recruits, seats = SETUP["hand"]["value"], SETUP["recruits"]["value"], s["seats"]
    shuffled = ctx.chance.stream(label).outcome(  # recorded chance says the hands (dealwords.py)
        "hands", lambda stream: stream.shuffled(ordinary), lambda o: deal_words(o, seats, hand_size, recruits),
        lambda text: read_deal(text, ordinary, seats, hand_size, recruits), f"hands {seats[0]} yellow02, grey07, ...")
    ctx.emit("Shuffle", label=label, order=list(shuffled))
    for i, seat in enumerate(s["seats"]):
        to_hand(s, seat, dogs[i])
    for _ in range(hand_size):
        for seat in s["seats"]:
            to_hand(s, seat, shuffled.pop(0))
    s["recruits"] = [shuffled.pop(0) for _ in range(recruits)]
    rest = shuffled + dogs[len(s["seats"]):] + ([GAUNT] if s["john"]["where"] == "deck" else [])
    label = "havoc/deal/deck"
    s["deck"] = ctx.chance.stream(label).shuffled(sorted(rest))
    ctx.emit("Shuffle", label=label, order=list(s["deck"]))
    for seat in s["seats"]:
        ctx.emit("Deal", seat=seat, cards=list(s["hands"][seat]))
    ctx.emit("Setup", seats=list(s["seats"]), options=dict(s["options"]), recruits=list(s["recruits"]),
             peacekeeper=s["peace"]["holder"], battles=list(s["battles"]), deck_size=len(s["deck"]),
             box_size=len(s["box"]), provisional=list(s["provisional"]))
