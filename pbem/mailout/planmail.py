"""What the reply to an order block says about plans (games whose every block is a plan
for the round, God's Playground) and the ``TURN`` line every block may start with."""

from __future__ import annotations

from pbem.store.events import Game
from turns.base import format_orders


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


def label(game: Game) -> str:
    """What a plan block is called in its reply (``round 2 plan``)."""
    state = game.state
    rnd = state.get("round") if isinstance(state, dict) else None
    return f"round {rnd} plan" if rnd else "plan"


def owes(game: Game, seat: str) -> str:
    """What the reply to an accepted plan says ``seat`` still owes, after it was recorded."""
    engine = game.engine
    note = getattr(engine, "standing_note", "")
    pending = game.pending
    if pending is None or seat not in pending.seats:
        return (note + " You will be mailed if a decision comes up that your plan does not answer.").strip()
    line = engine.auto_orders(game.state, seat)  # type: ignore[attr-defined]
    if line:
        return (f"Your line {format_orders(engine.name, line)} answers the decision awaited from you now "
                f"(turn {pending.turn}) and will be used. {note}").strip()
    return (f"Still awaited from you: a {pending.forms[0]} line for the decision awaited now (turn "
            f"{pending.turn}); send it with TURN {pending.turn} or without a TURN line. {note}").strip()
