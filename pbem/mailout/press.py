"""Press between seats: ``PRESS TO blue`` ... ``END`` inside a GAME block, relayed by the GM.

Players negotiate through the service without exchanging addresses. A press
block of an authenticated GAME block (:class:`turns.envelope.Press`) is checked against
the game's press rules, recorded in the game's press log and relayed: one mail per
recipient, from the GM's address, naming the sender seat (or nobody, in a grey game).

The press log is a service log kept beside the game's event log, never in it: the event
log is what archives, records and sites publish, and press is private to its sender, its
recipients and the GM, during the game and after it. Each game's press log has its own
hash chain (``prev_hash``/``hash`` as the event log), so that a changed or removed press
row is detected (:func:`verify`). Engine views never see press.

Game options (``pbem new ... --option press=grey``), kept in ``GameCreated`` under
``press`` (not among the engine's options):

- ``press``: ``on`` (private and public press, sender named; the default), ``public``
  (only ``PRESS TO ALL``), ``grey`` (anonymous: recipients are not told the sender, nor the
  other recipients' names, since the sender is the one seat such a list leaves out; the GM
  is told everything), ``off`` (refused with a reply saying so);
- ``press_size``: the most bytes (UTF-8) of one press text, default 8192;
- ``press_count``: the most press blocks one seat may send per turn, default 10. A turn
  reopened by ``pbem rollback`` is played afresh, and so is its limit: each press row notes
  the game's number of rollbacks when it was relayed (``rollbacks``), and only the press
  sent since the last rollback counts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adjudicator.base import canonical_json
from pbem.errors import DomainError
from pbem.store.events import Game
from pbem.store.db import Store

if TYPE_CHECKING:  # the mail and order-mail packages are imported where press is relayed
    from pbem.mailout.mailbase import Outgoing
    from turns.envelope import Press

MODES = ("on", "public", "grey", "off")
OPTION_KEYS = ("press", "press_size", "press_count")
DEFAULTS = {"mode": "on", "max_bytes": 8192, "per_turn": 10}
KIND = "press"
GENESIS = "0" * 64


@dataclass(frozen=True)
class Rules:
    """The press rules of one game."""

    mode: str = "on"
    max_bytes: int = 8192
    per_turn: int = 10

    def as_dict(self) -> dict[str, Any]:
        """The form kept in ``GameCreated``."""
        return {"mode": self.mode, "max_bytes": self.max_bytes, "per_turn": self.per_turn}


def shown_word(word: str) -> str:
    """:func:`turns.envelope.shown_word` (imported when a refusal quotes a word)."""
    from turns.envelope import shown_word as shown

    return shown(word)


def split_options(options: Mapping[str, str]) -> tuple[dict[str, str], dict[str, Any] | None]:
    """The engine's options and the press rules (None when no press option is given) of
    the ``--option`` pairs of ``pbem new``; a bad press option is a :class:`DomainError`."""
    engine = {k: v for k, v in options.items() if k not in OPTION_KEYS}
    if not any(k in options for k in OPTION_KEYS):
        return engine, None
    mode = str(options.get("press", "on")).strip().lower()
    if mode not in MODES:
        raise DomainError(f"option press={shown_word(mode)!r}: choose one of {', '.join(MODES)}")
    rules = Rules(mode, _positive(options, "press_size", DEFAULTS["max_bytes"]),
                  _positive(options, "press_count", DEFAULTS["per_turn"]))
    return engine, rules.as_dict()


def _positive(options: Mapping[str, str], key: str, default: int) -> int:
    if key not in options:
        return default
    try:
        value = int(str(options[key]).strip())
    except ValueError:
        value = 0
    if value < 1:
        raise DomainError(f"option {key}={shown_word(str(options[key]))!r}: give a whole number of at least 1")
    return value


def rules_of(game: Game) -> Rules:
    """The press rules of ``game`` (games created without press options: the defaults)."""
    kept = game.created.get("press") or {}
    return Rules(kept.get("mode", "on"), int(kept.get("max_bytes", 8192)), int(kept.get("per_turn", 10)))


def welcome_lines(game: Game) -> list[str]:
    """What the welcome mail says about press in ``game`` (nothing when press is off)."""
    mode = rules_of(game).mode
    if mode == "off":
        return []
    import textwrap

    from pbem.mailout.mailbase import WIDTH
    from reports.i18n import _

    how = {"on": _("'PRESS TO <seat>, <seat>' or 'PRESS TO ALL'"),
           "public": _("'PRESS TO ALL' (only public press in this game)"),
           "grey": _("'PRESS TO <seat>, <seat>' or 'PRESS TO ALL' (anonymous in this game: recipients are not "
                     "told who sent it)")}[mode]
    text = _("Messages to other seats (press): put a block {how}, your text, then END, inside your GAME block "
             "(before its own END). The service relays it without passing on any address.").format(how=how)
    return [*textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False), ""]


# -- checking ---------------------------------------------------------------------------
def recipients(game: Game, seat: str, press: Press, rules: Rules) -> list[str]:
    """The seats ``press`` from ``seat`` goes to, in seating order; a :class:`DomainError`
    saying why when it may not be relayed (the reply shows it)."""
    if rules.mode == "off":
        raise DomainError(f"press is off in game {game.game_id}; nothing was relayed")
    if not press.to:
        raise DomainError("the PRESS line names no seat; write PRESS TO <seat>, <seat> or PRESS TO ALL")
    others = [s for s in game.seats if s != seat]
    if press.to_all:
        return others
    if rules.mode == "public":
        raise DomainError(f"game {game.game_id} allows only public press; write PRESS TO ALL")
    by_name = {s.lower(): s for s in game.seats}
    unknown = [w for w in press.to if w.lower() not in by_name and w.upper() != "ALL"]
    if unknown:
        raise DomainError(f"no seat {', '.join(repr(shown_word(w)) for w in unknown[:5])} in game "
                          f"{game.game_id} (seats: {', '.join(game.seats)}); nothing was relayed")
    if any(w.upper() == "ALL" for w in press.to):
        raise DomainError("write PRESS TO ALL alone, or name the seats; nothing was relayed")
    wanted = {by_name[w.lower()] for w in press.to} - {seat}
    if not wanted:
        raise DomainError("the PRESS line names only your own seat; nothing was relayed")
    return [s for s in others if s in wanted]


def check_text(press: Press, rules: Rules) -> None:
    """Refuse an empty or too long press text (:class:`DomainError`)."""
    if not press.text.strip():
        raise DomainError("the PRESS block holds no text; nothing was relayed")
    size = len(press.text.encode("utf-8"))
    if size > rules.max_bytes:
        raise DomainError(f"the press text has {size} bytes, more than the {rules.max_bytes} this game "
                          "allows; shorten it or split it; nothing was relayed")


def sent_this_turn(store: Store, game: Game, seat: str, turn: str) -> int:
    """How many press messages ``seat`` has sent in ``turn`` since the game's last rollback
    (press sent in a turn before a rollback reopened it does not count toward its limit)."""
    row = store.conn.execute("select count(*) from press where game_id = ? and sender = ? and turn = ? "
                             "and coalesce(rollbacks, 0) = ?",
                             [game.game_id, seat, turn, len(game.rollbacks)]).fetchone()
    return int(row[0])


def status_fields(store: Store, game: Game) -> dict[str, Any]:
    """The press part of ``pbem status``: the game's press rules and, while a turn is
    pending, how many press messages each seat has sent in it (toward ``per_turn``)."""
    pending = game.pending
    sent = {seat: sent_this_turn(store, game, seat, pending.turn) for seat in game.seats} if pending else {}
    return {"press": {**rules_of(game).as_dict(), "sent_this_turn": sent}}


# -- recording and relaying -----------------------------------------------------------
def relay(store: Store, game: Game, seat: str, press: Press, key: str, source: Mapping[str, Any],
          sender: str) -> tuple[list[str], bool]:
    """Check, record and queue the relay of ``press`` from ``seat`` (inside the caller's
    transaction). Returns the recipient seats and whether it was relayed before (the same
    mail ingested again: nothing new is queued). A :class:`DomainError` says why not."""
    found = store.conn.execute("select recipients from press where key = ?", [key]).fetchone()
    if found:
        return list(json.loads(found[0])), True
    if game.pending is None:
        raise DomainError(f"game {game.game_id} is over; press is closed")
    rules = rules_of(game)
    to = recipients(game, seat, press, rules)
    check_text(press, rules)
    turn = game.pending.turn
    if sent_this_turn(store, game, seat, turn) >= rules.per_turn:
        raise DomainError(f"you have sent {rules.per_turn} press messages in turn {turn}, the most this game "
                          "allows per turn; nothing was relayed")
    row = _record(store, game.game_id, {
        "key": key, "turn": turn, "sender": seat, "recipients": json.dumps(to), "to_all": int(press.to_all),
        "grey": int(rules.mode == "grey"), "text": press.text, "bytes": len(press.text.encode("utf-8")),
        "mail_key": source.get("mail_key"), "message_id": source.get("message_id"),
        "rollbacks": len(game.rollbacks)})
    for name in to:  # queued as pbem.mailout.notify.queue does (notify imports this module, not the reverse)
        out = relay_message(game, name, row, sender)
        store.enqueue(game.game_id, out.to, out.subject, bytes(out.message), out.kind, str(out.message["Message-ID"]))
    return to, False


_CHAINED = ("game_id", "seq", "key", "turn", "sender", "recipients", "to_all", "grey", "text", "bytes",
            "mail_key", "message_id", "recorded_at", "prev_hash")


def _record(store: Store, game_id: str, fields: dict[str, Any]) -> dict[str, Any]:
    last = store.conn.execute("select seq, hash from press where game_id = ? order by seq desc limit 1",
                            [game_id]).fetchone()
    row = {"game_id": game_id, "seq": (last[0] if last else 0) + 1, **fields, "recorded_at": store.now(),
           "prev_hash": last[1] if last else GENESIS}
    row["hash"] = row_hash(row)
    store._insert_row("press", row)
    return row


def row_hash(row: Mapping[str, Any]) -> str:
    """The chain hash of a press row: SHA-256 of the canonical JSON of its fields."""
    fields = {k: row.get(k) for k in _CHAINED}
    if row.get("rollbacks"):  # chained once non-zero; rows from before the column hash as they did
        fields["rollbacks"] = row["rollbacks"]
    return hashlib.sha256(canonical_json(fields).encode("utf-8")).hexdigest()


def relay_message(game: Game, seat: str, row: Mapping[str, Any], sender: str) -> Outgoing:
    """The mail relaying a press row to ``seat``: from the GM's address, naming the sender
    seat unless the game is grey; the player's text only in the body (built with the
    stdlib ``email`` package, so nothing of it can reach a header)."""
    from pbem.mailout.mailbase import speaking_to

    with speaking_to(game, seat):
        return _relay_message(game, seat, row, sender)


def _relay_message(game: Game, seat: str, row: Mapping[str, Any], sender: str) -> Outgoing:
    from pbem.mailout.mailbase import Outgoing, base_message, wrapped
    from reports.i18n import _

    grey = bool(row["grey"])
    to = json.loads(row["recipients"])
    who = _("an anonymous seat") if grey else _("seat {seat}").format(seat=row["sender"])
    audience = _("every seat") if row["to_all"] else _shown_recipients(to, seat) if grey else ", ".join(to)
    subject = (_("[{game}] press (anonymous) to all") if grey and row["to_all"] else
               _("[{game}] press (anonymous)") if grey else
               _("[{game}] press from {seat} to all") if row["to_all"] else
               _("[{game}] press from {seat}")).format(game=game.game_id, seat=row["sender"])
    answer = (_("The sender is not named in this game (grey press); the GM knows who it is.")
              if grey else _("To answer, put a block 'PRESS TO {seat}' ... 'END' inside your GAME block (see the "
                             "press section of the order-mail guide).").format(seat=row["sender"]))
    lines = [*wrapped(_("Press in game {game}, turn {turn}, from {who} to {audience}:").format(
                 game=game.game_id, turn=row["turn"], who=who, audience=audience)), "",
             *row["text"].split("\n"), "", "-" * 40,
             *wrapped(_("Relayed by the game master's service; no address was passed on."), answer)]

    msg = base_message(game, game.seats[seat]["email"], subject, sender, KIND)
    from pbem.mailout.mailbase import fold_prose

    msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(game.seats[seat]["email"], subject, msg, KIND)


def _shown_recipients(to: list[str], reader: str) -> str:
    """Who got a grey press, as its reader ``reader`` is told: the reader and how many others,
    never their names (the sender is the one seat a list leaves out)."""
    others = len(to) - 1
    return "you" + (f" and {others} other seat{'s' if others > 1 else ''}" if others > 0 else "")


# -- reading -----------------------------------------------------------------------------
def rows(store: Store, game_id: str) -> list[dict[str, Any]]:
    """Every press row of ``game_id`` in order (the GM's view)."""
    return store.rows("select * from press where game_id = ? order by seq", [game_id])


def visible(store: Store, game_id: str, viewer: str | None) -> list[dict[str, Any]]:
    """The press ``viewer`` may see: the GM (None) all of it with senders; a seat only what
    it sent or received, the sender hidden in grey press it received."""
    out = []
    for row in rows(store, game_id):
        to = json.loads(row["recipients"])
        if viewer is not None and viewer != row["sender"] and viewer not in to:
            continue
        hidden = viewer is not None and viewer != row["sender"] and bool(row["grey"])
        item = {"seq": row["seq"], "turn": row["turn"], "from": None if hidden else row["sender"],
                "to": "ALL" if row["to_all"] else to, "grey": bool(row["grey"]), "text": row["text"],
                "recorded_at": row["recorded_at"]}
        if hidden and not row["to_all"]:  # the other recipients' names would give the sender away
            item["to"], item["others"] = [viewer], len(to) - 1
        out.append(item)
    return out


def verify(store: Store, game_id: str) -> list[str]:
    """Problems of the press log's hash chain of ``game_id`` (empty: intact)."""
    problems, prev = [], GENESIS
    for n, row in enumerate(rows(store, game_id), 1):
        if row["seq"] != n:
            problems.append(f"press {n} is missing (found {row['seq']})")
        if row["prev_hash"] != prev:
            problems.append(f"press {row['seq']}: does not follow the press before it")
        if row_hash(row) != row["hash"]:
            problems.append(f"press {row['seq']}: changed after it was recorded")
        prev = row["hash"]
    return problems


@dataclass(frozen=True)
class PressLog:
    """The press of a game as one reader may see it (``pbem press``), and the breaks in the
    press log's hash chain (none: intact)."""

    items: list[dict[str, Any]]
    chain_problems: list[str]


def press_log(store: Store, game_id: str, seat: str | None = None) -> PressLog:
    """The press of ``game_id`` the GM sees (``seat`` None) or ``seat`` sent or received (grey
    senders hidden), with the press log checked; an unknown game or seat is a one-line
    :class:`DomainError`."""
    store.require_game(game_id)
    seats = [s["name"] for s in store.events(game_id, until=1)[0].payload["seats"]]
    if seat is not None and seat not in seats:
        raise DomainError(f"no seat {seat!r} in {game_id} (seats: {', '.join(seats)})")
    return PressLog(visible(store, game_id, seat), verify(store, game_id))
