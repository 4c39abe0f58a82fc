"""End to end through the shell: bots play Havoc by mail; a report per battle."""

from __future__ import annotations

import json

from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.loop.service import Service
from pbem.store.db import Store


def test_havoc_demo_by_mail_reports_every_battle(tmp_path):
    out = tmp_path / "demo"
    db = str(tmp_path / "demo.db")
    result = CliRunner().invoke(cli, ["--db", db, "demo", "--game", "havoc", "--seats", "3", "--out", str(out),
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verified"] and data["mails"] > 0
    scores = data["scores"]
    assert set(scores) == {"red", "blue", "green"}
    if data["winner"] is None:  # a documented tie (docs/havoc-rules.md, End): equal on every tie-break
        top = max(scores.values())
        assert sum(1 for v in scores.values() if v == top) > 1
    else:
        assert scores[data["winner"]] == max(scores.values())

    service = Service(Store(db))
    game = service.load("demo-havoc")
    engine = game.engine
    due = [t for t in game.turns if engine.report_due(service.load("demo-havoc", until_turn=t["turn"]).state,
                                                       t["events"])]
    battles = [t for t in due if any(e["type"] in ("Peacekeeper", "FinalBattle") for e in t["events"])]
    assert len(battles) >= 2 and battles[-1]["turn"] == "final/castillon"
    reported = sorted(p.parent.parent.relative_to(out / "reports").as_posix()
                      for p in (out / "reports").rglob("public/report.txt"))
    # a report after every battle, none after small decisions; one folder level per turn
    assert reported == sorted(t["turn"].replace("/", "-") for t in due)
    for t in due:
        state = service.load("demo-havoc", until_turn=t["turn"]).state
        # cards laid into and taken from the face-up recruits before this battle were seen at the
        # table: the reports' public recruiting record names them; every other card stays hidden
        battle = t["turn"].split("/", 1)[0]
        seen = {c["card"] for p in game.turns if p["turn"].split("/", 1)[0] == battle
                for e in p["events"] if e["type"] == "Recruit" for c in e["public"] if c["from"] != "deck"}
        seen |= {e["laid"] for p in game.turns if p["turn"].split("/", 1)[0] == battle
                 for e in p["events"] if e["type"] == "Recruit" and e.get("laid")}  # laid face up
        hands = {s: [c for c in engine.private_keys(state, s) if c not in seen] for s in game.seats}
        base = out / "reports" / t["turn"].replace("/", "-")
        for viewer in [*game.seats, "public", "gm"]:
            for name in ("report.txt", "report.html", "chart.png"):
                assert (base / viewer / name).exists(), base / viewer / name
        for seat in game.seats:
            text = (base / seat / "report.txt").read_text() + (base / seat / "report.html").read_text()
            assert not [c for s, cards in hands.items() if s != seat for c in cards if c in text]
        public = (base / "public" / "report.txt").read_text()
        assert not [c for cards in hands.values() for c in cards if c in public]
    # the demo's seats read Hungarian, German and English (pbem.loop.demo.DEMO_LANGUAGES)
    assert {s: v["language"] for s, v in data["seats"].items()} == {"red": "hu", "blue": "de", "green": "en"}
    final = (out / "reports" / "final-castillon" / "green" / "report.txt").read_text()
    assert "The war is over" in final and "Seed (the game is over" in final
    assert "The war is over" not in (out / "reports" / "final-castillon" / "red" / "report.txt").read_text()
    first = (out / "reports" / due[0]["turn"].replace("/", "-") / "green" / "report.txt").read_text()
    assert "Seed (the game is over" not in first

    _each_reads_only_its_language(out, data["seats"])

    kinds = [row["kind"] for row in Store(db).outbox()]
    assert kinds.count("report") == 3 * len(due)
    assert kinds.count("report-gm") == len(due) and kinds.count("report-public") == len(due)
    replay = CliRunner().invoke(cli, ["--db", db, "replay", "demo-havoc", "--verify"])
    assert replay.exit_code == 0, replay.output


def _each_reads_only_its_language(out, seats) -> None:
    """A whole game by mail: every mail in each seat's mailbox says the seat's language, and
    no Hungarian or German mail carries an English sentence of the English seat's mail of the
    same kind (names and numbers aside)."""
    from email import message_from_bytes, policy

    from tests.i18n.test_shell_languages import english_left

    def mails(seat):
        found = {}
        for path in sorted((out / "mailboxes" / seat).glob("*.eml")):
            msg = message_from_bytes(path.read_bytes(), policy=policy.default)
            assert msg["Content-Language"] == seats[seat]["language"], path
            found.setdefault(path.stem.split("-", 1)[1], []).append(msg.get_body(("plain",)).get_content())
        return found

    english = mails("green")
    names = {*seats, "demo", "havoc", "pbem", "invalid"}
    for seat in ("red", "blue"):
        for kind, texts in mails(seat).items():
            assert kind in english, kind
            left = english_left("\n".join(english[kind]), "\n".join(texts), names)
            assert not left, f"{kind} mails to {seat} still say in English: {left[:5]}"
