"""A tiny simultaneous game used to test the shell and the contract test without a real engine.

"Dice duel": three rounds; each seat secretly bids 0-3 of its 6 tokens; each seat rolls a
die (seeded) and adds its bid; the highest total scores a point (ties: nobody). Bids are
secret until adjudicated; a seat's remaining tokens are private (its only secret).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import GM, Pending, Problem
from adjudicator.registry import register
from adjudicator.chance import Chance, Stream


class DiceDuel:
    name = "toy-dice-duel"
    version = "1"
    min_seats = 2
    max_seats = 4

    def create(self, seats: Sequence[str], options: Mapping[str, str], seed: str):
        rounds = int(options.get("rounds", 3))
        state = {"round": 1, "rounds": rounds, "seats": {s: {"tokens": 6, "points": 0} for s in seats},
                 "order": list(seats), "log": []}
        return state, [{"type": "Setup", "seats": list(seats)}]

    def pending(self, state):
        if state["round"] > state["rounds"]:
            return None
        return Pending(tuple(state["order"]), f"round-{state['round']}", "bid", True, ("BID",))

    def validate(self, state, seat, orders):
        problems = []
        bids = [o for o in orders if o.get("kind") == "bid"]
        for i, o in enumerate(orders):
            if o.get("kind") == "missed":
                continue
            if o.get("kind") != "bid":
                problems.append(Problem(i, f"unknown order {o.get('kind')!r}"))
            elif not isinstance(o.get("value"), int) or not 0 <= o["value"] <= min(3, state["seats"][seat]["tokens"]):
                problems.append(Problem(i, f"bid must be 0-{min(3, state['seats'][seat]['tokens'])}"))
        if len(bids) > 1:
            problems.append(Problem(None, "only one BID"))
        return problems

    def default_orders(self, state, seat):
        return [{"kind": "missed"}]

    def advance(self, state, orders, seed):
        import copy

        state = copy.deepcopy(state)
        label = self.label(state["round"])
        stream = Chance(seed).stream(label)
        totals, events = {}, []
        for seat in state["order"]:
            bid = next((o["value"] for o in orders[seat] if o.get("kind") == "bid"), 0)
            die = stream.die()
            state["seats"][seat]["tokens"] -= bid
            totals[seat] = bid + die
            events.append({"type": "Roll", "seat": seat, "bid": bid, "die": die, "label": label})
        best = max(totals.values())
        winners = [s for s, t in totals.items() if t == best]
        if len(winners) == 1:
            state["seats"][winners[0]]["points"] += 1
        events.append({"type": "RoundWon", "winner": winners[0] if len(winners) == 1 else None})
        state["log"] = events
        state["round"] += 1
        return state, events

    def label(self, round_number: int) -> str:
        """The chance label of a round's dice."""
        return f"toy/round-{round_number}"

    def view(self, state, viewer):
        seats = {s: {"points": v["points"], **({"tokens": f"{s}:{v['tokens']} tokens"} if viewer in (s, GM) else {})}
                 for s, v in state["seats"].items()}
        return {"game": self.name, "round": state["round"], "seats": seats, "log": state["log"],
                "over": self.pending(state) is None}

    def scores(self, state):
        return {s: v["points"] for s, v in state["seats"].items()}

    def winner(self, state):
        if self.pending(state) is not None:
            return None
        sc = self.scores(state)
        best = max(sc.values())
        top = [s for s, v in sc.items() if v == best]
        return top[0] if len(top) == 1 else None

    def random_orders(self, state, seat, rng: Stream):
        return [{"kind": "bid", "value": rng.below(min(3, state["seats"][seat]["tokens"]) + 1)}]

    def order_view(self, orders, viewer):
        """Bids are shown when the round is rolled: adjudicated orders are public."""
        return [dict(o) for o in orders]

    def private_keys(self, state, seat):
        return [f"{seat}:{state['seats'][seat]['tokens']} tokens"]

    def data_files(self):
        return {}


ENGINE = register(DiceDuel())


def parse(text: str, state: Any):
    from turns.base import LineProblem, ParseResult, strip_comment

    result = ParseResult()
    for n, line in enumerate(text.splitlines(), start=1):
        words = strip_comment(line).split()
        if not words:
            continue
        if words[0].upper() == "BID" and len(words) == 2 and words[1].isdecimal():
            result.add({"kind": "bid", "value": int(words[1])}, n)
        else:
            result.problems.append(LineProblem(n, "expected: BID <0-3>", text=line))
    return result


def format_orders(orders):
    return "\n".join(f"BID {o['value']}" for o in orders if o.get("kind") == "bid")


from turns.base import register_grammar  # noqa: E402

register_grammar(ENGINE.name, parse, format_orders)
