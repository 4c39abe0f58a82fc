"""The contract test run against the toy engine (it must pass for every engine)."""

from tests.contract import EngineContract
from tests.toy import ENGINE


class TestToyContract(EngineContract):
    engine = ENGINE
    seat_counts = (2, 4)
    games = 3

    def check_invariants(self, state, seats):
        for seat in seats:
            assert 0 <= state["seats"][seat]["tokens"] <= 6
