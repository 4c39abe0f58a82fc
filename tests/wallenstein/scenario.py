"""The scenario format of tests/wallenstein/cases/*.json and its runner.

A case file is a JSON list of cases. Every case has ``id``, ``rule`` (the rulebook section
or example it checks), ``kind`` and kind-specific fields; optional ``version`` (the rules
version it runs under, default the newest) and, in ``fidelity3.json`` (the fixes of version
1.2, each of which must fail under 1.1), ``boundary`` (the edge of a fix, where both agree):

- ``battle``: ``attacker``, ``defender``, ``peasants``, ``peasants_side`` (cube counts out
  of the tower) -> ``expect`` (fields of :class:`adjudicator.wallenstein.battle.Outcome`).
- ``actions``: a ``position``, optional ``event`` (id of the current event card),
  ``tiles`` {tile: seat}, ``tower_out`` (scripted tower: the cubes that fall out of each
  throw, in order), ``do`` [[seat, order], ...] carried out in order -> ``expect``.
- ``winter``: a ``position`` with ``face_up`` (the remaining event card), optional ``seed``
  and ``tower_out`` -> ``expect``.
- ``score``: a ``position`` -> ``expect`` {``vp``: {seat: points}}.
- ``bids``: ``bids`` {seat: bid order}, ``places`` (tiles on places 1-5), ``prefs``
  {seat: [tiles]}, optional ``missed`` [seats whose orders did not arrive] -> ``expect``
  {``order``: turn order} or {``ties``: [[tied seats]...]}, optional ``events``/``no_events``.
- ``validate``: a ``position``, ``seat``, ``orders`` -> ``expect`` {``problems``:
  [{``index``, ``contains``}]} (an empty list = legal).
- ``court`` (Imperial Court, rule 9.4): a ``position``, ``turn_order``, ``plans`` {seat:
  [court and FAVOUR order dicts]}, optional ``step`` (``reveal``, ``audience`` or both
  by default) -> ``expect``.
- ``tower_fill`` (rule 8): ``seats``, ``tower_out`` (the cubes that fall out) -> ``expect``.
- ``favour``: a ``position``, ``seat``, ``card`` {``effects``}, optional ``county`` (the
  ``FAVOUR ... AT`` county) or ``counties`` (several, best first) -> ``expect``.
- ``draft`` (rule 3.3): optional ``seats``, the draft deck ``face_up`` (two cards) and
  ``deck`` (its top cards, first first; the other counties follow in name order), ``orders`` {seat: draft order dicts} (a seat left out: missed
  orders) -> ``expect`` {``picks``: [[seat, county, armies]...] (the first picks, in order)}
  and ``events``/``no_events``.
- ``options``: ``options`` (and optional ``seats``) of a new game -> ``expect`` {``readings``:
  the readings its ``GameCreated`` event names} or {``error``: part of the refusal}.

A ``position`` is partial: ``seats`` (default four: gabor eva gergo erika), ``options``
(e.g. {``expansion``: ``court``}; court kinds turn the court on), ``court`` {``antechamber``,
``hall``, ``display`` [[number, place]...], ``protect``} (courtier supplies make 7 a seat), ``players``
{seat: {taler, grain, vp}} (default 10 Taler, 0 grain), ``counties`` {name: {owner,
armies, buildings, markers}} (every other county neutral and empty), ``tower`` and
``tray`` (cube counts). Supplies are set so every seat's 62 armies are accounted for.

``expect`` may hold ``players`` {seat: {field: value}}, ``counties`` {name: {field:
value}}, ``tower``/``tray`` (non-zero counts), ``court`` {field: value} (e.g. ``antechamber``,
``supply``, ``taken``, ``removed``), ``events`` (partial event dicts matched in order against
the emitted events) and ``no_events`` (event types that must not occur).
"""

from __future__ import annotations

from typing import Any

from adjudicator.chance import Chance
from adjudicator.wallenstein import actions, tower
from adjudicator.wallenstein.data import events
from adjudicator.wallenstein.setup import new_state
from adjudicator.wallenstein.state import PEASANTS, Ctx

DEFAULT_SEATS = ["gabor", "eva", "gergo", "erika"]


def build(position: dict[str, Any]) -> dict[str, Any]:
    """A full state from a partial position."""
    seats = position.get("seats", DEFAULT_SEATS)
    state = new_state(seats, {"setup": "random", **position.get("options", {})})
    state.update(year=1618, season="spring", phase="plan")
    for player in state["players"].values():
        player["taler"] = 10
    for seat, fields in position.get("players", {}).items():
        state["players"][seat].update(fields)
    for name, fields in position.get("counties", {}).items():
        assert name in state["counties"], f"{name} is not in play with {len(seats)} seats"
        state["counties"][name].update({"buildings": [], "markers": 0, **fields})
    for key in ("tower", "tray"):
        state[key].update(position.get(key, {}))
    for seat in seats:
        used = sum(c["armies"] for c in state["counties"].values() if c["owner"] == seat)
        state["players"][seat]["supply"] = 62 - used - state["tower"][seat] - state["tray"][seat]
    state["peasants"] = 20 - state["tower"][PEASANTS] - state["tray"][PEASANTS]
    if "court" in state:
        _court(state, position.get("court", {}))
    if "face_up" in position:
        state["events"]["face_up"] = list(position["face_up"])
        state["events"]["deck"] = sorted(set(state["events"]["deck"]) - set(position["face_up"]))
    return state


def _court(state: dict[str, Any], partial: dict[str, Any]) -> None:
    """The court part of a position; every seat's courtier supply makes up its 7."""
    court = state["court"]
    for key in ("antechamber", "hall"):
        court[key].update(partial.get(key, {}))
    court["display"] = [{"number": n, "place": p} for n, p in partial.get("display", [])]
    court["deck"] = [n for n in court["deck"] if n not in {d["number"] for d in court["display"]}]
    court["protect"] = dict(partial.get("protect", {}))
    for seat in state["seats"]:
        court["supply"][seat] = 7 - court["antechamber"][seat] - court["hall"][seat]


def scripted_tower(outs: list[dict[str, int]]):
    """A stand-in for :func:`tower.throw` that lets fall exactly the scripted cubes."""
    queue = list(outs)

    def throw(inside, thrown, colours, stream, model=None):
        want = queue.pop(0)
        out = {c: want.get(c, 0) for c in colours}
        after = {c: inside.get(c, 0) + thrown.get(c, 0) - out[c] for c in colours}
        assert min(after.values()) >= 0, f"scripted out {want} exceeds what is in the tower"
        return out, after

    return throw


def context(state: dict[str, Any], case: dict[str, Any], season: str = "spring") -> Ctx:
    """A working context with the case's event and tile holders."""
    ctx = Ctx(state, Chance(case.get("seed", "scenario")), 1618, season)
    if case.get("event"):
        ctx.event = events()[case["event"]]
    ctx.holders = dict(case.get("tiles", {}))
    return ctx


def run_actions(case: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Carry out the case's actions; return the state and events."""
    state = build(case["position"])
    ctx = context(state, case)
    for seat, order in case["do"]:
        actions.perform(ctx, seat, {"kind": "action", **order})
    return state, ctx.events


def differences(state: dict[str, Any], emitted: list[dict[str, Any]], expect: dict[str, Any]) -> list[str]:
    """What differs from the expectation, one line each (empty = all as expected)."""
    diffs = []
    for seat, fields in expect.get("players", {}).items():
        for k, v in fields.items():
            if state["players"][seat][k] != v:
                diffs.append(f"players.{seat}.{k}: expected {v!r}, got {state['players'][seat][k]!r}")
    for name, fields in expect.get("counties", {}).items():
        for k, v in fields.items():
            if state["counties"][name][k] != v:
                diffs.append(f"counties.{name}.{k}: expected {v!r}, got {state['counties'][name][k]!r}")
    for key in ("tower", "tray"):
        if key in expect:
            got = {k: v for k, v in state[key].items() if v}
            if got != expect[key]:
                diffs.append(f"{key}: expected {expect[key]}, got {got}")
    for k, v in expect.get("court", {}).items():
        if state["court"][k] != v:
            diffs.append(f"court.{k}: expected {v!r}, got {state['court'][k]!r}")
    diffs += _event_diffs(emitted, expect.get("events", []))
    for t in expect.get("no_events", []):
        if any(e["type"] == t for e in emitted):
            diffs.append(f"unexpected {t} event: {[e for e in emitted if e['type'] == t]}")
    return diffs


def _event_diffs(emitted: list[dict[str, Any]], wanted: list[dict[str, Any]]) -> list[str]:
    pos = 0
    for w in wanted:
        while pos < len(emitted) and not all(emitted[pos].get(k) == v for k, v in w.items()):
            pos += 1
        if pos == len(emitted):
            return [f"no event matching {w} (in order) among {[e['type'] for e in emitted]}:\n" +
                    "\n".join(str(e) for e in emitted)]
        pos += 1
    return []


__all__ = ["build", "scripted_tower", "context", "run_actions", "differences", "tower"]
