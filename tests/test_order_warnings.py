"""An order that will do nothing as the position stands is accepted, with a warning in the
reply (`ATTACKA Schlesien TO Böhmen WITH ALL` from a county with one army)."""

from __future__ import annotations

import json
from email.message import EmailMessage

from click.testing import CliRunner

from pbem.cli.main import cli
from turns.warnings import order_warnings

SEATS = [a for s in ("red", "blue", "yellow") for a in ("--seat", f"{s}={s}@example.org")]


def test_moves_that_cannot_leave_one_behind_are_warned_about():
    state = {"counties": {"Schlesien": {"armies": 1}, "Böhmen": {"armies": 3}, "Kärnten": {"armies": 1}}}
    orders = [{"kind": "action", "action": "attacka", "county": "Schlesien", "to": "Böhmen", "armies": "ALL"},
              {"kind": "action", "action": "attackb", "county": "Böhmen", "to": "Schlesien", "armies": 2},
              {"kind": "action", "action": "recruit1", "county": "Kärnten", "to": "Steiermark", "armies": "ALL"},
              {"kind": "action", "action": "tax", "county": "Böhmen"}]
    warned = order_warnings("wallenstein", state, "red", orders)
    assert len(warned) == 1 and warned[0].startswith("ATTACKA Schlesien TO Böhmen WITH ALL: Schlesien has 1 army")
    orders[1]["armies"] = 3
    assert any(w.startswith("ATTACKB Böhmen TO Schlesien WITH 3") and "at most 2" in w
               for w in order_warnings("wallenstein", state, "red", orders))
    assert order_warnings("havoc", state, "red", orders) == []


def test_the_reply_accepts_and_warns(tmp_path):
    db, run = str(tmp_path / "w.db"), CliRunner()
    created = json.loads(run.invoke(cli, ["--db", db, "new", "w1", "--game", "wallenstein", *SEATS,
                                          "--seed", "warn", "--weak-seed", "--json"]).output)
    view = json.loads(run.invoke(cli, ["--db", db, "show", "w1", "--seat", "red", "--json"]).output)
    mine = sorted(n for n, c in view["counties"].items() if c["owner"] == "red")
    one = mine[0]
    here = view["counties"][one]["armies"]  # sending all of them cannot leave one behind
    others = [n for n in mine if n != one][:5]
    from adjudicator.wallenstein.data import neighbours

    target = neighbours(one, 3)[0]
    lines = [f"ATTACKA {one} TO {target} WITH {here}", *(f"{a} {n}" for a, n in zip(
        ("TAX", "GRAIN", "PALACE", "CHURCH", "TRADE"), others)), "BID 1"]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "red@example.org", "pbem@localhost", "orders"
    msg.set_content(f"GAME w1 red {created['seats']['red']['password']}\n" + "\n".join(lines) + "\nEND\n")
    path = tmp_path / "orders.eml"
    path.write_bytes(bytes(msg))
    outcome = json.loads(run.invoke(cli, ["--db", db, "ingest", str(path), "--json"]).output)
    assert outcome[0]["outcome"] == "accepted", outcome
    replies = [r for r in json.loads(run.invoke(cli, ["--db", db, "outbox", "--json"]).output) if r["kind"] != "welcome"]
    text = run.invoke(cli, ["--db", db, "outbox", "show", str(replies[-1]["id"])]).output
    flat = " ".join(text.split())
    assert "ACCEPTED" in text and f"Warning: ATTACKA {one} TO {target} WITH {here}: {one} has {here} armies" in flat
