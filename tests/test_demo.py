"""The demo in a reduced form (two seasons), so it cannot silently rot."""

from __future__ import annotations

import json
from email import message_from_bytes, policy

from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.store.db import Store


def test_demo_two_seasons_by_mail(tmp_path):
    out = tmp_path / "demo"
    db = str(tmp_path / "demo.db")
    result = CliRunner().invoke(cli, ["--db", db, "demo", "--out", str(out), "--turns", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["turns"] == ["1618-spring", "1618-summer"] and data["mails"] == 8 and data["verified"]
    mails = sorted(p.relative_to(out).as_posix() for p in (out / "mail").rglob("*.eml"))
    assert mails[0] == "mail/1618-spring/black.eml" and len(mails) == 8
    first = message_from_bytes((out / mails[0]).read_bytes(), policy=policy.default)
    assert first["From"].addresses[0].addr_spec == "black@demo.pbem.invalid"
    assert "GAME demo-wallenstein black" in first.get_content()
    index = (out / "index.html").read_text()
    for turn in ("1618-spring", "1618-summer"):
        assert f"reports/{turn}/public/map.png" in index and (out / "reports" / turn / "red" / "report.txt").exists()
    assert {s: v["language"] for s, v in data["seats"].items()} == {"red": "hu", "blue": "de", "yellow": "en",
                                                                     "black": "en"}
    welcome = message_from_bytes((out / "mailboxes" / "red" / "0001-welcome.eml").read_bytes(), policy=policy.default)
    assert welcome["Content-Language"] == "hu" and "A jelszavad:" in welcome.get_body(("plain",)).get_content()
    assert 'href="mailboxes/blue/"' in index
    record = (out / "demo-wallenstein.record.txt").read_text()
    assert "= 1618-summer" in record and "[Seed" not in record  # the game is not over: seed stays secret
    store = Store(db)
    kinds = [row["kind"] for row in store.outbox()]
    assert kinds.count("welcome") == 4 and kinds.count("report") == 8
    assert kinds.count("report-gm") == 2 and kinds.count("report-public") == 2
    result = CliRunner().invoke(cli, ["--db", db, "replay", "demo-wallenstein", "--verify"])
    assert result.exit_code == 0 and "reproduced" in result.output


def test_demo_text_ends_with_the_outbox_and_a_second_demo_is_refused(tmp_path):
    db = str(tmp_path / "text.db")
    args = ["--db", db, "demo", "--out", str(tmp_path / "demo"), "--turns", "1", "--no-reports"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    queued = len(Store(db).outbox(unsent_only=True))
    assert queued and result.output.endswith(f"outbox: {queued} messages queued (see 'pbem --db {db} outbox')\n")
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 1 and again.output == (f"Error: {db} already holds demo-wallenstein; use a fresh --db "
                                                     f"(e.g. rm {db})\n"), again.output
