"""The readable record says each chance outcome in words, not raw JSON."""

from click.testing import CliRunner

from pbem.cli.main import cli
from turns.record import read_record


def test_chance_notes_are_sentences_and_the_record_still_imports(tmp_path):
    db, run = str(tmp_path / "r.db"), CliRunner()
    seats = [a for s in ("red", "blue", "yellow") for a in ("--seat", f"{s}={s}@example.org")]
    assert run.invoke(cli, ["--db", db, "new", "w1", "--game", "wallenstein", *seats, "--seed", "notes", "--weak-seed"]).exit_code == 0
    for _ in range(12):
        run.invoke(cli, ["--db", db, "bots", "w1", "--seat", "red", "--seat", "blue", "--seat", "yellow"])
        run.invoke(cli, ["--db", db, "adjudicate", "w1"])
    out = tmp_path / "w1.txt"
    assert run.invoke(cli, ["--db", db, "export", "w1", "--format", "record", "-o", str(out)]).exit_code == 0
    text = out.read_text(encoding="utf-8")
    chance = [line for line in text.splitlines() if line.startswith("; chance ")]
    assert len(chance) > 20
    assert not [line for line in chance if "{" in line or '"' in line]
    assert any(": Event of the season: " in line for line in chance)
    assert any(": Battle for " in line for line in chance)
    assert read_record(text).turns
    result = run.invoke(cli, ["--db", str(tmp_path / "b.db"), "import", str(out)])
    assert result.exit_code == 0, result.output
