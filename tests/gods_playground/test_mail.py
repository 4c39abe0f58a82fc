"""A whole God's Playground game by mail through the shell: one plan mail per seat per
round where nothing unexpected happens, the seat asked when a pre-sent line fails,
hidden plans, replay --verify, export and import."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.base import PUBLIC, canonical_json
from pbem.archives.archive import export_game, import_archive, verify_archive
from pbem.loop.demo import order_mail
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from pbem.store.db import Store

SEATS = ["white", "blue", "red"]
PLAN = """CUBES FIRST Lithuania, Ukraine
BUY PASS
ACTION PASS
ACTION PASS
RECRUIT PASS
CAMPAIGN PASS
COUNTER PASS
BID 0
BID {again}
"""
#: Every seat places the same nobles, so the king is tied every round; all bid 0, and as the
#: tied bid again (rules version 3) each offers a different sum, so the plan decides it.
AGAIN = {"white": 1, "blue": 2, "red": 3}


def _nobles(state, seat: str) -> str:
    hand = sorted(state["hand"][seat], reverse=True)[:6]
    names = ["Royal Prussia", "Lithuania", "Ukraine", "Little Poland", "Greater Poland"]
    return "NOBLES " + ", ".join(f"{n} {v}" for n, v in zip(names, hand[1:])) + f", King {hand[0]}"


def _mail(service, created, seat: str, text: str) -> str:
    game = service.load("gp1")
    raw = order_mail(game, seat, created.passwords[seat], text, service.store.clock(), service.sender)
    return Ingestor(service).ingest(RawMail(raw, f"{seat}.eml")).outcome


@pytest.mark.slow  # a whole game: the long campaigns' marker (CI runs them)
def test_a_whole_game_by_mail(service, tmp_path):
    created = service.new_game("gp1", "gods-playground", [(s, f"{s}@x.org") for s in SEATS], {}, "gp-mail-seed")
    mails: Counter[tuple[int, str]] = Counter()
    planned: set[tuple[int, str]] = set()
    for _ in range(400):
        game = service.load("gp1")
        if game.pending is None:
            break
        rnd = game.state["round"]
        for seat in game.pending.seats:
            if (rnd, seat) not in planned:
                text = ("ESTATE Ukraine OR Lithuania OR Royal Prussia OR Little Poland OR Greater Poland\n" * 3
                        if game.state["phase"] == "estate" else "") + _nobles(game.state, seat) + "\n" \
                    + PLAN.format(again=AGAIN[seat])
                planned.add((rnd, seat))
            else:  # asked: answer the one decision with the default the engine would apply
                from turns.games import format_orders
                text = format_orders("gods-playground", game.engine.default_orders(game.state, seat))
            assert _mail(service, created, seat, text) == "accepted"
            mails[(rnd, seat)] += 1
        service.adjudicate("gp1")
    game = service.load("gp1")
    assert game.pending is None and game.engine.winner(game.state) in SEATS
    assert all(n <= 3 for n in mails.values()), mails
    assert sum(1 for n in mails.values() if n == 1) >= 6, mails  # most rounds: one mail per seat
    assert service.load("gp1", verify=True).state_hash == game.state_hash
    archive = export_game(service.store, "gp1")
    assert verify_archive(archive).ok
    other = Store(tmp_path / "other.db", clock=service.store.clock)
    try:
        assert import_archive(other, archive).ok
    finally:
        other.close()


def test_a_plan_is_hidden_from_the_others_and_a_failed_line_is_reported_to_its_seat(service):
    created = service.new_game("gp1", "gods-playground", [(s, f"{s}@x.org") for s in SEATS], {}, "gp-mail-seed")
    game = service.load("gp1")
    first = game.pending.seats[0]
    assert _mail(service, created, first, "ESTATE Ukraine\nNOBLES Lithuania 5, Ukraine 4, Royal Prussia 3, "
                                          "Little Poland 2, Greater Poland 1, King 0") == "accepted"
    game = service.load("gp1")
    secret = game.engine.private_keys(game.state, first)
    assert secret
    for viewer in [*SEATS, PUBLIC]:
        text = canonical_json(game.engine.view(game.state, viewer))
        if viewer != first:
            assert secret[0] not in text and '"place"' not in text
    # fill Ukraine's row so that a later ESTATE Ukraine line fails
    state = game.state
    for est in state["prov"]["ukraine"]["estates"]:
        est["owner"] = est["owner"] or "blue"
    p = game.engine.pending(state)
    view_first = game.engine.view(state, first)
    view_other = game.engine.view(state, next(s for s in SEATS if s != first))
    assert p.seats == (first,)
    assert "no empty estate in ukraine" in view_first["pending"]["info"]["plan_failed"][first]
    assert "plan_failed" not in view_other["pending"]["info"]
    assert "no empty estate in ukraine" in p.info["plan_failed"]  # the one seat asked: its "your move" mail
    assert game.engine.auto_orders(state, first) is None
