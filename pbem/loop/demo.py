"""The demo: bots play a whole game by mail, end to end, and leave a browsable folder.

Each decision, every bot seat writes its orders in the real order syntax into a real
.eml file (From its seat's address, with its password), which is ingested exactly as a
player's mail would be; then the turn is adjudicated, every report rendered, and at the
end the game is exported, verified and written as a readable record.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import jinja2

from adjudicator.base import GM, PUBLIC, Order, State
from adjudicator.chance import Chance, Stream
from pbem.archives.archive import export_game, verify_archive
from pbem.club.bots import Bot, bot_for
from pbem.errors import DomainError
from pbem.store.events import Game
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from pbem.archives.records import record_of
from pbem.loop.service import Service
from turns.games import format_orders
from turns.record import write_record

SEATS = ("red", "blue", "green", "yellow", "purple", "orange")
DOMAIN = "demo.pbem.invalid"
#: The languages the demo's seats read, in seat order (then English): every mail and report of
#: a seat is in its language (docs/gm-guide.md, "Languages").
DEMO_LANGUAGES = ("hu", "de", "en")


def order_mail(game: Game, seat: str, password: str | None, text: str, when: Any, sender: str) -> bytes:
    """An order mail as a player's client would send it (plain text, UTF-8)."""
    msg = EmailMessage()
    msg["From"] = f"{seat.title()} Bot <{game.seats[seat]['email']}>"
    msg["To"] = sender
    pending = game.pending
    turn = pending.turn if pending else "-"
    msg["Subject"] = f"orders {game.game_id} {turn}"
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = f"<{game.game_id}.{turn.replace('/', '.')}.{seat}@{DOMAIN}>"
    envelope = f"GAME {game.game_id} {seat} {password}" if password else f"GAME {game.game_id} {seat}"
    msg.set_content(f"Hello GM,\n\nmy orders:\n\n{envelope}\n{text}\nEND\n\nregards,\n-- \n{seat} (a pbem bot)\n")
    return bytes(msg)


def bot_texts(game: Game, seats: list[str], kind: str, awaiting: list[str]) -> dict[str, str]:
    """GM order texts (``GAME id seat`` ... ``END``) a bot writes for those ``seats`` that owe orders."""
    pending = game.pending
    if pending is None:
        return {}
    bot = bot_for(game, kind)
    chance = Chance(f"bots:{game.game_id}")
    out = {}
    for seat in seats:
        if seat in awaiting:
            orders = bot(game.state, seat, chance.stream(f"{pending.turn}/{seat}"))
            text = format_orders(game.engine.name, orders)
            # the TURN line makes each turn's text unique (GM texts are keyed by their bytes)
            out[seat] = f"GAME {game.game_id} {seat}\nTURN {pending.turn}\n{text}\nEND\n"
    return out


@dataclass
class DemoResult:
    """What the demo did: the game, where things are, and the outcome."""

    game_id: str
    out: Path
    turns: list[str] = field(default_factory=list)
    mails: int = 0
    winner: str | None = None
    scores: dict[str, int] = field(default_factory=dict)
    verified: bool = False
    files: dict[str, str] = field(default_factory=dict)
    #: Each seat's language and where its mails (.eml, as sent) and reports are.
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The messages in the outbox not sent yet when the demo ended (not in :meth:`as_dict`).
    queued: int = 0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"game": self.game_id, "out": str(self.out), "turns": self.turns, "mails": self.mails,
                "winner": self.winner, "scores": self.scores, "verified": self.verified, "files": self.files,
                "seats": self.seats}


class BotPlayer:
    """Plays the pending decisions of bot seats by writing and ingesting order mails."""

    def __init__(self, service: Service, game_id: str, passwords: dict[str, str | None], kind: str,
                 mail_dir: Path, seed: str) -> None:
        self.service, self.game_id, self.passwords = service, game_id, passwords
        self.kind, self.mail_dir, self.chance = kind, mail_dir, Chance("bots:" + seed)
        self.ingestor = Ingestor(service)
        self.mails = 0

    def play_pending(self) -> None:
        """Each bot seat that owes orders for the pending decision mails them."""
        game = self.service.load(self.game_id)
        pending = game.pending
        if pending is None:
            return
        status = self.service.game_status(game)
        for seat in status["awaiting"]:
            if seat in self.passwords:
                self._mail(game, seat, pending.turn)

    def _mail(self, game: Game, seat: str, turn: str) -> None:
        bot = bot_for(game, self.kind)
        orders = bot(game.state, seat, self.chance.stream(f"{turn}/{seat}"))
        text = format_orders(game.engine.name, orders)
        raw = order_mail(game, seat, self.passwords[seat], text, self.service.store.clock(), self.service.sender)
        path = self.mail_dir / turn.replace("/", "_") / f"{seat}.eml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        outcome = self.ingestor.ingest(RawMail(raw, str(path)))
        self.mails += 1
        if outcome.outcome != "accepted":
            raise DomainError(f"the {self.kind} bot's orders for {seat} in {turn} were {outcome.outcome}: "
                              f"{outcome.reply or outcome.note} ({path})")


def run_demo(service: Service, out: Path, game: str = "", seats: int = 4, seed: str = "pbem-demo-1",
             options: dict[str, str] | None = None, max_turns: int | None = None, bot: str = "heuristic",
             render: Callable[[str, Path], list[Path]] | None = None,
             echo: Callable[[str], None] = lambda _: None,
             languages: tuple[str, ...] = DEMO_LANGUAGES) -> DemoResult:
    """Play a demo game by mail into ``out``; ``render(turn, out)`` writes a turn's reports.
    The seats read ``languages`` in seat order (the rest English)."""
    from adjudicator import games

    game = game or games.names()[0]
    game_id = f"demo-{game}"
    # the game's own seat names (its engine's colours in seat order), so a seat called
    # "yellow" is drawn yellow on the map; else the generic ones
    names = list((games.info(game).seat_names or SEATS)[:seats])
    spoken = {n: code for n, code in zip(names, languages)}
    created = service.new_game(game_id, game, [(n, f"{n}@{DOMAIN}") for n in names], options or {}, seed,
                               languages=spoken)
    passwords: dict[str, str | None] = dict(created.passwords)
    player = BotPlayer(service, game_id, passwords, bot, out / "mail", seed)
    result = DemoResult(game_id, out)
    while (max_turns is None or len(result.turns) < max_turns) and service.load(game_id).pending is not None:
        player.play_pending()
        for payload in service.adjudicate(game_id):
            result.turns.append(payload["turn"])
            echo(f"  {payload['turn']}: adjudicated; scores " +
                 ", ".join(f"{s} {v}" for s, v in payload["scores"].items()))
            if render is not None and _report_turn(service, game_id, payload):
                render(payload["turn"], out / "reports")
            if max_turns is not None and len(result.turns) >= max_turns:
                break
    result.mails = player.mails
    _mailboxes(service, result, out, render is not None)
    _finish(service, result, out)
    result.queued = len(service.store.outbox(unsent_only=True))
    return result


def require_new_demo(store: Any, game: str) -> None:
    """Refuse in one line a database that holds the demo of ``game`` already (a demo plays
    into a fresh one)."""
    if store.game_row(f"demo-{game}") is not None:
        raise DomainError(f"{store.path} already holds demo-{game}; use a fresh --db (e.g. rm {store.path})")


def _mailboxes(service: Service, result: DemoResult, out: Path, reports: bool) -> None:
    """Every mail queued for each seat, as the seat's mail client would get it, in
    ``out/mailboxes/<seat>/`` (numbered in the order they were queued, named by kind)."""
    from pbem.mailout.languages import seat_language

    game = service.load(result.game_id)
    seat_of = {data["email"]: seat for seat, data in game.seats.items()}
    counts = {seat: 0 for seat in game.seats}
    for row in service.store.outbox():
        seat = seat_of.get(row["to_addr"])
        if seat is None or row["game_id"] != result.game_id:
            continue
        counts[seat] += 1
        box = out / "mailboxes" / seat
        box.mkdir(parents=True, exist_ok=True)
        (box / f"{counts[seat]:04d}-{row['kind']}.eml").write_bytes(bytes(row["message"]))
    for seat in game.seats:
        result.seats[seat] = {"language": seat_language(game, seat), "mails": counts[seat],
                              "mailbox": str(out / "mailboxes" / seat),
                              "reports": str(out / "reports" / "*" / seat) if reports else None}


def _report_turn(service: Service, game_id: str, payload: dict[str, Any]) -> bool:
    game = service.load(game_id, until_turn=payload["turn"])
    due = getattr(game.engine, "report_due", None)
    return bool(due(game.state, payload["events"])) if due is not None else True


def _finish(service: Service, result: DemoResult, out: Path) -> None:
    game = service.load(result.game_id)
    result.scores = game.engine.scores(game.state)
    result.winner = game.engine.winner(game.state)
    archive = export_game(service.store, result.game_id)
    archive_path = out / f"{result.game_id}.pbem.json"
    archive_path.write_text(json.dumps(archive, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    record_path = out / f"{result.game_id}.record.txt"
    record_path.write_text(write_record(record_of(game, service.store.events(result.game_id))), encoding="utf-8")
    verification = verify_archive(archive)
    if not verification.ok:
        raise DomainError("the demo's own archive does not verify: " + "; ".join(verification.problems))
    result.verified = verification.ok
    result.files = {"archive": str(archive_path), "record": str(record_path), "index": str(out / "index.html")}
    (out / "index.html").write_text(index_html(game, result, out), encoding="utf-8")


_INDEX = jinja2.Environment(autoescape=True).from_string("""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pbem demo: {{ game.game_id }}</title>
<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}
td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}img{max-width:18em;border:1px solid #ccc}</style>
</head><body>
<h1>pbem demo: {{ game.engine.name }} game {{ game.game_id }}</h1>
<p>{{ result.mails }} order mails were written by bots, ingested, validated and adjudicated over
{{ result.turns|length }} turns. Winner: <b>{{ result.winner or "none" }}</b>.
Scores: {% for s, v in result.scores.items() %}{{ s }} {{ v }}{% if not loop.last %}, {% endif %}{% endfor %}.</p>
<p>Archive (verified: {{ "yes" if result.verified else "no" }}): <a href="{{ archive }}">{{ archive }}</a>;
readable record: <a href="{{ record }}">{{ record }}</a>; the order mails: <a href="mail/">mail/</a>.</p>
<h2>Each seat reads its own language</h2>
<table><tr><th>seat</th><th>language</th><th>its mails, as sent (.eml)</th></tr>
{% for seat, info in result.seats.items() %}<tr><td>{{ seat }}</td><td>{{ info.language }}</td>
<td><a href="mailboxes/{{ seat }}/">mailboxes/{{ seat }}/</a> ({{ info.mails }} mails)</td></tr>
{% endfor %}</table>
<h2>Reports, turn by turn (each seat's in its language)</h2>
<table><tr><th>turn</th><th>public map</th>{% for v in viewers %}<th>{{ v }}</th>{% endfor %}</tr>
{% for turn in turns %}<tr><td>{{ turn }}</td>
<td>{% if maps[turn] %}<a href="{{ maps[turn] }}"><img src="{{ maps[turn] }}" alt="map after {{ turn }}"></a>{% endif %}</td>
{% for v in viewers %}<td>{% if links[turn][v] %}<a href="{{ links[turn][v] }}">report</a>{% endif %}</td>{% endfor %}</tr>
{% endfor %}</table></body></html>
""")


def index_html(game: Game, result: DemoResult, out: Path) -> str:
    """The demo's index page linking every turn's public map and each viewer's report."""
    from pbem.outfiles import turn_dir
    viewers = [*game.seats, "public", "gm"]
    reports = out / "reports"
    turns = [t for t in result.turns if (reports / turn_dir(t)).exists()]
    maps, links = {}, {}
    for turn in turns:
        base = reports / turn_dir(turn)
        maps[turn] = _rel(base / "public" / "map.png", out)
        links[turn] = {v: _rel(base / v / "report.html", out) for v in viewers}
    return _INDEX.render(game=game, result=result, viewers=viewers, turns=turns, maps=maps, links=links,
                         archive=Path(result.files["archive"]).name, record=Path(result.files["record"]).name)


def _rel(path: Path, out: Path) -> str | None:
    return str(path.relative_to(out)) if path.exists() else None


__all__ = ["run_demo", "BotPlayer", "bot_for", "order_mail", "DemoResult", "GM", "PUBLIC"]


def play_bots(service: Service, game_id: str, seats: Sequence[str], bot: str, out: Path | None = None) -> list[dict[str, str]]:
    """A bot (``heuristic`` or ``random``) writes the pending orders of ``seats`` as a GM's order
    text, ingested like any the GM types; each text is also written into ``out`` (a folder that
    cannot be written is refused before the bots play). Per seat that owed orders: its
    ``seat``, the ``outcome`` and the ``orders`` text. Orders a seat does not get accepted, an
    unknown seat, or no seat owing orders is a :class:`DomainError`."""
    from pbem.outfiles import out_dir, write_text

    game = service.load(game_id)
    for seat in seats:
        if seat not in game.seats:
            raise DomainError(f"no seat {seat!r} in {game_id}")
    if out is not None:
        out_dir(str(out))  # refused before the bots play
    texts = bot_texts(game, list(seats), bot, service.status(game_id)[0]["awaiting"])
    results = []
    for seat, text in texts.items():
        if game.rollbacks:  # a replayed turn: new bytes, so the set-aside text is not a duplicate of it
            text = f"Orders by the {bot} bot for {game.mail_key(game.pending.turn)}\n\n{text}"  # type: ignore[union-attr]
        if out is not None:
            write_text(out / f"{game_id}.{game.pending.turn.replace('/', '_')}.{seat}.txt", text)  # type: ignore[union-attr]
        outcome = Ingestor(service).ingest(RawMail(text.encode("utf-8"), f"bot:{seat}"))
        results.append({"seat": seat, "outcome": outcome.outcome, "orders": text})
        if outcome.outcome != "accepted":
            raise DomainError(f"the bot's orders for {seat} were {outcome.outcome}: {outcome.reply or outcome.note}")
    if not results:
        raise DomainError(f"none of {', '.join(seats)} owes orders in {game_id} now")
    return results
