"""GM corrections that concern one seat and the mail they cause: replacing a seat's player
(new address, new password, a welcome with the current position) and voiding its orders
(the seat is told; an ACCEPTED reply still unsent is withdrawn)."""

from __future__ import annotations

from typing import Any

from pbem.mailout.deliver import message_of
from pbem.store.events import Game
from pbem.mailout.mailbase import Outgoing, base_message, fold_prose


def withdraw_accepted_reply(store: Any, game: Game, seat: str, message_id: str | None) -> bool:
    """Delete the unsent ACCEPTED reply to the mail ``message_id`` of ``seat`` (inside the
    caller's transaction), when that reply is about this game and seat only. True if one was."""
    if not message_id:
        return False
    addresses = {a.lower() for a in game.seats[seat].get("addresses", [])} | {game.seats[seat]["email"].lower()}
    for row in store.outbox(unsent_only=True):
        if row["kind"] != "reply" or row["to_addr"].lower() not in addresses:
            continue
        msg = message_of(row)
        if str(msg["In-Reply-To"] or "").strip() != message_id.strip():
            continue
        body = msg.get_body(preferencelist=("plain",))
        text = body.get_content() if body is not None else ""
        sections = text.count("ACCEPTED: ") + text.count("REJECTED: ") + text.count("GAME block on line")
        if sections == 1 and f"ACCEPTED: orders for game {game.game_id}, seat {seat}" in text:
            store.db["outbox"].delete(row["id"])
            return True
    return False


def void_notice(game: Game, seat: str, turn: str, reason: str, withdrawn: bool, sender: str) -> Outgoing:
    """The mail telling ``seat`` that the GM voided its orders for ``turn``, in its language."""
    from pbem.mailout.mailbase import format_deadline, speaking_to, turn_words, wrapped
    from reports.i18n import _

    to = game.seats[seat]["email"]
    with speaking_to(game, seat):
        lines = [*wrapped(_("Game {game}: the GM voided your accepted orders for turn {turn}.").format(
                     game=game.game_id, turn=turn)),
                 _("Reason: {reason}").format(reason=reason), ""]
        if withdrawn:
            lines += [*wrapped(_("(The ACCEPTED reply to those orders had not been sent yet and was withdrawn.)")), ""]
        lines += [_("Nothing of them counts now: send new orders before the deadline,"),
                  f"  {format_deadline(game.deadline)}",
                  _("in a block starting with: {line}").format(
                      line=f"GAME {game.game_id} {seat} " + _("<your password>"))]
        subject = _("[{game}] your orders were voided ({turn})").format(game=game.game_id,
                                                                       turn=turn_words(game, turn))
        msg = base_message(game, to, subject, sender, "void")
        msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(to, msg["Subject"], msg, "void")


def seat_left_notice(game: Game, seat: str, old_address: str, new_player: bool, sender: str) -> Outgoing:
    """The mail to a seat's old address when the GM gives the seat another address (and, with
    ``new_player``, another player and password): it no longer plays the seat. The new
    address is not named. In the seat's language (the old player read it)."""
    from pbem.mailout.mailbase import speaking_to, wrapped
    from reports.i18n import _

    with speaking_to(game, seat):
        lines = [*wrapped((_("Game {game}: the GM has given your seat '{seat}' to another player, with a new "
                             "password.") if new_player else
                           _("Game {game}: the GM has given your seat '{seat}' another address.")).format(
                     game=game.game_id, seat=seat)),
                 "",
                 *wrapped(_("This address no longer plays the seat: orders and commands mailed from it are no longer "
                            "accepted for it, and the game's mail for the seat goes elsewhere from now on.")),
                 "",
                 _("If this is a mistake, write to the GM (reply to this mail).")]
        subject = _("[{game}] you no longer play seat {seat}").format(game=game.game_id, seat=seat)
        msg = base_message(game, old_address, subject, sender, "seat")
        msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(old_address, msg["Subject"], msg, "seat")
