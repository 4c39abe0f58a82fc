"""What the club mails never carries what its reader may not see, in all three games:

- no seat and no observer learns another seat's draw vote before the voting round ends (the
  voter is told; the others' replies, STATUS answers and notices say nothing of it);
- an observer never sees a seat's view: every mail an observer gets (the public report after
  each turn) holds none of what the running game keeps from the public (the secrets of
  ``tests.store.test_running_leaks``: hidden cards, plans, face-down decks, the seed, orders not
  yet adjudicated), and nothing but observer mails reaches the observer.
"""

from __future__ import annotations

import json

import pytest

from pbem.mailout.deliver import message_of
from tests.club.helpers import Setup
from tests.store.test_running_leaks import SEATS, _secrets, _seed

WATCHER = "watcher@example.org"


def _all_text(row) -> str:
    """Every text part (plain and HTML) of an outbox message, decoded."""
    msg = message_of(row)
    return "\n".join(part.get_content() for part in msg.walk() if part.get_content_maintype() == "text")


@pytest.mark.parametrize("game", ["havoc", "gods-playground", "wallenstein"])
def test_no_seat_or_observer_learns_a_vote_early_and_an_observer_sees_only_the_public(tmp_path, clock, game):
    setup = Setup(tmp_path, clock)
    seats = SEATS[game]
    addresses = {s: f"{s}@players.example" for s in seats}
    created = setup.service().new_game("g1", game, list(addresses.items()), {}, seed=_seed(game))
    setup.run("observe", "g1", WATCHER)
    voter, other = seats[0], seats[1]
    setup.mail(addresses[voter], "vote", f"GAME g1 {voter} {created.passwords[voter]}\nDRAW\nEND\n")
    setup.mail(addresses[other], "STATUS", "")
    setup.ingest()
    early = {r["id"]: r for r in setup.outbox()}
    told = [r for r in early.values() if r["to_addr"] == addresses[voter] and r["kind"] == "reply"]
    assert told and "your vote for a draw is recorded" in _all_text(told[0])  # the voter knows (the test can fail)
    for row in early.values():
        if row["to_addr"] in (addresses[voter], "gm@pbem.example"):
            continue
        assert "vote" not in _all_text(row).lower(), (row["to_addr"], row["kind"])
    db = setup.db
    for _ in range(80):  # until the observer got a public report
        if setup.outbox("report-observer", WATCHER):
            break
        awaiting = json.loads(setup.run("status", "g1", "--json"))["awaiting"]
        setup.run("bots", "g1", *[a for s in awaiting for a in ("--seat", s)])
        setup.run("adjudicate", "g1")
    assert setup.outbox("report-observer", WATCHER), "the observer should have got a public report"
    awaiting = json.loads(setup.run("status", "g1", "--json"))["awaiting"]
    setup.run("bots", "g1", "--seat", awaiting[0])  # orders of a turn not adjudicated yet: secret
    secrets = _secrets(db, game)
    mails = setup.outbox(to=WATCHER)
    assert {r["kind"] for r in mails} == {"report-observer"}
    leaks = [(r["subject"], s[:40]) for r in mails for s in secrets if s in _all_text(r)]
    assert not leaks, leaks[:5]
    for row in mails:
        assert f"report for seat" not in _all_text(row) and "report for the public" in _all_text(row)
