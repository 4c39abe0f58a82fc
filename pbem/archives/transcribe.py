"""A transcriber's start: the skeleton record of a game played at a table.

``pbem record template --game GAME --seat red --seat blue --seat yellow`` writes the
headers, the setup's chance lines and the first turn with its seats and chance lines, each
filled with an example outcome (drawn from the seed ``template``, so the skeleton imports as
it is) for the archivist to replace with what happened at the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator import games
from adjudicator.base import GameError
from adjudicator.recorded import RecordingSeed, merged_lines
from adjudicator.registry import get_engine
from pbem.archives.records import option_headers
from pbem.errors import DomainError
from pbem.outfiles import out_file, write_text
from pbem.store.auth import check_game_id, check_seat_name
from turns.record import Record, RecordTurn, write_record

#: What each kind of chance line says (the first word of its outcome); a game's registry entry
#: adds its own hints (``transcribe_hints``).
KINDS = (
    "order A, B, C -- a shuffle: the items in the order they came (those not named follow as listed)",
    "picked X -- one item chosen at random (an event card, a target)",
    "rolled 4 -- a die; 'rolled 4, 6, 1': several dice of one draw, in turn",
    "number 2 -- a plain number drawn",
)

@dataclass(frozen=True)
class TemplateWritten:
    """A skeleton record made by :func:`write_template`: its text, and the file it went to
    (None: it was not written, the caller shows ``text``)."""

    game_id: str
    engine: str
    output: str | None
    text: str

    def as_dict(self) -> dict[str, Any]:
        """What ``pbem record template --json`` prints (the text only when no file was written)."""
        return {"game": self.game_id, "engine": self.engine, "output": self.output,
                "text": self.text if self.output is None else None}


def write_template(engine_name: str, seats: Sequence[str], options: Sequence[str], game_id: str = "table-1",
                   output: str | None = None) -> TemplateWritten:
    """The skeleton record of a game played at a table (:func:`template`) as text, from the
    game options as ``NAME=VALUE``; written to ``output`` when given (a file that cannot be
    written is refused before the work). A bad option, seat or game is a one-line
    :class:`DomainError`."""
    if output is not None:
        out_file(output)  # refused before the work
    text = write_record(template(engine_name, list(seats), option_headers(list(options)), game_id))
    if output is not None:
        write_text(output, text)
    return TemplateWritten(game_id, engine_name, output, text)


def template(engine_name: str, seats: Sequence[str], options: Mapping[str, str], game_id: str = "table-1") -> Record:
    """The skeleton record (headers, notes, setup chance, the first turn to fill in)."""
    try:
        engine = get_engine(engine_name)
    except Exception as exc:  # noqa: BLE001 - an unknown game is one line
        raise DomainError(str(exc)) from None
    check_game_id(game_id)
    seats = [check_seat_name(s) for s in seats]
    seed = RecordingSeed("template")
    try:
        state, _ = engine.create(seats, dict(options), seed)
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise DomainError(f"{engine_name} cannot be set up with these seats and options: {str(exc)[:120]}") from None
    headers = [("Game", game_id), ("Engine", engine.name), ("EngineVersion", engine.version)]
    headers += [("Seat", s) for s in seats] + [("Option", f"{k}={v}") for k, v in sorted(options.items())]
    headers.append(("Chance", "recorded"))
    notes = _notes(engine.name)
    record = Record(headers, notes=notes[:-1] + _setup_notes(engine.name, state) + notes[-1:])
    record.chance = [_trimmed(line, state, engine.name) for line in merged_lines(seed.log)]
    pending = engine.pending(state)
    if pending is not None:  # the first decision, every seat missed: its chance lines as an example
        orders = {s: engine.default_orders(state, s) for s in pending.seats}
        done = len(seed.log)
        engine.advance(state, orders, seed)
        record.turns.append(RecordTurn(pending.turn, {s: None for s in pending.seats},
                                       ["replace each 'missed' by the seat's orders, two spaces in"],
                                       chance=merged_lines(seed.log[done:])))
    return record


def _trimmed(line: str, state: Mapping[str, Any], engine_name: str) -> str:
    """A setup chance line as the game's transcriber writes it (its entry's ``transcribe``
    module may cut a shuffle to the cards the game uses)."""
    module = games.hook(engine_name, "transcribe")
    return str(module.trimmed(line, state)) if module is not None else line


def _setup_notes(engine_name: str, state: Mapping[str, Any]) -> list[str]:
    """What the game's setup lines say, for these seats (its entry's ``transcribe`` module)."""
    module = games.hook(engine_name, "transcribe")
    return list(module.setup_notes(state)) if module is not None else []


def _notes(engine_name: str) -> list[str]:
    lines = ["A game played at a table, transcribed (docs/archivist-guide.md, 'Historical games').",
             "Each CHANCE line is one draw, named in the game's words; the outcomes written here are",
             "an EXAMPLE (drawn from the seed 'template'): replace each with what happened at the table.",
             "Kinds of outcome:", *(f"- {k}" for k in KINDS), *games.info(engine_name).transcribe_hints,
             "Check as you go: pbem import FILE --until TURN names the line of any impossible draw."]
    return lines
