"""A season of games run from one pbem, by mail: players join open games, one goes away and comes
back, one drops out and is replaced by the bot and then by a standby player, a draw is agreed,
a player looks up their record, an observer follows along, and everything replays and verifies.

The season of the fast suite plays the toy game (cheap); the slow one plays Wallenstein and
God's Playground with their reports, maps and bots.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest

from tests.club.helpers import Setup, answers, events, last_answer, status

WATCHER = "watcher@example.org"


def _seat_and_password(setup: Setup, address: str, game_id: str) -> tuple[str, str]:
    welcome = [a for a in answers(setup, address, "welcome") if f"game {game_id}." in a][-1]
    seat = re.search(r"You play the seat '(\w+)'", welcome).group(1)
    return seat, re.search(r"Your password: (\S+)", welcome).group(1)


class Season:
    """The season's players by address: their seats and passwords, read from their welcome mails."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.seats: dict[tuple[str, str], tuple[str, str]] = {}

    def welcome(self, game_id: str, *addresses: str) -> None:
        for address in addresses:
            self.seats[(game_id, address)] = _seat_and_password(self.setup, address, game_id)

    def block(self, game_id: str, address: str, *lines: str) -> None:
        seat, password = self.seats[(game_id, address)]
        self.setup.mail(address, f"{game_id} {seat}", "\n".join([f"GAME {game_id} {seat} {password}", *lines, "END", ""]))

    def seat(self, game_id: str, address: str) -> str:
        return self.seats[(game_id, address)][0]


def _play_season(setup: Setup, clock, engine: str, orders: dict[str, list[str]] | None = None,
                 options: tuple[str, ...] = ("--option", "rounds=6")) -> Season:
    """The season's story in one game ``s1`` of ``engine`` (``orders``: a seat's orders by seat;
    None: the bots write every seat's orders, as GM texts)."""
    season = Season(setup)
    setup.run("new", "s1", "--game", engine, "--open", "--seats", "3", "--option", "disorder_after=2",
              "--deadline-every", "72h", *options)
    for address in ("ann@example.org", "bob@example.org", "cy@example.org", "dee@example.org"):
        setup.mail(address, "LIST", "")
    setup.mail(WATCHER, "OBSERVE s1", "")
    setup.ingest()
    assert "s1: " + engine in last_answer(setup, "dee@example.org")
    for address in ("ann@example.org", "bob@example.org", "cy@example.org", "dee@example.org"):
        setup.mail(address, "JOIN s1", "")
        setup.ingest()  # one at a time: dee comes last (mails of one second may be read in any order)
    assert "waiting list" in last_answer(setup, "dee@example.org")
    season.welcome("s1", "ann@example.org", "bob@example.org", "cy@example.org")

    def send(*addresses: str) -> None:
        """Orders for those of ``addresses`` whose seat is awaited now."""
        awaiting = status(setup, "s1")["awaiting"]
        for address in addresses:
            seat = season.seat("s1", address)
            if seat not in awaiting:
                continue
            if orders is None:
                setup.run("bots", "s1", "--seat", seat)
            else:
                season.block("s1", address, *orders[seat])
        setup.ingest()

    # ann goes away for the first turn and comes back before its deadline, which waited for her
    season.block("s1", "ann@example.org", "ABSENT FOR 5d")
    setup.ingest()
    assert status(setup, "s1")["absences"]
    clock.now += timedelta(days=4)
    season.block("s1", "ann@example.org", "BACK")
    send("ann@example.org", "bob@example.org", "cy@example.org")
    assert "adjudicated" in setup.run("tick")
    # cy drops out: two turns missed in a row, civil disorder, the bot plays; dee (waiting list:
    # the game's standby list) takes over
    cy = season.seat("s1", "cy@example.org")
    for _ in range(12):
        if status(setup, "s1")["bot_played"]:
            break
        send("ann@example.org", "bob@example.org")
        if cy in status(setup, "s1")["awaiting"]:
            clock.now += timedelta(days=4)
        setup.run("tick")
    assert status(setup, "s1")["bot_played"] == {cy: "civil disorder"}
    assert f"seat {cy} is in civil disorder" in last_answer(setup, "ann@example.org", "disorder")
    replaced = json.loads(setup.run("replace", "s1", cy, "--standby", "--json"))
    assert replaced["email"] == "dee@example.org"
    season.welcome("s1", "dee@example.org")
    # the draw is agreed by the three seats playing now
    for address in ("ann@example.org", "bob@example.org", "dee@example.org"):
        season.block("s1", address, "DRAW")
    setup.ingest()
    assert status(setup, "s1")["ended"]["how"] == "draw"
    return season


def _verify_season(setup: Setup, tmp_path) -> None:
    assert "verified" in setup.run("replay", "s1", "--verify")
    archive = tmp_path / "s1.pbem.json"
    setup.run("export", "s1", "-o", str(archive))
    assert "verified" in setup.run("replay", str(archive), "--verify")
    record = last_answer(setup, WATCHER, "final-observer")
    assert "ended in a draw" in record and "civil disorder after 2 missed turns" in record
    setup.mail("ann@example.org", "STATS", "")
    setup.ingest()
    stats = last_answer(setup, "ann@example.org")
    assert "Your figures (ann@example.org)" in stats and "1 drawn" in stats
    rows = {r["player"]: r for r in json.loads(setup.run("players", "--json"))}
    assert rows["cy@example.org"]["results"]["dropped"] == 1 and rows["cy@example.org"]["missed"] == 2
    assert rows["dee@example.org"]["results"]["drawn"] == 1
    assert {e.type for e in events(setup, "s1")} >= {"AbsenceDeclared", "AbsenceEnded", "CivilDisorder",
                                                     "SeatReturned", "DrawVoted", "GameEnded", "ObserverAdded"}


def test_a_season_of_the_toy_game_by_mail(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _play_season(setup, clock, "toy-dice-duel", {s: ["BID 1"] for s in ("red", "blue", "green")})
    _verify_season(setup, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("engine,options", [("wallenstein", ()), ("gods-playground", ())])
def test_a_season_of_a_real_game_by_mail(tmp_path, clock, engine, options):
    setup = Setup(tmp_path, clock)
    _play_season(setup, clock, engine, None, options)
    _verify_season(setup, tmp_path)
    final = last_answer(setup, "ann@example.org", "final")
    assert "How the game ended: The game ended in a draw" in final
    assert "report for the public" in last_answer(setup, WATCHER, "final-observer")  # the final public report
    assert "report for seat" not in last_answer(setup, WATCHER, "final-observer")
    setup.run("site", "s1", "--out", str(tmp_path / "site"))
    index = " ".join((tmp_path / "site" / "index.html").read_text(encoding="utf-8").split())
    assert "in civil disorder after 2 missed turns in a row" in index and "ended in a draw" in index
    if engine == "wallenstein":  # a season ended: its public report went to the observer too
        assert setup.outbox("report-observer", WATCHER)
