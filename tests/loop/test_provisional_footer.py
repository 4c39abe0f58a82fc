"""The provisional figures as a player reads them in the welcome mail: one plain line and a
short marked list of what they are (`estate rows of Royal Prussia, ...`, `Crécy: 2nd-place
points, cards dealt`, `the seat colours`), no developer detail (`court_troops[1] = {...}`,
`(BGG 224747)`, data file names); the GM's report keeps every figure with its source. A later
player report says it in one line."""

from __future__ import annotations

import pytest

from pbem.store.db import Store
from tests.clirun import run
from tests.loop.mailrun import text

GAMES = {
    "gods-playground": (["white", "blue", "red"], "estate rows of Royal Prussia", "court_troops[1] = "),
    "havoc": (["red", "blue", "green"], "Crécy: 2nd-place points, cards dealt", "BGG 224747"),
    "wallenstein": (["red", "blue", "green"], "the seat colours", "colors (setup.json)"),
}
DEVELOPER = ("court_troops[", "BGG", "provisional:", ".json", "FINDINGS", "fact ", "= [", "= {")


def _footer(mail: str) -> list[str]:
    return mail[mail.index("PROVISIONAL"):].split("\n\n")[0].splitlines()


@pytest.mark.parametrize("engine", list(GAMES))
def test_the_welcome_footer_is_plain_and_the_gm_report_has_the_detail(tmp_path, engine):
    seats, plain, detail = GAMES[engine]
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "g1", "--game", engine, *(a for s in seats for a in ("--seat", f"{s}={s}@example.org")),
        *(["--option", "gaunt=on"] if engine == "havoc" else []))
    welcome = text(next(r for r in Store(db).outbox() if r["kind"] == "welcome"))
    footer = _footer(welcome)
    flat = " ".join(" ".join(footer).split())
    assert footer[0].startswith("PROVISIONAL: ") and plain in flat, footer
    assert not [w for w in DEVELOPER if w in flat], (flat, [w for w in DEVELOPER if w in flat])
    assert "The GM's report lists each with its source." in flat
    assert len([line for line in footer if line.lstrip().startswith("- ")]) <= 12, footer
    run("--db", db, "report", "g1", "--gm", "--out", str(tmp_path / "r"))
    (gm,) = (tmp_path / "r").glob("*/gm/report.txt")
    assert detail in " ".join(gm.read_text(encoding="utf-8").split())


def test_a_later_wallenstein_report_says_it_in_one_line(tmp_path):
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", "--seat", "red=red@example.org",
        "--seat", "blue=ben@example.org", "--seat", "green=cis@example.org")
    for _ in range(2):
        run("--db", db, "adjudicate", "w1", "--force")
    summer = [text(r) for r in Store(db).outbox() if r["kind"] == "report" and "summer 1618" in r["subject"]]
    footer = _footer(summer[0])
    assert len(" ".join(footer).split(". ")) <= 2 and "HELP RULES" in " ".join(footer), footer
