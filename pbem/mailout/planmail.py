"""What the reply to an order block says about plans (games whose every block is a plan
for the round) and the ``TURN`` line every block may start with."""

from __future__ import annotations

from typing import Any

from pbem.store.events import Game
from reports.i18n import N_, _
from turns.games import format_orders


def split_turn(body: str) -> tuple[str | None, str]:
    """``(label, body)``: the label of the block's optional first line ``TURN <label>``
    (``""`` when the line names none; None without the line) and the body with that line
    blanked, so that line numbers still count the player's lines."""
    lines = body.split("\n")
    first = next((i for i, line in enumerate(lines) if line.split("#", 1)[0].strip()), None)
    if first is None:
        return None, body
    words = lines[first].split("#", 1)[0].split()
    if words[0].upper() != "TURN":
        return None, body
    lines[first] = ""
    return (words[1] if len(words) > 1 else ""), "\n".join(lines)


#: What the reply to accepted orders sent in advance says of them: the engines' own note
#: (``standing_note``, e.g. a round's plan) or this one; each a message of the catalogue.
STANDING_NOTE = N_("Standing orders replace your earlier ones and apply whenever your decisions come up.")
NOTES = (N_("Your orders are your plan for this round: lines of a kind replace your earlier lines of that kind, and "
            "each is used in order when that decision comes up, if still legal; otherwise you are asked."),)


def standing_note(engine: Any) -> str:
    """The engine's note on orders sent in advance, in the current language."""
    return _(getattr(engine, "standing_note", STANDING_NOTE))


def label(game: Game) -> str:
    """What a plan block is called in its reply (``round 2 plan``), in the current language."""
    state = game.state
    rnd = state.get("round") if isinstance(state, dict) else None
    return _("round {n} plan").format(n=rnd) if rnd else _("plan")


def owes(game: Game, seat: str) -> str:
    """What the reply to an accepted plan says ``seat`` still owes, after it was recorded (in
    the current language)."""
    engine = game.engine
    note = _(getattr(engine, "standing_note", "")) if getattr(engine, "standing_note", "") else ""
    pending = game.pending
    if pending is None or seat not in pending.seats:
        return (note + " " + _("You will be mailed if a decision comes up that your plan does not answer.")).strip()
    line = engine.auto_orders(game.state, seat)  # type: ignore[attr-defined]
    if line:
        return (_("Your line {line} answers the decision awaited from you now (turn {turn}) and will be used.")
                .format(line=format_orders(engine.name, line), turn=pending.turn) + " " + note).strip()
    return (_("Still awaited from you: a {form} line for the decision awaited now (turn {turn}); send it with TURN "
              "{turn} or without a TURN line.").format(form=pending.forms[0], turn=pending.turn) + " " + note).strip()
