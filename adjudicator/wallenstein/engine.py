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
        from adjudicator.sequential import deep_copy
        from adjudicator.wallenstein import setup

        state, events = setup.create(seats, options, seed)
        # the caller's own (the contract's ownership rule): the setup puts parts of the data
        # files in the state (the Imperial Court's cards)
        return deep_copy(state), events

    #: what the reply to accepted draft lines says (rules 1.2 on: they are standing orders)
    standing_note = ("Your DRAFT, GROUPS and REFRESH lines replace your earlier ones and make your pick when it "
                     "comes: the first of your wishes that is face up then, else the top card of the deck if the "
                     "list ends with DECK; otherwise you are asked.")

    def pending(self, state: dict[str, Any]) -> Pending | None:
        """A season plan (all seats at once); the draft: one pick at a time (rules 1.2 on,
        turn ``setup/pick-N``), before it all seats at once (``setup``)."""
        if state["phase"] == "over":
            return None
        draft = state["phase"] == "draft"
        plan = PLAN_FORMS if RELEASES.rule("famine_order") else tuple(f for f in PLAN_FORMS if f != "FAMINE")
        drafting = DRAFT_FORMS + (("REFRESH",) if RELEASES.rule("draft_choices") else ())
        if draft and RELEASES.rule("draft_asked"):
            from adjudicator.wallenstein.draft_asked import on_turn

            info = {"pick": state["draft"]["pick"], "face_up": list(state["draft"]["face_up"])}
            return Pending(seats=(on_turn(state),), turn=turn_label(state), kind="draft", simultaneous=False,
                           forms=drafting, info=info)
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
            return draft_orders.validate_draft(state, seat, orders) or self._pick_problems(state, seat, orders)
        return ords.validate_plan(state, seat, orders)

    @staticmethod
    def _pick_problems(state: dict[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> list[Problem]:
        """Rules 1.2 on: orders for a pick come from the seat whose pick it is, and make it."""
        if not RELEASES.rule("draft_asked"):
            return []
        from adjudicator.wallenstein import draft_asked

        waiting = draft_asked.on_turn(state)
        if seat != waiting:
            return [Problem(None, f"the pick awaited now is {waiting}'s ({turn_label(state)}); your DRAFT lines "
                                  "are kept as standing orders for your picks")]
        why = draft_asked.problem(state, seat, orders)
        return [Problem(None, why)] if why else []

    def default_orders(self, state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
        """The missed-orders policy (money cards everywhere, no bid; blind draft picks)."""
        from adjudicator.wallenstein import orders as ords

        return [dict(o) for o in ords.MISSED]

    def advance(self, state: dict[str, Any], orders: Mapping[str, Sequence[dict[str, Any]]], seed: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Resolve the draft, or the whole season (and winter after autumn)."""
        return self._advance(state, orders, seed, False)

    def advance_owned(self, state: dict[str, Any], orders: Mapping[str, Sequence[dict[str, Any]]],
                      seed: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """:meth:`advance` changing ``state`` itself, which the caller hands over (the engine
        contract's ownership rule, :mod:`adjudicator.base`): the same state and events, without
        the copy of the state (a replay's fold)."""
        return self._advance(state, orders, seed, True)

    def _advance(self, state: dict[str, Any], orders: Mapping[str, Sequence[dict[str, Any]]], seed: str,
                 owned: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from adjudicator.wallenstein import draft, draft_orders, orders as ords, season, setup

        if state["phase"] == "over":
            raise GameError("the game is over")
        pending = self.pending(state)
        assert pending is not None
        missing = [s for s in pending.seats if s not in orders]
        if missing:
            raise GameError(f"orders missing for {', '.join(missing)}")
        for seat in pending.seats:
            problems = self.validate(state, seat, orders[seat])
            if problems:
                raise GameError(f"illegal orders for {seat}: {problems[0].message}")
        if owned:  # as copy_state leaves it: the last advance's log replaced by an empty one
            new = state
            new["log"] = []
        else:
            new = copy_state(state)
        ctx = Ctx(new, Chance(seed), new["year"], new["season"])
        if new["phase"] == "draft" and not pending.simultaneous:  # rules 1.2: one pick
            from adjudicator.wallenstein.draft_asked import step

            if step(ctx, pending.seats[0], orders[pending.seats[0]]):
                setup.start_year(ctx, 1618)
        elif new["phase"] == "draft":
            draft.run_draft(ctx, {s: draft_orders.read_draft(new, orders[s]) for s in new["seats"]})
            setup.start_year(ctx, 1618)
        else:
            season.resolve(ctx, {s: ords.read_plan(orders[s]) for s in new["seats"]})
        new["log"] = ctx.events
        return new, ctx.events

    def report_due(self, state: dict[str, Any], derived_events: Sequence[dict[str, Any]]) -> bool:
        """True but between two picks of the draft (rules 1.2 on): the seats get reports when
        the draft is over and after every season; the seat whose pick comes is mailed its move."""
        return state["phase"] != "draft"

    # -- the draft's standing orders (rules 1.2 on; the shell's hooks) ----------------------------
    def is_standing(self, orders: Sequence[dict[str, Any]]) -> bool:
        """True for a block of draft lines (DRAFT, GROUPS, REFRESH) under rules 1.2 on: they are
        kept and make the seat's picks when they come up (:mod:`draft_asked`)."""
        return bool(RELEASES.rule("draft_asked") and orders) and all(
            isinstance(o, Mapping) and o.get("kind") in ("draft", "groups", "refresh") for o in orders)

    def validate_standing(self, state: dict[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> list[Problem]:
        """The problems of ``seat``'s draft lines sent in advance (names, groups, one REFRESH); the
        lines of the seat whose pick it is must make that pick (it is asked for it)."""
        from adjudicator.wallenstein import draft_orders

        if seat not in state["seats"]:
            return [Problem(None, f"{seat!r} is not a seat of this game")]
        if state["phase"] != "draft" or not RELEASES.rule("draft_asked") or "pick" not in state["draft"]:
            return [Problem(None, "wallenstein has no standing orders but the draft lines of the setup draft "
                                  "(DRAFT, GROUPS, REFRESH; rules 1.2 on)")]
        problems = draft_orders.validate_draft(state, seat, orders)
        if problems:
            return problems
        from adjudicator.wallenstein import draft_asked

        why = draft_asked.problem(state, seat, orders) if draft_asked.on_turn(state) == seat else None
        return [Problem(None, f"it is your pick now, and {why}")] if why else []

    def apply_standing(self, state: dict[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """A new state with ``seat``'s draft lines replaced."""
        from adjudicator.wallenstein import draft_asked

        problems = self.validate_standing(state, seat, orders)
        if problems:
            raise GameError(problems[0].message)
        from adjudicator.sequential import deep_copy

        new = deep_copy(state)  # the last advance's log too: reports read it
        # the lines copied whole: the state shares no part of the orders (the ownership rule)
        draft_asked.apply_standing(new, seat, [deep_copy(dict(o)) for o in orders])
        return new

    def auto_orders(self, state: dict[str, Any], seat: str) -> list[dict[str, Any]] | None:
        """``seat``'s draft lines when they make its pending pick now, else None (it is asked)."""
        if state["phase"] != "draft" or not RELEASES.rule("draft_asked") or "pick" not in state["draft"]:
            return None
        from adjudicator.wallenstein import draft_asked

        return draft_asked.auto_orders(state, seat)

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
