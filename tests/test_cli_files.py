"""Every command that writes a file or a folder, pointed at a place it cannot write, says so
in one line and exits 1, as the GM meets it: `pbem export -o /nonexistent/dir/x.json`,
`pbem site --out <a file>`, `pbem send --maildir <below a file>`, ... never a traceback. The
last test finds the writing options of every command, so a new one cannot be left out."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from tests.clirun import SEATS, run

#: Every option a command writes to, with a run of that command; ``{to}`` is the bad place.
WRITERS = {
    ("export", "output"): ["export", "w1", "-o", "{to}"],
    ("export --format record", "output"): ["export", "w1", "--format", "record", "-o", "{to}"],
    ("record template", "output"): ["record", "template", "--game", "wallenstein", "--seat", "a", "--seat", "b",
                                    "--seat", "c", "-o", "{to}"],
    ("report", "out"): ["report", "w1", "--out", "{to}"],
    ("site", "out"): ["site", "w1", "--out", "{to}"],
    ("bots", "out"): ["bots", "w1", "--seat", "red", "--out", "{to}"],
    ("send", "maildir"): ["send", "--maildir", "{to}"],
    ("tick", "maildir"): ["tick", "--maildir", "{to}"],
    ("demo", "out"): ["demo", "--no-reports", "--turns", "1", "--out", "{to}"],
}


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """A database with a running Wallenstein game w1, and a plain file beside it."""
    root = tmp_path_factory.mktemp("files")
    run("--db", str(root / "pbem.db"), "new", "w1", "--game", "wallenstein", *SEATS, "--deadline-every", "72h")
    (root / "plain.txt").write_text("not a directory\n")
    return root


def _bad_places(root: Path, is_file: bool) -> list[str]:
    """Where a file cannot be written: below a directory that does not exist, below a plain
    file, a folder. A folder cannot be made below a plain file, nor where a plain file is
    (a folder that does not exist is made, with its parents)."""
    if is_file:
        return [str(root / "no" / "such" / "dir" / "x"), str(root / "plain.txt" / "x"), str(root)]
    return [str(root / "plain.txt" / "x"), str(root / "plain.txt")]


@pytest.mark.parametrize("writer", list(WRITERS), ids=[" ".join(w) for w in WRITERS])
def test_an_unwritable_place_is_one_line_and_exit_1(game, writer):
    is_file = writer[1] == "output"
    for bad in _bad_places(game, is_file):
        db = str(game / "pbem.db") if writer[0] != "demo" else str(game / f"demo-{abs(hash(bad))}.db")
        args = [a.replace("{to}", bad) for a in WRITERS[writer]]
        result = CliRunner().invoke(cli, ["--db", db, *args])
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), (args, result.output,
                                                                                    result.exception)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in result.output, (
            args, result.output)
        assert bad in lines[0] or str(Path(bad).parent) in lines[0], lines[0]  # names the place


def test_a_database_in_a_missing_directory_is_one_line(tmp_path):
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "nowhere" / "pbem.db"), "new", "w1",
                                      "--game", "wallenstein", *SEATS])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert result.output.strip().splitlines() == [
        f"Error: cannot open or create the database {tmp_path / 'nowhere' / 'pbem.db'}: the directory "
        f"{tmp_path / 'nowhere'} does not exist"]


def test_every_writing_option_is_tried_above():
    found = set()

    def walk(group: click.Group, prefix: str) -> None:
        for name, command in group.commands.items():
            path = f"{prefix}{name}"
            if isinstance(command, click.Group):
                walk(command, path + " ")
            for param in command.params:
                if param.name in ("out", "output", "maildir", "out_dir", "directory"):
                    found.add((path, param.name))

    walk(cli, "")
    covered = {(command.split(" --")[0], option) for command, option in WRITERS}
    assert found <= covered, found - covered
