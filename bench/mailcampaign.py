"""A mailbox as an attacker and the players fill it: generated mails of every kind, written
into a Maildir, for ``pbem ingest`` to read in one run (the hostile-mail bench rows and the
slow campaign test, tests/test_campaign.py).

:func:`make_games` creates one game of each of the three games; :func:`fill_maildir` writes
``count`` mails into a Maildir and returns each one's category (by Message-ID):

- ``valid``: a seat's orders (a bot's), from its registered address with its password;
- ``forged``: what an impostor can send: a seat's address with a wrong password, a stranger's
  or another seat's address with the right one, a password for another seat;
- ``malformed``: valid mails with bytes flipped, cut short or spliced, odd headers;
- ``command``: mail commands and mails without a GAME block, autoresponders;
- ``hostile``: the kinds of :mod:`bench.hostile`, from strangers and from seats' addresses.

Everything comes from one seeded :class:`random.Random`, so a campaign is made again from its seed.
"""

from __future__ import annotations

import mailbox
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bench import hostile

GAMES = {"w1": ("wallenstein", ["red", "blue", "green", "yellow"]),
         "h1": ("havoc", ["yellow", "red", "black"]),
         "g1": ("gods-playground", ["white", "blue", "red"])}
#: The share of each category among the generated mails.
MIX = {"valid": 0.35, "forged": 0.2, "malformed": 0.2, "command": 0.1, "hostile": 0.15}
#: The seat of each game whose password the forged mails guess at (the other seats are not locked).
VICTIM = {game: seats[-1] for game, (_, seats) in GAMES.items()}
#: The hostile kinds that are megabytes each: at most this many of them in one mailbox.
BIG = {"3 MB base64 body", "2 MB of headers", "just under every limit"}


@dataclass
class Games:
    """The campaign's database and what an honest player of each seat knows."""

    db: Path
    passwords: dict[tuple[str, str], str] = field(default_factory=dict)
    texts: dict[tuple[str, str], str] = field(default_factory=dict)  # a valid order block body per seat

    def address(self, game: str, seat: str) -> str:
        return f"{seat}.{game}@players.example"


def make_games(directory: Path) -> Games:
    """A database with one running game of each game, every seat's password, and one valid
    order text for each seat that owes orders (a heuristic bot's)."""
    from pbem.loop.demo import bot_texts
    from pbem.loop.service import Service
    from pbem.store.db import Store

    out = Games(directory / "campaign.db")
    service = Service(Store(out.db), "gm@pbem.example")
    for game_id, (engine, seats) in GAMES.items():
        created = service.new_game(game_id, engine, [(s, out.address(game_id, s)) for s in seats], {},
                                   f"campaign-{game_id}-0123456789abcdef")
        game = created.game
        awaiting = list(game.pending.seats) if game.pending else []
        for seat, text in bot_texts(game, list(game.seats), "heuristic", awaiting).items():
            out.texts[(game_id, seat)] = text.split("\n", 1)[1]  # without the GAME line
        out.passwords.update({(game_id, s): p for s, p in created.passwords.items()})
    service.store.close()
    return out


def fill_maildir(games: Games, maildir: Path, count: int, seed: str = "campaign", big: int = 60) -> dict[str, str]:
    """Write ``count`` generated mails into ``maildir``; ``{message id: category}``. At most
    ``big`` of them are the multi-megabyte hostile kinds."""
    rng = random.Random(seed)
    box = mailbox.Maildir(maildir, create=True)
    categories: dict[str, str] = {}
    names = list(MIX)
    weights = [MIX[n] for n in names]
    for n, category in enumerate(rng.choices(names, weights, k=count)):
        mid = f"c{n}.{category}"
        if category == "hostile":
            kind = rng.choice([k for k in hostile.KINDS if k not in BIG or big > 0])
            big -= kind in BIG
            raw = _hostile(games, rng, mid, kind)
        else:
            raw = MAKERS[category](games, rng, mid)
        box.add(raw)
        categories[f"<{mid}@campaign.example>"] = category
    return categories


def _message(sender: str, mid: str, subject: str, body: str, headers: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "gm@pbem.example", subject
    msg["Message-ID"] = f"<{mid}@campaign.example>"
    msg["Date"] = format_datetime(datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc))
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return bytes(msg)


def _seat(games: Games, rng: random.Random) -> tuple[str, str]:
    return rng.choice(sorted(games.texts))


def _valid(games: Games, rng: random.Random, mid: str) -> bytes:
    game, seat = _seat(games, rng)
    block = f"GAME {game} {seat} {games.passwords[(game, seat)]}\n{games.texts[(game, seat)]}"
    return _message(f"{seat.title()} <{games.address(game, seat)}>", mid, f"orders {game}", f"Hi GM,\n\n{block}\n-- \n{seat}\n")


def _forged(games: Games, rng: random.Random, mid: str) -> bytes:
    """An impostor's mail: a stranger's or another seat's address with a seat's right password
    (never a password check), or the victim seat's address forged with a wrong password (a
    guess; the victim is locked after a few, the other seats never are)."""
    game, seat = _seat(games, rng)
    text, right = games.texts[(game, seat)], games.passwords[(game, seat)]
    victim = VICTIM[game]
    other = rng.choice([s for g, s in games.passwords if g == game and s != seat])
    wrong = rng.choice([games.passwords[(game, s)] for g, s in games.passwords if g == game and s != victim]
                       + ["zzzz-" + "".join(rng.choice("abcdefghjk") for _ in range(4)) + "-zzzz",
                          games.passwords[(game, victim)][:-1] + "2"])
    sender, target, password = rng.choice([
        (f"mallory{rng.randint(0, 99)}@evil.example", seat, right),
        (games.address(game, other), seat, right),
        (games.address(game, victim), victim, wrong if wrong != games.passwords[(game, victim)] else "zzzz-zzzz-zzzz"),
    ])
    return _message(sender, mid, f"orders {game}", f"GAME {game} {target} {password}\n{text}")


def _malformed(games: Games, rng: random.Random, mid: str) -> bytes:
    raw = bytearray(_valid(games, rng, mid) if rng.random() < 0.7 else _forged(games, rng, mid))
    for _ in range(rng.randint(1, 8)):
        if not raw:
            break
        action = rng.choice(["flip", "insert", "delete", "cut", "header"])
        at = rng.randrange(len(raw))
        if action == "flip":
            raw[at] = rng.randrange(256)
        elif action == "insert":
            raw[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
        elif action == "delete":
            del raw[at:at + rng.randint(1, 40)]
        elif action == "cut":
            del raw[max(at, 40):]
        else:
            raw[0:0] = rng.choice([b"Content-Type: multipart/mixed; boundary=\"\"\n",
                                   b"Content-Transfer-Encoding: base64\n", b"From: <>\n", b"Date: \xff\n",
                                   b"Content-Type: text/plain; charset=bogus\n", b"Subject: =?utf-8?q?=E9=ZZ?=\n"])
    return bytes(raw) or b"\n"


def _command(games: Games, rng: random.Random, mid: str) -> bytes:
    game, seat = _seat(games, rng)
    address = games.address(game, seat)
    subject, body, headers = rng.choice([
        ("REPORT", "", {}), ("HELP", "", {}), ("STATUS", "", {}), ("PASSWORD", "", {}),
        ("thanks", "thanks for the report!", {}),
        ("Automatic reply: your move", "I am away.", {}),
        ("Re: report", "Out of office", {"X-Auto-Response-Suppress": "All"}),
        ("Házon kívül: report", "Szabadságon vagyok.", {}),
    ])
    if rng.random() < 0.2:
        address = f"stranger{rng.randint(0, 99)}@elsewhere.example"
    return _message(address, mid, subject, body or "(no text)", headers)


def _hostile(games: Games, rng: random.Random, mid: str, kind: str) -> bytes:
    game, seat = _seat(games, rng)
    sender = games.address(game, seat) if rng.random() < 0.5 else f"attacker{rng.randint(0, 9)}@evil.example"
    block = f"GAME {game} {seat} {games.passwords[(game, seat)]}"
    raw = hostile.KINDS[kind](sender, mid, game, seat, block)
    return raw.replace(f"<{mid}@attack.example>".encode(), f"<{mid}@campaign.example>".encode(), 1)


MAKERS: dict[str, Any] = {"valid": _valid, "forged": _forged, "malformed": _malformed, "command": _command}


def outcomes_by_category(results: list[dict[str, Any]], categories: dict[str, str]) -> Iterator[tuple[str, str]]:
    """``(category, outcome)`` of each ``pbem ingest --json`` result whose key names a campaign mail."""
    for result in results:
        mid = str(result.get("key", "")).split("#", 1)[0]
        if mid in categories:
            yield categories[mid], result["outcome"]
