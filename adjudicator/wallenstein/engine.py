"""The Wallenstein engine: the contract of adjudicator/base.py over the rules modules.

The rules modules are imported by the methods that need them: a command that only reads a
game (``pbem status``: ``pending``, ``scores``, ``winner``) does not load the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import GameError, Pending, Problem
from adjudicator.chance import Chance, Stream
from adjudicator.wallenstein import data
from adjudicator.wallenstein.releases import RELEASES
from adjudicator.wallenstein.state import Ctx, copy_state, court_enabled, turn_label

PLAN_FORMS = ("PALACE", "CHURCH", "TRADE", "GRAIN", "TAX", "RECRUIT5", "RECRUIT3", "RECRUIT1",
              "ATTACKA", "ATTACKB", "BID", "BONUS", "FAMINE")
DRAFT_FORMS = ("DRAFT", "GROUPS")
COURT_FORMS = ("COURT3", "COURT2", "COURT1", "FAVOUR")


class WallensteinEngine:
    """Wallenstein, 2nd edition, 3-5 seats; the Imperial Court with option ``expansion=court``."""

    name = "wallenstein"
    releases = RELEASES
    version = RELEASES.newest.version  # new games; a game keeps its own (adjudicator.versions.pin)
    min_seats = 3
    max_seats = 5

    def create(self, seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A new game (random deal, or waiting for the draft)."""
        from adjudicator.wallenstein import setup

        return setup.create(seats, options, seed)

    def pending(self, state: dict[str, Any]) -> Pending | None:
        """All seats at once: the draft (``setup``) or a season plan."""
        if state["phase"] == "over":
            return None
        draft = state["phase"] == "draft"
        plan = PLAN_FORMS if RELEASES.rule("famine_order") else tuple(f for f in PLAN_FORMS if f != "FAMINE")
        drafting = DRAFT_FORMS + (("REFRESH",) if RELEASES.rule("draft_choices") else ())
        forms = drafting if draft else plan + (COURT_FORMS if court_enabled(state) else ())
        return Pending(seats=tuple(state["seats"]), turn=turn_label(state), kind="draft" if draft else "plan",
                       simultaneous=True, forms=forms)

    def validate(self, state: dict[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> list[Problem]:
        """Every problem with ``seat``'s orders, each tied to its order index."""
        from adjudicator.wallenstein import draft_orders, orders as ords

        if state["phase"] == "over":
            return [Problem(None, "the game is over")]
        if seat not in state["seats"]:
            return [Problem(None, f"{seat!r} is not a seat of this game")]
        bad = [Problem(i, "an order must be a JSON object with a 'kind'", (), "syntax")
               for i, o in enumerate(orders) if not (type(o) is dict or isinstance(o, Mapping)) or "kind" not in o]
        if bad:
            return bad
        if state["phase"] == "draft":
            return draft_orders.validate_draft(state, seat, orders)
        return ords.validate_plan(state, seat, orders)

    def default_orders(self, state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
        """The missed-orders policy (money cards everywhere, no bid; blind draft picks)."""
        from adjudicator.wallenstein import orders as ords

        return [dict(o) for o in ords.MISSED]

    def advance(self, state: dict[str, Any], orders: Mapping[str, Sequence[dict[str, Any]]], seed: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Resolve the draft, or the whole season (and winter after autumn)."""
        from adjudicator.wallenstein import draft, draft_orders, orders as ords, season, setup

        if state["phase"] == "over":
            raise GameError("the game is over")
        missing = [s for s in state["seats"] if s not in orders]
        if missing:
            raise GameError(f"orders missing for {', '.join(missing)}")
        for seat in state["seats"]:
            problems = self.validate(state, seat, orders[seat])
            if problems:
                raise GameError(f"illegal orders for {seat}: {problems[0].message}")
        new = copy_state(state)
        ctx = Ctx(new, Chance(seed), new["year"], new["season"])
        if new["phase"] == "draft":
            draft.run_draft(ctx, {s: draft_orders.read_draft(new, orders[s]) for s in new["seats"]})
            setup.start_year(ctx, 1618)
        else:
            season.resolve(ctx, {s: ords.read_plan(orders[s]) for s in new["seats"]})
        new["log"] = ctx.events
        return new, ctx.events

    def view(self, state: dict[str, Any], viewer: str) -> dict[str, Any]:
        """What ``viewer`` may see."""
        from adjudicator.wallenstein import view as views

        return views.view(state, viewer)

    def scores(self, state: dict[str, Any]) -> dict[str, int]:
        """Victory points per seat."""
        return {s: p["vp"] for s, p in state["players"].items()}

    def winner(self, state: dict[str, Any]) -> str | None:
        """The winner after the second winter (VP, then Taler), else None."""
        return state["winner"] if state["phase"] == "over" else None

    def random_orders(self, state: dict[str, Any], seat: str, rng: Stream) -> list[dict[str, Any]]:
        """A random legal order set."""
        from adjudicator.wallenstein.randbot import random_draft, random_plan

        if state["phase"] == "draft":
            return random_draft(state, seat, rng)
        return random_plan(state, seat, rng)

    def own_names(self, state: dict[str, Any], seat: str) -> list[str]:
        """The counties ``seat`` holds: a mistyped county name suggests these first."""
        return sorted(name for name, county in state["counties"].items() if county.get("owner") == seat)

    def private_keys(self, state: dict[str, Any], seat: str) -> list[str]:
        """None: hands equal the public map; see tests/wallenstein/test_leaks.py instead."""
        return []

    def event_view(self, event: dict[str, Any], viewer: str) -> dict[str, Any] | None:
        """Every Wallenstein derived event is public (docs/wallenstein-events.md), except a
        ``ChosenForSeat`` note (rules 1.2 on), which only its seat and the GM see."""
        from adjudicator.wallenstein.notes import visible

        return dict(event) if visible(event, viewer) else None

    def order_view(self, orders: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]]:
        """The orders of an adjudicated season (or draft) are seen by everyone: the season
        carries each plan out in the open (every action with its county, the bids, the bonus
        tiles chosen); the pending season's plans are never shown (the shell withholds them)."""
        return [dict(o) for o in orders]

    def data_files(self) -> dict[str, str]:
        """Data file name -> SHA-256."""
        return data.data_files()


ENGINE = WallensteinEngine()
