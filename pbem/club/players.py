"""A player's record across games: games played, results, reliability.

A player is known by their address: every address a seat of a game was registered with. A
player may add a second address by a confirmed mail: ``ADDRESS ADD other@example.org`` from
the known address mails a one-time code to the other address, and ``ADDRESS CONFIRM <code>``
sent from there within a day links the two (``club_links``; the codes are kept as salted
hashes in ``club_codes``). ``ADDRESS`` lists a player's addresses, ``ADDRESS REMOVE <address>``
unlinks one.

The figures are read from the games' logs (the events that still count after rollbacks),
for whoever held a seat at each moment (a seat's address changes with ``SeatChanged``):

- **games**: the games in which the player held a seat; **results** of the games that are
  over: won, drawn (a draw, or a game its rules ended without a single winner), lost,
  resigned, dropped (the seat was in civil disorder at the end, or given to another player),
  abandoned by the GM; games still running;
- **reliability**: the share of the turns awaited from the player that they sent on time
  (their own orders, or orders sent in advance, were there when the turn was adjudicated).
  A turn the missed-orders default was played for counts against it, unless the player was
  away by a declared absence then; a turn the bot played is not counted.

Nothing of it is shown to other players: ``pbem players`` is the GM's, ``STATS`` by mail
answers the sender's own figures only, unless the GM enables the public table (``pbem players
--public-table on``): then ``STATS ALL`` answers every player's figures, each named by the
name they gave in their From (or their address with its name part hidden), never an address.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from pbem.store.clubstate import instant
from pbem.errors import DomainError


def _(message: str) -> str:
    """``message`` in the current language (the catalogue is loaded only when a text is
    written: ``pbem status`` imports this module without the reports package)."""
    from reports.i18n import _ as gettext

    return gettext(message)


def N_(message: str) -> str:
    """A text of the catalogue translated where it is used (``reports.i18n.N_``)."""
    return message


#: How a count of results reads (``3 won``), by result.
RESULT_WORDS = {"won": N_("{n} won"), "drawn": N_("{n} drawn"), "lost": N_("{n} lost"),
                "resigned": N_("{n} resigned"), "dropped": N_("{n} dropped"), "abandoned": N_("{n} abandoned"),
                "playing": N_("{n} playing")}


def results_text(results: dict[str, int]) -> str:
    """``2 won, 1 playing`` in the current language (empty when there are none)."""
    return ", ".join(_(RESULT_WORDS[r]).format(n=n) if r in RESULT_WORDS else f"{n} {r}"
                     for r, n in results.items() if n)

CODE_LIFETIME = timedelta(hours=24)
RESULTS = ("won", "drawn", "lost", "resigned", "dropped", "abandoned", "playing")


@dataclass
class Figures:
    """One player's figures."""

    player: str
    addresses: list[str] = field(default_factory=list)
    name: str | None = None
    games: list[str] = field(default_factory=list)
    results: dict[str, int] = field(default_factory=lambda: {r: 0 for r in RESULTS})
    due: int = 0
    on_time: int = 0
    missed: int = 0
    excused: int = 0
    bot: int = 0

    @property
    def reliability(self) -> float | None:
        """The share of the turns awaited that were sent on time (None: no turn yet)."""
        return round(self.on_time / self.due, 3) if self.due else None

    def as_dict(self, public: bool = False) -> dict[str, Any]:
        """JSON-ready; ``public``: without addresses (the public table)."""
        out = {"player": shown_name(self) if public else self.player, "games": len(self.games),
               "results": dict(self.results), "turns_due": self.due, "on_time": self.on_time, "missed": self.missed,
               "excused": self.excused, "bot_played": self.bot, "reliability": self.reliability}
        if not public:
            out.update(addresses=list(self.addresses), game_ids=list(self.games), name=self.name)
        return out

    def lines(self) -> list[str]:
        """The figures in a few lines (STATS, ``pbem players``)."""
        rel = f"{self.reliability:.0%}" if self.reliability is not None else _("no turn yet")
        done = results_text(self.results) or _("none yet")
        return [_("Games: {n} ({done}).").format(n=len(self.games), done=done),
                _("Turns: {on_time} of {due} sent on time (reliability {rel}); {missed} missed, {excused} missed while "
                  "away by a declared absence, {bot} played by the bot.").format(
                      on_time=self.on_time, due=self.due, rel=rel, missed=self.missed, excused=self.excused,
                      bot=self.bot)]


def shown_name(fig: Figures) -> str:
    """How the public table names a player: the name they gave, else their address half hidden."""
    if fig.name:
        return fig.name
    local, _, domain = fig.player.partition("@")
    return f"{local[:2]}...@{domain}"


# -- addresses ------------------------------------------------------------------------------
def player_of(store: Any, address: str) -> str:
    """The player an address belongs to (its own address when not linked to another)."""
    row = store.conn.execute("select player from club_links where address = ?", [address.strip().lower()]).fetchone()
    return str(row[0]) if row else address.strip().lower()


def addresses_of(store: Any, player: str) -> list[str]:
    """Every address of ``player`` (the player's own first)."""
    rows = store.conn.execute("select address from club_links where player = ? order by address", [player]).fetchall()
    return [player, *(r[0] for r in rows if r[0] != player)]


def _hash(salt: str, code: str) -> str:
    return hmac.new(bytes.fromhex(salt), code.strip().lower().encode(), "sha256").hexdigest()


def ask_link(service: Any, address: str, other: str) -> list[str]:
    """``ADDRESS ADD other`` from ``address``: a code mailed to ``other``; the answer lines."""
    from pbem.store.auth import parse_address
    from pbem.mailout import clubmail as mailing

    address, other = address.strip().lower(), parse_address(other)[1].lower()
    player = player_of(service.store, address)
    if other in addresses_of(service.store, player):
        raise DomainError(_("{address} is one of your addresses already").format(address=other))
    if player_of(service.store, other) != other or _played(service.store, other):
        raise DomainError(_("{address} belongs to another player's record; it cannot be added to yours").format(
            address=other))
    code = "-".join(secrets.token_hex(2) for _ in range(3))
    salt = secrets.token_hex(16)
    now = service.store.clock()
    service.store.conn.execute(
        "insert into club_codes (player, address, salt, code_hash, created_at, expires_at) values (?, ?, ?, ?, ?, ?)",
        [player, other, salt, _hash(salt, code), service.store.now(), (now + CODE_LIFETIME).isoformat()])
    mailing.answer(service, None, other, _("confirm this address"), [
        _("The pbem player {player} asks to add this address ({address}) to their player record.").format(
            player=address, address=other),
        _("If that is you, send this line from this address (as the subject or the first line) within 24 hours:"),
        "", f"ADDRESS CONFIRM {code}", "", _("If it is not you, ignore this mail: nothing changes without it.")])
    return [_("A confirmation code was mailed to {address}. Send the line it gives from that address within 24 "
              "hours to add it to your record; nothing changes until then.").format(address=other)]


def confirm_link(service: Any, address: str, code: str) -> list[str]:
    """``ADDRESS CONFIRM code`` from the address the code was mailed to: the link made."""
    address = address.strip().lower()
    now = service.store.clock()
    rows = service.store.conn.execute(
        "select id, player, salt, code_hash, expires_at from club_codes where address = ? and used_at is null",
        [address]).fetchall()
    for row_id, player, salt, digest, expires in rows:
        if hmac.compare_digest(_hash(salt, code), digest) and instant(expires) >= now:
            service.store.conn.execute("update club_codes set used_at = ? where id = ?", [service.store.now(), row_id])
            service.store.conn.execute("insert or replace into club_links (address, player, confirmed_at) values "
                                       "(?, ?, ?)", [address, player, service.store.now()])
            return [_("{address} is now an address of the player {player}: your figures count the games of "
                      "both.").format(address=address, player=player)]
    raise DomainError(_("that code is not one mailed to this address, or it has expired or been used"))


def unlink(service: Any, address: str, other: str) -> list[str]:
    """``ADDRESS REMOVE other``: ``other`` no longer counts for the sender's player."""
    player = player_of(service.store, address)
    other = other.strip().lower()
    if other == player or other not in addresses_of(service.store, player):
        raise DomainError(_("{address} is not a second address of yours").format(address=other))
    service.store.conn.execute("delete from club_links where address = ?", [other])
    return [_("{address} no longer counts for your record.").format(address=other)]


def _played(store: Any, address: str) -> bool:
    """Whether ``address`` held a seat of any game (then it is a player of its own)."""
    return address in _seat_addresses(store)


def _seat_addresses(store: Any) -> set[str]:
    import json

    out: set[str] = set()
    for row in store.conn.execute("select payload from events where type in ('GameCreated', 'SeatChanged')"):
        payload = json.loads(row[0])
        for seat in payload.get("seats", []) or [payload]:
            if isinstance(seat, dict) and seat.get("email"):
                out.add(str(seat["email"]).lower())
    return out


# -- the figures ----------------------------------------------------------------------------
def figures(store: Any) -> dict[str, Figures]:
    """Every player's figures, by player (their own address), from every game's log."""
    from pbem.store.rollback import live_events

    out: dict[str, Figures] = {}
    for game_id in store.game_ids():
        scan = _Scan(store, game_id, out)
        events = live_events(store.events(game_id))
        for ev in events:
            scan.event(ev)
        scan.results(events)
    return dict(sorted(out.items()))


class _Scan:
    """One game's log read for the players' figures: who holds each seat (a seat's address
    changes with ``SeatChanged``), the absences, where each seat's orders came from."""

    def __init__(self, store: Any, game_id: str, out: dict[str, Figures]) -> None:
        from pbem.mailout.clubmail import is_bot_address

        self.store, self.game_id, self.out, self.is_bot = store, game_id, out, is_bot_address
        self.holders: dict[str, list[str]] = {}  # seat -> every address that held it, in order
        self.absences: dict[str, tuple[str, str]] = {}  # seat -> (from, to)
        self.sources: dict[str, tuple[str, str]] = {}  # seat -> (turn or "standing", source kind)

    def fig(self, address: str, name: str | None = None) -> Figures:
        """The figures of the player of ``address``."""
        player = player_of(self.store, address)
        if player not in self.out:
            self.out[player] = Figures(player, addresses_of(self.store, player))
        if name and not self.out[player].name:
            self.out[player].name = name
        return self.out[player]

    def _holds(self, seat: str, address: str, name: str | None) -> None:
        self.holders.setdefault(seat, []).append(address.lower())
        if not self.is_bot(address):
            f = self.fig(address, name)
            if self.game_id not in f.games:
                f.games.append(self.game_id)

    def event(self, ev: Any) -> None:
        """Take one event of the game's log into account."""
        p = ev.payload
        if ev.type == "GameCreated":
            for s in p["seats"]:
                self._holds(s["name"], s["email"], s.get("display_name"))
        elif ev.type == "SeatChanged" and p.get("email"):
            self._holds(p["seat"], p["email"], p.get("display_name"))
        elif ev.type == "AbsenceDeclared":
            self.absences[p["seat"]] = (p["from"], p["to"])
        elif ev.type == "AbsenceEnded":
            self.absences.pop(p["seat"], None)
        elif ev.type in ("OrdersSubmitted", "StandingOrders") and isinstance(p.get("source"), dict):
            self.sources[p["seat"]] = (p.get("turn", "standing"), str(p["source"].get("kind", "mail")))
        elif ev.type == "TurnAdjudicated" and isinstance(p.get("orders"), dict):
            self._turn(p, instant(ev.recorded_at))

    def _turn(self, p: dict[str, Any], at: Any) -> None:
        """An adjudicated turn: each seat's holder sent its orders on time, missed them (excused
        while away), or the bot played."""
        for seat in p["orders"]:
            address = (self.holders.get(seat) or [None])[-1]
            if address is None or self.is_bot(address):
                continue
            f = self.fig(address)
            source = self.sources.get(seat)
            away = seat in self.absences and instant(self.absences[seat][0]) <= at <= instant(self.absences[seat][1])
            if seat in (p.get("defaulted") or []):
                f.excused += away
                f.missed += not away
                f.due += not away
            elif source is not None and source[1] == "bot" and source[0] in (p["turn"], "standing"):
                f.bot += 1
            else:
                f.on_time += 1
                f.due += 1
        self.sources = {s: v for s, v in self.sources.items() if v[0] != p["turn"]}

    def results(self, events: list[Any]) -> None:
        """Each holder's result in the game."""
        last_turn = next((e.payload for e in reversed(events) if e.type == "TurnAdjudicated"), None)
        ended = next((e.payload for e in events if e.type == "GameEnded"), None)
        abandoned = any(e.type == "GameAbandoned" for e in events)
        disorder: set[str] = set()
        resigned: set[str] = set()
        for e in events:
            if e.type == "CivilDisorder":
                disorder.add(e.payload["seat"])
            elif e.type == "SeatReturned":
                disorder.discard(e.payload["seat"])
                resigned.discard(e.payload["seat"])
            elif e.type == "SeatResigned":
                resigned.add(e.payload["seat"])
        over = ended is not None or abandoned or bool(last_turn and last_turn.get("over"))
        for seat, holders in self.holders.items():
            for n, address in enumerate(holders):
                if self.is_bot(address) or (n < len(holders) - 1 and holders[n + 1] == address):
                    continue
                f = self.fig(address)
                if n < len(holders) - 1:
                    f.results["dropped"] += 1  # the seat went to another player
                else:
                    f.results[_result(seat, over, abandoned, ended, last_turn, disorder, resigned)] += 1


def _result(seat: str, over: bool, abandoned: bool, ended: dict[str, Any] | None, last_turn: dict[str, Any] | None,
            disorder: set[str], resigned: set[str]) -> str:
    if not over:
        return "playing"
    if abandoned:
        return "abandoned"
    if seat in resigned:
        return "resigned"
    if seat in disorder:
        return "dropped"
    if ended is not None:
        winners = list(ended.get("seats") or [])
        if ended["how"] == "draw" or len(winners) > 1:
            return "drawn" if seat in winners else "lost"
        return "won" if seat in winners else "lost"
    winner = (last_turn or {}).get("winner")
    if winner is None:
        return "drawn"
    return "won" if seat == winner else "lost"


# -- the public table ----------------------------------------------------------------------
def public_table(store: Any) -> bool:
    """Whether the GM enabled the public table."""
    row = store.conn.execute("select value from club_settings where key = 'public_table'").fetchone()
    return bool(row) and row[0] == "on"


def set_public_table(store: Any, on: bool) -> None:
    """Enable or disable the public table (a transaction of its own, or a savepoint in the caller's)."""
    with store.transaction():
        store.conn.execute("insert or replace into club_settings (key, value) values ('public_table', ?)",
                           ["on" if on else "off"])


def stats_lines(service: Any, address: str, everyone: bool) -> list[str]:
    """The answer to STATS: the sender's own figures; with ``everyone`` the public table,
    if the GM enabled it."""
    if everyone:
        if not public_table(service.store):
            raise DomainError(_("the GM keeps the players' figures private: STATS answers your own only"))
        rows = sorted(figures(service.store).values(), key=lambda f: (-(f.reliability or 0), shown_name(f)))
        return [_("Every player's figures (the GM made this table public):"), ""] + [_public_row(f) for f in rows]
    player = player_of(service.store, address)
    mine = figures(service.store).get(player)
    if mine is None:
        return [_("No game of this pbem has a seat played from this address. ADDRESS ADD <address> from an address "
                  "that plays links the two.")]
    return [_("Your figures ({addresses}):").format(addresses=", ".join(mine.addresses)), *mine.lines()]


def _public_row(f: Figures) -> str:
    """One player's line of the public table, in the current language."""
    from reports.i18n import ngettext

    games = ngettext("{n} game", "{n} games", len(f.games)).format(n=len(f.games))
    row = f"{shown_name(f)}: " + ", ".join(filter(None, [games, results_text(f.results)]))
    return row + (_("; reliability {rel}").format(rel=f"{f.reliability:.0%}") if f.reliability is not None else "")
