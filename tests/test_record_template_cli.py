"""``pbem record template``: the skeleton record printed, written to a file, and as JSON."""

from __future__ import annotations

import json

from tests.clirun import run

ARGS = ["record", "template", "--game", "wallenstein", "--seat", "red", "--seat", "blue", "--seat", "yellow",
        "--option", "expansion=court", "--as", "table-7"]


def test_the_template_printed_written_and_as_json_is_one_text(tmp_path):
    db = str(tmp_path / "t.db")
    printed = run("--db", db, *ARGS)
    assert printed.startswith('[Game "table-7"]\n[Engine "wallenstein"]') and '[Option "expansion=court"]' in printed
    out = tmp_path / "table.txt"
    assert run("--db", db, *ARGS, "-o", str(out)) == f"wrote the skeleton record of table-7 to {out}\n"
    assert out.read_text(encoding="utf-8") == printed
    assert json.loads(run("--db", db, *ARGS, "--json")) == {"game": "table-7", "engine": "wallenstein",
                                                            "output": None, "text": printed}
    again = tmp_path / "again.txt"
    assert json.loads(run("--db", db, *ARGS, "-o", str(again), "--json")) == {
        "game": "table-7", "engine": "wallenstein", "output": str(again), "text": None}
    assert again.read_text(encoding="utf-8") == printed


def test_a_bad_option_or_file_is_one_line_and_writes_nothing(tmp_path):
    db = str(tmp_path / "t.db")
    out = tmp_path / "table.txt"
    said = run("--db", db, *ARGS, "--option", "court", "-o", str(out), code=1)
    assert "the record's [Option 'court'] is not NAME=VALUE" in said and not out.exists()
    said = run("--db", db, *ARGS, "-o", str(tmp_path / "no" / "such" / "dir" / "t.txt"), code=1)
    assert said.startswith("Error: ") and said.count("\n") == 1
