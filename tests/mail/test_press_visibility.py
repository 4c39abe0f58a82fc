"""Press is seen by its sender, its recipients and the GM only, in every game.

Each game is run as a GM runs it: ``pbem new``, real MIME mails in a Maildir, ``pbem
ingest``, ``pbem adjudicate``, the mail commands STATUS and REPORT, ``pbem replay --seat``,
``pbem show --seat``, ``pbem export`` and ``pbem log``. The third seat (cis) never sees the
press of anna to ben anywhere: not in any mail it is sent (every part decoded), not in the
outputs for its seat, and not in the archive or the event log.
"""

from __future__ import annotations

import json
import mailbox
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from adjudicator.chance import Chance
from adjudicator.registry import get_engine
from pbem.cli.main import cli
from pbem.loop.service import Service
from pbem.store.db import Store
from turns.games import format_orders

SEATS = {"anna": "anna@example.hu", "ben": "ben@example.org", "cis": "cis@example.cz"}
SECRET = "Zx-secret-offer: Anna gives Ben two grain for peace"
REPLY = "Qw-secret-answer: Ben accepts"
GAMES = [("wallenstein", {}), ("wallenstein", {"expansion": "court"}), ("havoc", {}), ("gods-playground", {})]


def run(db: str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, result.output
    return result.output


def _mail(seat: str, body: str, n: int, subject: str = "orders") -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{seat.title()} <{SEATS[seat]}>"
    msg["To"] = "gm@pbem.example"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime(2026, 1, 1, 9, n, tzinfo=timezone.utc))
    msg["Message-ID"] = f"<{seat}.press.{n}@example.org>"
    msg.set_content(body, charset="utf-8")
    return bytes(msg)


def _texts(raw: bytes) -> str:
    """Every text a mail carries: raw bytes, headers and each decoded part."""
    msg = message_from_bytes(raw, policy=policy.default)
    out = [raw.decode("utf-8", "replace"), *(str(v) for v in msg.values())]
    for part in msg.walk():
        if part.get_content_maintype() == "text":
            out.append(part.get_content())
    return "\n".join(out)


@pytest.mark.parametrize("engine,options", GAMES, ids=lambda v: v if isinstance(v, str) else "+".join(v) or "-")
def test_a_third_seat_never_sees_press(tmp_path, engine, options):
    db = str(tmp_path / "p.db")
    opts = [a for k, v in options.items() for a in ("--option", f"{k}={v}")]
    created = json.loads(run(db, "new", "g1", "--game", engine, "--seed", "press-visibility", "--weak-seed",
                             "--json", *opts, *[a for s, e in SEATS.items() for a in ("--seat", f"{s}={e}")]))
    pw = {s: created["seats"][s]["password"] for s in SEATS}
    game = Service(Store(db)).load("g1")
    turn = game.pending.turn
    pending = list(game.pending.seats)
    mover = pending[0]
    orders = format_orders(engine, get_engine(engine).random_orders(game.state, mover, Chance("b").stream(mover)))
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    # anna -> ben press alone; ben answers; the mover sends orders and press to anna in one mail
    box.add(_mail("anna", f"GAME g1 anna {pw['anna']}\nPRESS TO ben\n{SECRET}\nEND\nEND\n", 1))
    box.add(_mail("ben", f"Hi\nGAME g1 ben {pw['ben']}\nPRESS TO anna\n{REPLY}\nEND\nEND\n", 2))
    other = "ben" if mover == "anna" else "anna"
    box.add(_mail(mover, f"GAME g1 {mover} {pw[mover]}\nTURN {turn}\n{orders}\nPRESS TO {other}\n{SECRET} 2\nEND\n"
                  "END\n", 3))
    out = json.loads(run(db, "ingest", str(tmp_path / "Maildir"), "--json"))
    assert [o["outcome"] for o in out] == ["accepted"] * 3, out
    # cis asks for STATUS and REPORT by mail
    cmd = mailbox.Maildir(tmp_path / "Commands", create=True)
    cmd.add(_mail("cis", "STATUS g1 cis\n", 4, subject="STATUS g1 cis"))
    cmd.add(_mail("cis", "REPORT g1 cis\n", 5, subject="REPORT g1 cis"))
    assert [o["outcome"] for o in json.loads(run(db, "ingest", str(tmp_path / "Commands"), "--json"))] == \
        ["command", "command"]
    run(db, "adjudicate", "g1", "--force")
    store = Store(db)

    mails = {s: "\n".join(_texts(bytes(r["message"])) for r in store.outbox() if r["to_addr"] == a)
             for s, a in SEATS.items()}
    assert SECRET in mails["ben"] and REPLY in mails["anna"]  # the recipients got it...
    assert SECRET not in mails["cis"] and REPLY not in mails["cis"]  # ...the third seat never
    assert SEATS["anna"] not in mails["ben"] and SEATS["ben"] not in mails["anna"]  # no address passed on
    assert any(r["kind"] == "command" for r in store.outbox() if r["to_addr"] == SEATS["cis"])
    assert any(r["kind"] == "reply" for r in store.outbox() if r["to_addr"] == SEATS["cis"]) is False

    seat_outputs = [run(db, "replay", "g1", "--seat", "cis", "--json"), run(db, "show", "g1", "--seat", "cis"),
                    run(db, "press", "g1", "--seat", "cis", "--json")]
    run(db, "report", "g1", "--all", "--out", str(tmp_path / "reports"))
    seat_outputs += [p.read_text(encoding="utf-8", errors="replace") for p in (tmp_path / "reports").rglob("*")
                     if p.is_file() and p.suffix in (".txt", ".html", ".json", ".md", ".svg")]
    assert len(seat_outputs) > 6, "cis's report files were written"
    for text in seat_outputs:
        assert SECRET not in text and REPLY not in text
    assert json.loads(seat_outputs[2])["press"] == []
    # the archive and the event log (both published) never hold press, not even masked mails
    run(db, "export", "g1", "-o", str(tmp_path / "g1.json"))
    archive = (tmp_path / "g1.json").read_text(encoding="utf-8")
    decoded = [_texts(__import__("base64").b64decode(m["raw"])) for m in json.loads(archive)["mails"]]
    assert decoded, "the mixed order+press mail is in the archive (masked)"
    for text in [archive, *decoded, run(db, "log", "g1", "--json")]:
        assert "secret" not in text.lower()
    gm = json.loads(run(db, "press", "g1", "--json"))
    assert sorted(p["from"] for p in gm["press"]) == sorted(["anna", "ben", mover])  # Maildir order may vary
    assert gm["chain_problems"] == []
