"""The God's Playground engine: the contract of :mod:`adjudicator.base` plus plans.

The shell of a sequential engine (the checks every decision shares, ``create``/``advance``
plumbing, the standing-order hooks) is :class:`adjudicator.sequential.SequentialEngine`.
Beyond the protocol the shell uses those hooks: in this game every order block is a plan
for the round (:mod:`adjudicator.gods_playground.plans`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.base import Event, Order, Pending, Problem, State
from adjudicator.gods_playground import board, bots, flow, plans, setup, view
from adjudicator.gods_playground.aftermath import winner_of
from adjudicator.gods_playground.releases import RELEASES
from adjudicator.gods_playground.state import Ctx
from adjudicator.sequential import SequentialEngine


class GodsPlaygroundEngine(SequentialEngine):
    """God's Playground (Martin Wallace, Treefrog 2009), exactly 3 seats."""

    name = "gods-playground"
    releases = RELEASES  # the rules versions (adjudicator/gods_playground/releases.py)
    version = RELEASES.newest.version  # new games; a game keeps its own (adjudicator.versions.pin)
    min_seats = 3
    max_seats = 3
    views = view
    bots = bots
    standing = plans  # every order block is a plan for the round
    #: What the reply to an accepted order block says (pbem/loop/ingest.py).
    standing_note = ("Your orders are your plan for this round: lines of a kind replace your earlier lines of "
                     "that kind, and each is used in order when that decision comes up, if still legal; "
                     "otherwise you are asked.")

    def _setup(self, seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[Event]]:
        """The board set up, waiting for the first starting estate."""
        return setup.create(seats, options, seed)

    def check_options(self, options: Mapping[str, str]) -> list[str]:
        """Every problem of the options, checked when a game is made (``pbem new``) and never
        when one is replayed: unknown options, a GM reading's value, and a board file given as
        ``board_json`` against the rulebook's shape (:mod:`adjudicator.gods_playground.boardcheck`),
        one message per problem."""
        problems = setup.option_problems(options)
        if "board_json" not in options:
            return problems
        from adjudicator.gods_playground.boardcheck import board_problems

        found = [f"board_json: {problem}" for problem in board_problems(options["board_json"])]
        if not found and not problems:
            found = setup.track_problems(options)
        return problems + found

    def _ctx(self, state: State, seed: str, owned: bool = False) -> Ctx:
        """The working copy whose events and chance streams carry the round."""
        return Ctx(state, seed, owned)

    def _settle(self, ctx: Ctx) -> None:  # type: ignore[override]
        """Resolve the phases that need no decision (:func:`adjudicator.gods_playground.flow.settle`)."""
        flow.settle(ctx)

    def pending(self, state: State) -> Pending | None:
        """The decision the game waits for (None when over)."""
        return flow.pending(state)

    def _check(self, state: State, p: Pending, seat: str, orders: list[Order]) -> list[Problem]:
        """The rules of the pending decision (:func:`adjudicator.gods_playground.flow.check`)."""
        return flow.check(state, p, seat, orders)

    def _apply(self, ctx: Ctx, p: Pending, orders: dict[str, list[Order]]) -> None:  # type: ignore[override]
        """Apply the pending decision; the plan lines used are spent (a recruitment's rest
        stays as the seat's next line)."""
        used, rest = flow.apply(ctx, p, orders)
        for seat, order in used.items():
            plans.consume(ctx.s, seat, order, rest.get(seat))

    def report_due(self, state: State, derived_events: Sequence[dict]) -> bool:
        """Reports go out when a round (or the game) has ended; a seat asked in between gets
        the shell's "your move" mail (with the pending info, which names its failed line)."""
        return any(e.get("type") in ("RoundEnded", "GameOver") for e in derived_events)

    def scores(self, state: State) -> dict[str, int]:
        """Victory points per seat."""
        return dict(state["vp"])

    def winner(self, state: State) -> str | None:
        """The winner once the game is over (VP, cubes on the board, money, turn order)."""
        return winner_of(state) if state["over"] else None

    def private_keys(self, state: State, seat: str) -> list[str]:
        """The fingerprint of ``seat``'s unused plan (its hidden nobles and bids)."""
        code = view.secret_code(state, seat)
        return [code] if code else []

    def data_files(self) -> dict[str, str]:
        """The packaged board file and its hash."""
        return board.data_files()


ENGINE = GodsPlaygroundEngine()
