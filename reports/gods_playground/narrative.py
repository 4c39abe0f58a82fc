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

from reports.gods_playground.names import counts, dice, enemy, phase_name, province, units
from reports.i18n import N_, _, ngettext

Event = Mapping[str, Any]
_QUIET = {"type", "round", "label"}


def plain(value: Any) -> str:
    """A JSON value as short prose."""
    if isinstance(value, Mapping):
        return ", ".join(f"{province(k)} {plain(v)}" for k, v in value.items()) or _("none")
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) or _("none")
    if value is None:
        return "-"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def _defence(d: Mapping[str, Any] | None) -> str:
    """The defenders' dice of one province (invasion or raid)."""
    if not d:
        return ""
    rolls = d.get("rolls") or {}
    parts = [f"{who}: {dice(r)}" for who, r in rolls.items() if r]
    if parts:
        text = _("defenders rolled {rolls}, {hits}, {removed} removed").format(
            rolls="; ".join(parts), hits=plural(d.get("hits", 0), "hit"), removed=plural(d.get("removed", 0), "enemy cube"))
    else:
        text = _("no defender")
    if d.get("clash"):
        text += _("; {cubes} clashed with the nobles").format(cubes=plural(d["clash"], "cube"))
    return text


#: Counted nouns: ``plural(2, "cube")`` -> ``2 cubes``; the catalogue's plural rule chooses the form.
_COUNTED = {
    "hit": lambda n: ngettext("{n} hit", "{n} hits", n),
    "enemy cube": lambda n: ngettext("{n} enemy cube", "{n} enemy cubes", n),
    "cube": lambda n: ngettext("{n} cube", "{n} cubes", n),
    "noble cube": lambda n: ngettext("{n} noble cube", "{n} noble cubes", n),
    "more thaler": lambda n: ngettext("{n} more thaler", "{n} more thalers", n),
    "thaler": lambda n: ngettext("{n} thaler", "{n} thalers", n),
    "royal hit cube": lambda n: ngettext("{n} royal hit cube", "{n} royal hit cubes", n),
    "hit cube": lambda n: ngettext("{n} hit cube", "{n} hit cubes", n),
    "estate": lambda n: ngettext("{n} estate", "{n} estates", n),
}


def plural(n: Any, noun: str) -> str:
    """``1 cube``, ``2 cubes`` (nouns of :data:`_COUNTED`)."""
    return _COUNTED[noun](n).format(n=n)


def _starting(e: Event, v: Any) -> str:
    return _("{seat} took a starting estate in {province} (printed {value}).").format(
        seat=e.get("seat"), province=province(e.get("province")), value=e.get("value"))


def _income(e: Event, v: Any) -> str:
    short = e.get("short") or {}
    owed = (" " + _("The bank ran out of coins (132 thalers in all): {short} thalers not paid.").format(short=counts(short))
            if short else "")
    return _("Income: {paid} thalers.").format(paid=counts(e.get("paid") or {})) + owed


def _habsburg_influence(e: Event, v: Any) -> str:
    n, track = int(e.get("markers") or 0), e.get("track")
    text = ngettext("The Habsburgs put {n} influence marker on their box at the start of the round, their "
                    "strength track for the round.", "The Habsburgs put {n} influence markers on their box at the "
                    "start of the round, their strength track for the round.", n).format(n=n)
    if track != n:
        text += " " + _("(The 10 markers allowed no more of its {track}.)").format(track=track)
    return text


def _revealed(e: Event, v: Any) -> str:
    parts = [f"{seat}: {', '.join(f'{province(k)} {n}' for k, n in nobles.items())}"
             for seat, nobles in (e.get("nobles") or {}).items()]
    return _("Nobles revealed ({nobles}).").format(nobles="; ".join(parts))


def _fewer(e: Event, v: Any) -> str:
    place = e.get("place") or {}
    where = ", ".join(f"{province(k)} {n}" for k, n in place.items() if n) or _("none")
    return _("{seat} was short of noble cubes and placed: {where}.").format(seat=e.get("seat"), where=where)


#: The phase a pass ends, as the rulebook names it (phases 1, 7-10, 12).
PASS_PHASES = {"estate": N_("choosing starting estates"), "buy": N_("buying estates"), "action": N_("special actions"),
               "recruit": N_("recruiting"), "campaign": N_("campaigns"), "counter": N_("counterattacks")}


def _passed(e: Event, v: Any) -> str:
    phase = str(e.get("phase", ""))
    values = {"seat": e.get("seat"),
              "phase": _(PASS_PHASES[phase]) if phase in PASS_PHASES else phase.replace("_", " ")}
    if e.get("auto"):
        return _("{seat} passed: no more {phase} this round (nothing legal was left).").format(**values)
    return _("{seat} passed: no more {phase} this round.").format(**values)


def _bids(e: Event, v: Any) -> str:
    bids = e.get("bids") or {}
    return _("Bids for the crown, all paid to the bank: {bids}.").format(
        bids=counts(bids) if any(bids.values()) else _("every bid 0"))


#: Why the start player marker is where it is (the engine's words, adjudicator/gods_playground/phases.py).
START_WHY = {"highest noble on the royal army box": N_("highest noble on the royal army box"),
             "highest bid": N_("highest bid"),
             "the tied seats have no money: the marker stays": N_("the tied seats have no money: the marker stays"),
             "every tied seat bid 0: the marker stays": N_("every tied seat bid 0: the marker stays")}


def _start(e: Event, v: Any) -> str:
    why = str(e.get("why"))
    return _("{seat} holds the start player marker ({why}).").format(
        seat=e.get("seat"), why=_(START_WHY[why]) if why in START_WHY else why)


def _royal(e: Event, v: Any) -> str:
    return _("Royal army: the nobles on the king's box total {total}; court troops {court}, from the table {table}; "
             "the army is {army}.").format(total=e.get("total"), court=units(e.get("court") or {}),
                                          table=units(e.get("table") or {}), army=units(e.get("army") or {}))


def _placed(p: Any, v: Any) -> str:
    if p is None:
        return _("nothing")
    if p == "influence":
        return _("a Habsburg influence marker")
    return _("a {enemy} cube").format(enemy=enemy(p, v))


def _events(e: Event, v: Any) -> str:
    pairs = [f"{d} -> {_placed(p, v)}" for d, p in zip(e.get("dice") or [], e.get("placed") or [])]
    return _("Event dice: {pairs}.").format(pairs="; ".join(pairs) or _("none"))


def _elections(e: Event, v: Any) -> str:
    won = e.get("winners") or {}
    nobody = _("nobody")
    return _("Sejm elections: {winners}.").format(
        winners=", ".join(f"{province(p)} {s or nobody}" for p, s in won.items()))


def _bought(e: Event, v: Any) -> str:
    return _("{seat} bought an estate in {province} (printed {value}) for {cubes} from {province}.").format(
        seat=e.get("seat"), province=province(e.get("province")), value=e.get("value"),
        cubes=plural(e.get("cost"), "noble cube"))


def _action(e: Event, v: Any) -> str:
    seat, a = e.get("seat"), e.get("action")
    values = {"seat": seat, "value": e.get("value"), "province": province(e.get("province"))}
    if a == "steward":
        return _("{seat} placed a steward on its {value}-estate in {province} (+2 income).").format(**values)
    if a == "town":
        return _("{seat} founded a town on its {value}-estate in {province}.").format(**values)
    if a == "danzig":
        short = (_("; the bank, out of coins, could not pay {thalers}").format(thalers=plural(e.get("short"), "more thaler"))
                 if e.get("short") else "")
        return _("{seat} traded through Danzig and earned {thalers} (twice the income of Royal Prussia's occupied "
                 "estates{short}).").format(seat=seat, thalers=plural(e.get("thalers"), "thaler"), short=short)
    if a == "move":
        moves = _(" and ").join(_("{start} to {end}").format(start=province(x), end=province(y))
                                for x, y in e.get("moves") or [])
        return _("{seat} moved noble cubes: {moves}.").format(seat=seat, moves=moves)
    if a == "jesuits":
        where = ", ".join(province(p) for p in e.get("provinces") or [])
        return _("{seat} founded Jesuit schools in {where}: {vp} VP.").format(seat=seat, where=where, vp=e.get("vp", 0))
    if a == "arms":  # right of arms (Phase 8): the least valuable estate of a seat with fewer cubes there
        return _("{seat} took {victim}'s {value}-estate in {province} by right of arms.").format(
            victim=e.get("from"), **values)
    if a == "veto":
        return _("{seat} used the liberum veto in {province}.").format(**values)
    if a == "diplomacy":
        made = _("a treaty was made") if e.get("made") else _("no treaty")
        return _("{seat} tried diplomacy with the {enemy}: die {die}, paid {thalers}; {made}.").format(
            seat=seat, enemy=enemy(e.get("enemy"), v), die=e.get("die"), thalers=plural(e.get("paid", 0), "thaler"),
            made=made)
    rest = {k: x for k, x in e.items() if k not in _QUIET | {"seat", "action"}}
    return (_("{seat} took the special action {action}: {fields}.").format(seat=seat, action=a, fields=_fields(rest))
            if rest else _("{seat} took the special action {action}.").format(seat=seat, action=a))


def _recruited(e: Event, v: Any) -> str:
    troops = units({k: e.get(k, 0) for k in ("inf", "cav", "can", "cossack")})
    values = {"seat": e.get("seat"), "troops": troops, "province": province(e.get("province")),
              "cost": plural(e.get("cost"), "thaler")}
    if e.get("cube") == 0:
        return _("{seat} recruited {troops} in {province} for {cost} (its noble cube there was paid earlier in the "
                 "phase).").format(**values)
    return _("{seat} recruited {troops} in {province} for {cost}.").format(**values)


def _cossacks(e: Event, v: Any) -> str:
    return _("{n} Cossacks went over to the Tatars.").format(n=e.get("count"))


def _campaign(e: Event, v: Any) -> str:
    rolled = (_("rolled {dice}").format(dice=dice(e["rolls"])) if e.get("rolls") else _("no troops of its own"))
    text = _("{seat} campaigned against the {enemy} from {province}: {rolled}").format(
        seat=e.get("seat"), enemy=enemy(e.get("enemy"), v), province=province(e.get("province")), rolled=rolled)
    if e.get("cossacks"):
        text += _(", Cossacks {dice}").format(dice=dice(e["cossacks"]))
    royal = e.get("royal")
    if isinstance(royal, Mapping):
        text += _("; the royal army joined (Sejm disc from {province}) and rolled {dice}: {hits}, {cleared} cleared, "
                  "{placed} placed").format(province=province(royal.get("sejm_space")), dice=dice(royal.get("rolls") or []),
                                            hits=plural(royal.get("hits", 0), "hit"),
                                            cleared=plural(royal.get("cleared", 0), "cube"),
                                            placed=plural(royal.get("placed", 0), "royal hit cube"))
    elif royal:
        text += _("; royal army {royal}").format(royal=plain(royal))
    return text + _("; {hits}, {cleared} cleared, {cubes} on the box.").format(
        hits=plural(e.get("hits", 0), "hit"), cleared=plural(e.get("cleared", 0), "enemy cube"),
        cubes=plural(e.get("hit_cubes", 0), "hit cube"))


def _counter(e: Event, v: Any) -> str:
    return _("{seat} counterattacked in {province}: rolled {dice}; {hits}, {removed} removed.").format(
        seat=e.get("seat"), province=province(e.get("target")), dice=dice(e.get("rolls") or []),
        hits=plural(e.get("hits", 0), "hit"), removed=plural(e.get("removed", 0), "enemy cube"))


def _invasion_dice(e: Event, v: Any) -> str:
    pairs = [f"{d} -> {_placed(p, v)}" for d, p in zip(e.get("dice") or [], e.get("placed") or [])]
    extra = (_("; {n} Cossacks defected").format(n=e["cossacks_defected"]) if e.get("cossacks_defected") else "")
    return _("Invasion dice: {pairs}{extra}.").format(pairs="; ".join(pairs) or _("none"), extra=extra)


def _invasion(e: Event, v: Any) -> str:
    who = enemy(e.get("enemy"), v)
    if e.get("treaty"):
        return _("The {enemy} keep their treaty: no invasion.").format(enemy=who)
    where = e.get("province") or ((v or {}).get("enemies") or {}).get(str(e.get("enemy")), {}).get("province")
    cubes = e.get("cubes", 0)
    values = {"enemy": who, "province": province(where), "strength": e.get("strength"),
              "hit_cubes": plural(e.get("hit_cubes", 0), "hit cube"), "cubes": plural(cubes, "cube")}
    if where:
        text = (ngettext("The {enemy} invade {province} with strength {strength} against {hit_cubes}: {cubes} enters",
                         "The {enemy} invade {province} with strength {strength} against {hit_cubes}: {cubes} enter",
                         cubes) if isinstance(cubes, int) else
                _("The {enemy} invade {province} with strength {strength} against {hit_cubes}: {cubes} enter"))
    else:
        text = (ngettext("The {enemy} attack with strength {strength} against {hit_cubes}: {cubes} enters",
                         "The {enemy} attack with strength {strength} against {hit_cubes}: {cubes} enter",
                         cubes) if isinstance(cubes, int) else
                _("The {enemy} attack with strength {strength} against {hit_cubes}: {cubes} enter"))
    text = text.format(**values)
    d = _defence(e.get("defence"))
    return text + (f"; {d}." if d else ".")


#: Why the Turks stay on the Habsburgs' box in round 4 (the engine's words, adjudicator/gods_playground/aftermath.py).
STAY_WHY = {"the Turkish box of round 4": N_("the Turkish box of round 4"),
            "Turkish cubes stand on Greater Poland": N_("Turkish cubes stand on Greater Poland")}


def _raid(e: Event, v: Any) -> str:
    targets = e.get("targets") or {}
    if not targets and e.get("why"):
        where = _("the Habsburgs' box") if e.get("source") == "habsburgs_box" else province(e.get("source"))
        why = str(e.get("why"))
        return _("The {enemy} on {where} stay there: {why}.").format(
            enemy=enemy(e.get("enemy"), v), where=where, why=_(STAY_WHY[why]) if why in STAY_WHY else why)
    where = ", ".join(f"{province(p)} ({plural(n, 'cube')})" for p, n in targets.items()) or _("nowhere")
    text = _("The {enemy} raid from {source} into {where}").format(enemy=enemy(e.get("enemy"), v),
                                                                    source=province(e.get("source")), where=where)
    fights = e.get("defence") or {}
    if isinstance(fights, Mapping) and "rolls" in fights:
        fights = {next(iter(targets), "?"): fights}
    for p, d in fights.items():
        text += _("; in {province} {defence}").format(province=province(p), defence=_defence(d))
    return text + "."


def _influence(e: Event, v: Any) -> str:
    removed = counts(e.get("removed") or {})
    text = _("Habsburg influence removed noble cubes: {removed}").format(removed=removed)
    if e.get("onto_greater_poland"):
        text += _("; {n} influence marker(s) moved onto Greater Poland").format(n=e["onto_greater_poland"])
    return text + "."


def _spreads(e: Event, v: Any) -> str:
    return _("Habsburg influence spread: {targets}.").format(targets=plain(e.get("targets")))


def _treaty(e: Event, v: Any) -> str:
    return _("The treaty with the {enemy} is broken.").format(enemy=enemy(e.get("enemy"), v))


def _estates(e: Event, v: Any) -> str:
    parts = []
    for p, r in (e.get("provinces") or {}).items():
        lost = r.get("lost") or []
        track = r.get("track") or []
        move = (_("estate track {start} -> {end}").format(start=track[0], end=track[1])
                if len(track) == 2 and track[0] != track[1] else
                _("estate track stays {n}").format(n=track[0]) if track else "")
        values = {"province": province(p), "estates": plural(len(lost), "estate"), "move": move,
                  "printed": ", ".join(map(str, lost))}
        parts.append((_("{province}: {estates} lost (printed {printed}), {move}") if lost else
                      _("{province}: {estates} lost, {move}")).format(**values))
    return _("Estates and income: {parts}.").format(parts="; ".join(parts))


def _vp(e: Event, v: Any) -> str:
    parts = []
    for box, b in (e.get("boxes") or {}).items():
        names = [*(b.get("seats") or []), *([_("the king")] if b.get("king") else [])]
        seats = _(" and ").join(names) or _("nobody")
        values = {"box": enemy(box, v), "vp": b.get("each"), "seats": seats}
        parts.append((_("{box} box: {vp} VP each to {seats}") if len(names) > 1 else
                      _("{box} box: {vp} VP to {seats}")).format(**values))
    if any((e.get("sejm") or {}).values()):
        parts.append(_("Sejm seats (2 VP each): {vp} VP").format(vp=counts(e["sejm"])))
    if any((e.get("money") or {}).values()):
        parts.append(_("thalers paid in (1 VP per 5 thalers): {vp} VP").format(vp=counts(e["money"])))
    return _("Victory points: {parts}. Gained: {gained}.").format(parts="; ".join(parts) or _("none awarded"),
                                                                  gained=counts(e.get("gained") or {}))


def _game_over(e: Event, v: Any) -> str:
    return _("The game is over. Estates scored: {estates}. Final VP: {vp}. Winner: {winner}.").format(
        estates=counts(e.get("estates") or {}), vp=counts(e.get("vp") or {}), winner=e.get("winner") or _("nobody"))


def _fields(e: Mapping[str, Any]) -> str:
    return "; ".join(f"{k.replace('_', ' ')} {plain(x)}" for k, x in e.items() if k not in _QUIET)


SENTENCES: dict[str, Callable[[Event, Any], str]] = {
    "StartingEstate": _starting, "HabsburgInfluence": _habsburg_influence, "Income": _income, "NoblesRevealed": _revealed, "FewerCubes": _fewer,
    "Passed": _passed, "KingBids": _bids, "StartPlayer": _start, "RoyalArmy": _royal, "Events": _events,
    "Elections": _elections, "EstateBought": _bought, "SpecialAction": _action, "Recruited": _recruited,
    "CossacksJoinTatars": _cossacks, "Campaign": _campaign, "Counterattack": _counter,
    "InvasionDice": _invasion_dice, "Invasion": _invasion, "Raid": _raid, "Influence": _influence,
    "InfluenceSpreads": _spreads, "TreatyBroken": _treaty, "Estates": _estates, "VictoryPoints": _vp,
    "GameOver": _game_over,
    "NobleCubesPlaced": lambda e, v: _("Every seat's noble cubes went onto the provinces as its nobles show."),
    "RoundEnded": lambda e, v: _("Round {n} ended.").format(n=e.get("round")),
}
#: Which heading an event is told under (the phase it belongs to).
HEADINGS = {"StartingEstate": N_("Setup"), "HabsburgInfluence": N_("Income"), "Income": N_("Income"), "NoblesRevealed": N_("Nobles"),
            "NobleCubesPlaced": N_("Nobles"), "FewerCubes": N_("Nobles"), "StartPlayer": N_("The king"),
            "KingBids": N_("The king"), "RoyalArmy": N_("Royal army and events"), "Events": N_("Royal army and events"),
            "Elections": N_("Sejm elections"), "EstateBought": N_("Buying estates"),
            "SpecialAction": N_("Special actions"), "Recruited": N_("Recruiting"), "CossacksJoinTatars": N_("Recruiting"),
            "Campaign": N_("Campaigns"), "InvasionDice": N_("Invasions"), "Invasion": N_("Invasions"),
            "Raid": N_("Raids"), "Influence": N_("Invasions"), "InfluenceSpreads": N_("Invasions"),
            "TreatyBroken": N_("Invasions"), "Counterattack": N_("Counterattacks"), "Estates": N_("End of the round"),
            "VictoryPoints": N_("End of the round"), "RoundEnded": N_("End of the round"),
            "GameOver": N_("End of the game")}


#: The heading of a pass: the phase it was made in.
PASS_HEADINGS = {"estate": N_("Setup"), "cubes": N_("Nobles"), "bid": N_("The king"), "buy": N_("Buying estates"),
                 "action": N_("Special actions"), "recruit": N_("Recruiting"), "campaign": N_("Campaigns"),
                 "counter": N_("Counterattacks")}


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
            name = (PASS_HEADINGS.get(str(e.get("phase")), N_("Other")) if kind == "Passed" else
                    HEADINGS.get(kind, N_("Other")))
            head = _("Round {n}: {phase}").format(n=e.get("round", "?"), phase=_(name))
            if not groups or groups[-1][0] != head:
                groups.append((head, []))
            groups[-1][1].append(sentence(e, view))
    return groups
