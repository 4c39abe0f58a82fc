"""What happened since a seat's last report, in plain sentences, phase by phase.

The input is ``ReportInput.recent``: the engine's derived events of each turn since the
last report (they are public: a hidden noble or bid appears in them only once revealed).
Every event type has a sentence; an unknown type is still shown with its fields spelled out,
so a new engine event never vanishes from a report silently. Event shapes: the engine's
``ctx.emit`` calls (adjudicator/gods_playground/).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reports.gods_playground.names import counts, dice, enemy, province, units

Event = Mapping[str, Any]
_QUIET = {"type", "round", "label"}


def plain(value: Any) -> str:
    """A JSON value as short prose."""
    if isinstance(value, Mapping):
        return ", ".join(f"{province(k)} {plain(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) or "none"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _defence(d: Mapping[str, Any] | None) -> str:
    """The defenders' dice of one province (invasion or raid)."""
    if not d:
        return ""
    rolls = d.get("rolls") or {}
    parts = [f"{who}: {dice(r)}" for who, r in rolls.items() if r]
    if parts:
        text = (f"defenders rolled {'; '.join(parts)}, {plural(d.get('hits', 0), 'hit')}, "
                f"{plural(d.get('removed', 0), 'enemy cube')} removed")
    else:
        text = "no defender"
    if d.get("clash"):
        text += f"; {plural(d['clash'], 'cube')} clashed with the nobles"
    return text


def plural(n: Any, noun: str) -> str:
    """``1 cube``, ``2 cubes``."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _starting(e: Event, v: Any) -> str:
    return f"{e.get('seat')} took a starting estate in {province(e.get('province'))} (printed {e.get('value')})."


def _income(e: Event, v: Any) -> str:
    short = e.get("short") or {}
    owed = f" The bank ran out of coins (132 thalers in all): {counts(short)} thalers not paid." if short else ""
    return f"Income: {counts(e.get('paid') or {})} thalers.{owed}"


def _revealed(e: Event, v: Any) -> str:
    parts = [f"{seat}: {', '.join(f'{province(k)} {n}' for k, n in nobles.items())}"
             for seat, nobles in (e.get("nobles") or {}).items()]
    return "Nobles revealed (" + "; ".join(parts) + ")."


def _fewer(e: Event, v: Any) -> str:
    place = e.get("place") or {}
    where = ", ".join(f"{province(k)} {n}" for k, n in place.items() if n) or "none"
    return f"{e.get('seat')} was short of noble cubes and placed: {where}."


#: The phase a pass ends, as the rulebook names it (phases 1, 7-10, 12).
PASS_PHASES = {"estate": "choosing starting estates", "buy": "buying estates", "action": "special actions",
               "recruit": "recruiting", "campaign": "campaigns", "counter": "counterattacks"}


def _passed(e: Event, v: Any) -> str:
    why = " (nothing legal was left)" if e.get("auto") else ""
    phase = str(e.get("phase", ""))
    return f"{e.get('seat')} passed: no more {PASS_PHASES.get(phase, phase.replace('_', ' '))} this round{why}."


def _bids(e: Event, v: Any) -> str:
    return f"Bids for the crown, all paid to the bank: {counts(e.get('bids') or {}) if any((e.get('bids') or {}).values()) else 'every bid 0'}."


def _start(e: Event, v: Any) -> str:
    return f"{e.get('seat')} holds the start player marker ({e.get('why')})."


def _royal(e: Event, v: Any) -> str:
    return (f"Royal army: the nobles on the king's box total {e.get('total')}; court troops "
            f"{units(e.get('court') or {})}, from the table {units(e.get('table') or {})}; "
            f"the army is {units(e.get('army') or {})}.")


def _placed(p: Any, v: Any) -> str:
    if p is None:
        return "nothing"
    if p == "influence":
        return "a Habsburg influence marker"
    return f"a {enemy(p, v)} cube"


def _events(e: Event, v: Any) -> str:
    pairs = [f"{d} -> {_placed(p, v)}" for d, p in zip(e.get("dice") or [], e.get("placed") or [])]
    return f"Event dice: {'; '.join(pairs) or 'none'}."


def _elections(e: Event, v: Any) -> str:
    won = e.get("winners") or {}
    return "Sejm elections: " + ", ".join(f"{province(p)} {s or 'nobody'}" for p, s in won.items()) + "."


def _bought(e: Event, v: Any) -> str:
    return (f"{e.get('seat')} bought an estate in {province(e.get('province'))} (printed {e.get('value')}) "
            f"for {plural(e.get('cost'), 'noble cube')} from {province(e.get('province'))}.")


def _action(e: Event, v: Any) -> str:
    seat, a = e.get("seat"), e.get("action")
    if a == "steward":
        return f"{seat} placed a steward on its {e.get('value')}-estate in {province(e.get('province'))} (+2 income)."
    if a == "town":
        return f"{seat} founded a town on its {e.get('value')}-estate in {province(e.get('province'))}."
    if a == "danzig":
        short = (f"; the bank, out of coins, could not pay {plural(e.get('short'), 'more thaler')}"
                 if e.get("short") else "")
        return (f"{seat} traded through Danzig and earned {plural(e.get('thalers'), 'thaler')} "
                f"(twice the income of Royal Prussia's occupied estates{short}).")
    if a == "move":
        moves = " and ".join(f"{province(x)} to {province(y)}" for x, y in e.get("moves") or [])
        return f"{seat} moved noble cubes: {moves}."
    if a == "jesuits":
        where = ", ".join(province(p) for p in e.get("provinces") or [])
        return f"{seat} founded Jesuit schools in {where}: {e.get('vp', 0)} VP."
    if a == "veto":
        return f"{seat} used the liberum veto in {province(e.get('province'))}."
    if a == "diplomacy":
        made = "a treaty was made" if e.get("made") else "no treaty"
        return (f"{seat} tried diplomacy with the {enemy(e.get('enemy'), v)}: die {e.get('die')}, "
                f"paid {plural(e.get('paid', 0), 'thaler')}; {made}.")
    rest = {k: x for k, x in e.items() if k not in _QUIET | {"seat", "action"}}
    return f"{seat} took the special action {a}" + (f": {_fields(rest)}." if rest else ".")


def _recruited(e: Event, v: Any) -> str:
    troops = units({k: e.get(k, 0) for k in ("inf", "cav", "can", "cossack")})
    paid = " (its noble cube there was paid earlier in the phase)" if e.get("cube") == 0 else ""
    cost = plural(e.get("cost"), "thaler")
    return f"{e.get('seat')} recruited {troops} in {province(e.get('province'))} for {cost}{paid}."


def _cossacks(e: Event, v: Any) -> str:
    return f"{e.get('count')} Cossacks went over to the Tatars."


def _campaign(e: Event, v: Any) -> str:
    text = (f"{e.get('seat')} campaigned against the {enemy(e.get('enemy'), v)} from "
            f"{province(e.get('province'))}: " + (f"rolled {dice(e['rolls'])}" if e.get("rolls")
                                                   else "no troops of its own"))
    if e.get("cossacks"):
        text += f", Cossacks {dice(e['cossacks'])}"
    royal = e.get("royal")
    if isinstance(royal, Mapping):
        text += (f"; the royal army joined (Sejm disc from {province(royal.get('sejm_space'))}) and rolled "
                 f"{dice(royal.get('rolls') or [])}: {plural(royal.get('hits', 0), 'hit')}, "
                 f"{plural(royal.get('cleared', 0), 'cube')} cleared, "
                 f"{plural(royal.get('placed', 0), 'royal hit cube')} placed")
    elif royal:
        text += f"; royal army {plain(royal)}"
    return (text + f"; {plural(e.get('hits', 0), 'hit')}, {plural(e.get('cleared', 0), 'enemy cube')} cleared, "
            f"{plural(e.get('hit_cubes', 0), 'hit cube')} on the box.")


def _counter(e: Event, v: Any) -> str:
    return (f"{e.get('seat')} counterattacked in {province(e.get('target'))}: rolled {dice(e.get('rolls') or [])}; "
            f"{plural(e.get('hits', 0), 'hit')}, {plural(e.get('removed', 0), 'enemy cube')} removed.")


def _invasion_dice(e: Event, v: Any) -> str:
    pairs = [f"{d} -> {_placed(p, v)}" for d, p in zip(e.get("dice") or [], e.get("placed") or [])]
    extra = f"; {e['cossacks_defected']} Cossacks defected" if e.get("cossacks_defected") else ""
    return f"Invasion dice: {'; '.join(pairs) or 'none'}{extra}."


def _invasion(e: Event, v: Any) -> str:
    who = enemy(e.get("enemy"), v)
    if e.get("treaty"):
        return f"The {who} keep their treaty: no invasion."
    where = e.get("province") or ((v or {}).get("enemies") or {}).get(str(e.get("enemy")), {}).get("province")
    target = f"invade {province(where)}" if where else "attack"
    text = (f"The {who} {target} with strength {e.get('strength')} against "
            f"{plural(e.get('hit_cubes', 0), 'hit cube')}: {plural(e.get('cubes', 0), 'cube')} "
            f"{'enters' if e.get('cubes', 0) == 1 else 'enter'}")
    d = _defence(e.get("defence"))
    return text + (f"; {d}." if d else ".")


def _raid(e: Event, v: Any) -> str:
    targets = e.get("targets") or {}
    if not targets and e.get("why"):
        where = "the Habsburgs' box" if e.get("source") == "habsburgs_box" else province(e.get("source"))
        return f"The {enemy(e.get('enemy'), v)} on {where} stay there: {e.get('why')}."
    where = ", ".join(f"{province(p)} ({plural(n, 'cube')})" for p, n in targets.items()) or "nowhere"
    text = f"The {enemy(e.get('enemy'), v)} raid from {province(e.get('source'))} into {where}"
    fights = e.get("defence") or {}
    if isinstance(fights, Mapping) and "rolls" in fights:
        fights = {next(iter(targets), "?"): fights}
    for p, d in fights.items():
        text += f"; in {province(p)} {_defence(d)}"
    return text + "."


def _influence(e: Event, v: Any) -> str:
    removed = counts(e.get("removed") or {})
    text = f"Habsburg influence removed noble cubes: {removed}"
    if e.get("onto_greater_poland"):
        text += f"; {e['onto_greater_poland']} influence marker(s) moved onto Greater Poland"
    return text + "."


def _spreads(e: Event, v: Any) -> str:
    return f"Habsburg influence spread: {plain(e.get('targets'))}."


def _treaty(e: Event, v: Any) -> str:
    return f"The treaty with the {enemy(e.get('enemy'), v)} is broken."


def _estates(e: Event, v: Any) -> str:
    parts = []
    for p, r in (e.get("provinces") or {}).items():
        lost = r.get("lost") or []
        track = r.get("track") or []
        move = f"estate track {track[0]} -> {track[1]}" if len(track) == 2 and track[0] != track[1] else \
            f"estate track stays {track[0]}" if track else ""
        parts.append(f"{province(p)}: {plural(len(lost), 'estate')} lost" + (f" (printed {', '.join(map(str, lost))})"
                                                                     if lost else "") + f", {move}")
    return "Estates and income: " + "; ".join(parts) + "."


def _vp(e: Event, v: Any) -> str:
    parts = []
    for box, b in (e.get("boxes") or {}).items():
        seats = " and ".join([*(b.get("seats") or []), *(["the king"] if b.get("king") else [])]) or "nobody"
        each = " each" if len(b.get("seats") or []) + (1 if b.get("king") else 0) > 1 else ""
        parts.append(f"{enemy(box, v)} box: {b.get('each')} VP{each} to {seats}")
    if any((e.get("sejm") or {}).values()):
        parts.append(f"Sejm seats (2 VP each): {counts(e['sejm'])} VP")
    if any((e.get("money") or {}).values()):
        parts.append(f"thalers paid in (1 VP per 5 thalers): {counts(e['money'])} VP")
    return f"Victory points: {'; '.join(parts) or 'none awarded'}. Gained: {counts(e.get('gained') or {})}."


def _game_over(e: Event, v: Any) -> str:
    return (f"The game is over. Estates scored: {counts(e.get('estates') or {})}. Final VP: "
            f"{counts(e.get('vp') or {})}. Winner: {e.get('winner') or 'nobody'}.")


def _fields(e: Mapping[str, Any]) -> str:
    return "; ".join(f"{k.replace('_', ' ')} {plain(x)}" for k, x in e.items() if k not in _QUIET)


SENTENCES: dict[str, Callable[[Event, Any], str]] = {
    "StartingEstate": _starting, "Income": _income, "NoblesRevealed": _revealed, "FewerCubes": _fewer,
    "Passed": _passed, "KingBids": _bids, "StartPlayer": _start, "RoyalArmy": _royal, "Events": _events,
    "Elections": _elections, "EstateBought": _bought, "SpecialAction": _action, "Recruited": _recruited,
    "CossacksJoinTatars": _cossacks, "Campaign": _campaign, "Counterattack": _counter,
    "InvasionDice": _invasion_dice, "Invasion": _invasion, "Raid": _raid, "Influence": _influence,
    "InfluenceSpreads": _spreads, "TreatyBroken": _treaty, "Estates": _estates, "VictoryPoints": _vp,
    "GameOver": _game_over,
    "NobleCubesPlaced": lambda e, v: "Every seat's noble cubes went onto the provinces as its nobles show.",
    "RoundEnded": lambda e, v: f"Round {e.get('round')} ended.",
}
#: Which heading an event is told under (the phase it belongs to).
HEADINGS = {"StartingEstate": "Setup", "Income": "Income", "NoblesRevealed": "Nobles",
            "NobleCubesPlaced": "Nobles", "FewerCubes": "Nobles", "StartPlayer": "The king",
            "KingBids": "The king", "RoyalArmy": "Royal army and events", "Events": "Royal army and events",
            "Elections": "Sejm elections", "EstateBought": "Buying estates", "SpecialAction": "Special actions",
            "Recruited": "Recruiting", "CossacksJoinTatars": "Recruiting", "Campaign": "Campaigns",
            "InvasionDice": "Invasions", "Invasion": "Invasions", "Raid": "Raids", "Influence": "Invasions",
            "InfluenceSpreads": "Invasions", "TreatyBroken": "Invasions", "Counterattack": "Counterattacks",
            "Estates": "End of the round", "VictoryPoints": "End of the round", "RoundEnded": "End of the round",
            "GameOver": "End of the game"}


#: The heading of a pass: the phase it was made in.
PASS_HEADINGS = {"estate": "Setup", "cubes": "Nobles", "bid": "The king", "buy": "Buying estates",
                 "action": "Special actions", "recruit": "Recruiting", "campaign": "Campaigns",
                 "counter": "Counterattacks"}


def sentence(event: Event, view: Any = None) -> str:
    """One plain sentence for a derived event."""
    fn = SENTENCES.get(str(event.get("type")))
    if fn is None:
        return f"{event.get('type')}: {_fields(event)}."
    return fn(event, view)


def story(recent: Sequence[Mapping[str, Any]], view: Any = None) -> list[tuple[str, list[str]]]:
    """``(heading, sentences)`` groups, in order, for every event in ``recent``; a new group
    starts whenever the heading or the round changes. Passes are folded into one line per group."""
    groups: list[tuple[str, list[str]]] = []
    for turn in recent:
        for e in turn.get("events") or []:
            kind = str(e.get("type"))
            name = PASS_HEADINGS.get(str(e.get("phase")), "Other") if kind == "Passed" else HEADINGS.get(kind, "Other")
            head = f"Round {e.get('round', '?')}: {name}"
            if not groups or groups[-1][0] != head:
                groups.append((head, []))
            groups[-1][1].append(sentence(e, view))
    return groups
