"""A court game by mail through the shell: ``pbem demo --option expansion=court`` (two seasons)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from pbem.cli.main import cli


def test_court_demo_two_seasons_by_mail(tmp_path) -> None:
    out, db = tmp_path / "demo", str(tmp_path / "court.db")
    args = ["--db", db, "demo", "--seats", "3", "--option", "expansion=court", "--out", str(out), "--turns", "2",
            "--no-reports", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["turns"] == ["1618-spring", "1618-summer"] and data["mails"] == 6 and data["verified"]
    mails = "\n".join(p.read_text() for p in (out / "mail").rglob("*.eml"))
    assert re.search(r"^FAVOUR [\d ]+( AT [^\n]+)?$", mails, re.M), "the bots' mails carry FAVOUR lines"
    shown = CliRunner().invoke(cli, ["--db", db, "show", "demo-wallenstein", "--public", "--json"])
    assert shown.exit_code == 0, shown.output
    court = json.loads(shown.output)["court"]
    courtiers = court["courtiers"]
    assert all(sum(c.values()) == 7 for c in courtiers.values())
    assert len(court["display"]) == 3 and court["deck_size"] == 21 - 9
    taken = sum(len(t) for t in court["taken"].values())
    assert taken + len(court["removed"]) == 6, "two seasons' favour cards were taken or removed"
    log = CliRunner().invoke(cli, ["--db", db, "log", "demo-wallenstein", "--json"])
    assert "Audience" in log.output and "FavourCards" in log.output
    replay = CliRunner().invoke(cli, ["--db", db, "replay", "demo-wallenstein", "--verify"])
    assert replay.exit_code == 0 and "reproduced" in replay.output


def test_gm_loads_a_favour_deck_from_a_file(tmp_path) -> None:
    deck = {"source": "test deck", "cards": [{"number": n, "effects": [{"do": "vp", "n": 1}]} for n in range(1, 22)]}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck), encoding="utf-8")
    db = str(tmp_path / "gm.db")
    args = ["--db", db, "new", "g1", "--game", "wallenstein", "--seat", "a=a@x.invalid", "--seat", "b=b@x.invalid",
            "--seat", "c=c@x.invalid", "--option", "expansion=court", "--option", f"favour_json=@{path}"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    view = json.loads(CliRunner().invoke(cli, ["--db", db, "show", "g1", "--public", "--json"]).output)
    assert view["court"]["deck"]["source"] == "test deck"
    assert all(d["text"] == "1 victory point" for d in view["court"]["display"])
    path.write_text(json.dumps({"cards": [{"number": 1, "effects": [{"do": "gold"}]}]}), encoding="utf-8")
    bad = CliRunner().invoke(cli, [*args[:3], "g2", *args[4:]])
    assert bad.exit_code == 1 and "unknown primitive 'gold'" in bad.output and "Traceback" not in bad.output
