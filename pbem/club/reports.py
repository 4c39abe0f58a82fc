"""The last mails of a game the players ended (a draw, a concession, resignations).

Every seat gets its final report from its own view, the GM the GM's and the public one, each
opening with the sentence that says how the game ended (the report names it too, in its
footer and in "what comes next": :attr:`reports.model.ReportInput.ending`), and with the seed,
now revealed, to check every draw against the commitment. The observers get the public one
(:mod:`pbem.club.observers`).
"""

from __future__ import annotations

from typing import Any

from adjudicator.base import GM, PUBLIC
from pbem.mailout import clubmail as mailing


def rendered(game: Any, service: Any, sentence: str, viewers: list[str]) -> dict[str, Any]:
    """The final report of each of ``viewers`` (None for each: the game has no renderer)."""
    from pbem.mailout import reporting
    from pbem.mailout.turnmail import OPENING
    from reports.render import UnknownGame

    turn = game.turns[-1]["turn"] if game.turns else OPENING
    try:
        history = reporting.history(game.game_id, service.store.events(game.game_id), game.seed)
        made = reporting.render_turn(game, {"turn": turn, "over": True}, history, only=viewers, ending=sentence)
    except UnknownGame:
        return {v: None for v in viewers}
    return {r.viewer: r.rendered for r in made}


def final(service: Any, game: Any, sentence: str, cause_seq: int) -> None:
    """Queue the final report of every seat, the public and the GM (and each observer's)."""
    from pbem.mailout.mailbase import address_of
    from pbem.mailout.notify import queue
    from pbem.mailout.turnmail import compose

    viewers = [*game.seats, PUBLIC, GM]
    reports = rendered(game, service, sentence, viewers)
    intro = [f"Game {game.game_id} is over. {sentence}", "",
             f"The seed, now revealed (check it against the commitment {game.created['commitment']}):",
             f"  {game.seed}"]
    for viewer in viewers:
        to = game.seats[viewer]["email"] if viewer in game.seats else address_of(service.sender)
        if mailing.is_bot_address(to):
            continue
        who = {GM: "GM", PUBLIC: "public"}.get(viewer, viewer)
        out = compose(game, to, f"[{game.game_id}] the game is over: final report for {who}", service.sender,
                      "final" if viewer in game.seats else f"final-{who.lower()}", intro, reports[viewer])
        queue(service.store, game, out, cause_seq=cause_seq)
    if game.club.observers:
        from pbem.club import observers

        observers.final(service, game, intro, reports[PUBLIC], cause_seq)
