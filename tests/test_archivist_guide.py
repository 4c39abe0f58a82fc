"""The archivist guide's stand-alone derivation gives exactly what pbem's chance module gives."""

import contextlib
import io
import re
from pathlib import Path

import pytest

from adjudicator.chance import Chance, commitment

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "archivist-guide.md"


def test_guide_snippet_matches_the_engine():
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(), re.S).group(1)
    out = io.StringIO()
    namespace: dict = {}
    with contextlib.redirect_stdout(out):
        exec(code, namespace)  # noqa: S102 - our own documentation
    lines = out.getvalue().splitlines()
    assert lines[0] == commitment("pbem-test-seed")
    stream = Chance("pbem-test-seed").stream("x")
    assert lines[1] == str([stream.below(6) for _ in range(10)])
    stream = namespace["stream"]("seed-2", "wallenstein/1618/spring/actions")
    mine = Chance("seed-2").stream("wallenstein/1618/spring/actions")
    assert namespace["shuffled"](stream, range(10)) == mine.shuffled(range(10))
    assert [namespace["below"](stream, 37) for _ in range(50)] == [mine.below(37) for _ in range(50)]


def _blocks(kind: str) -> list[str]:
    """The guide's fenced code blocks of one kind ("python", or "" for shell), each fence paired
    with its own closing one (a block of another kind, e.g. ``text``, is skipped whole)."""
    fences = re.findall(r"^```(\w*)\n(.*?)^```[ \t]*$", GUIDE.read_text(encoding="utf-8"), re.S | re.M)
    return [body for lang, body in fences if lang == kind]


def _commands() -> list[list[str]]:
    """Every ``pbem`` command line of the guide's shell blocks, comments removed."""
    import shlex

    lines = [line.split("  #")[0].strip() for block in _blocks("") for line in block.splitlines()]
    return [shlex.split(line)[1:] for line in lines if line.startswith("pbem ")]


@pytest.mark.slow
def test_every_command_and_snippet_of_the_guide_runs_as_written(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from pbem.cli.main import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_DB", raising=False)
    run = CliRunner()
    seats = [a for s in ("red", "blue", "yellow") for a in ("--seat", f"{s}={s}@example.org")]
    new = ["--db", "gm.db", "new", "w1", "--game", "wallenstein", *seats, "--seed", "guide", "--weak-seed"]
    assert run.invoke(cli, new).exit_code == 0
    for _ in range(12):  # a whole game: the seed is revealed, so every check applies
        run.invoke(cli, ["--db", "gm.db", "bots", "w1", "--seat", "red", "--seat", "blue", "--seat", "yellow"])
        run.invoke(cli, ["--db", "gm.db", "adjudicate", "w1"])
    commands = _commands()
    assert len(commands) >= 10 and ["replay", "w1.pbem.json", "--verify"] in commands
    for args in commands:
        result = run.invoke(cli, args)
        assert result.exit_code == 0, f"pbem {' '.join(args)}: {result.output}"
    assert (tmp_path / "reports" / "1618-autumn" / "red" / "report.txt").exists()
    code = "\n".join(_blocks("python"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})  # noqa: S102 - our own documentation, exactly as written
    checked = int(out.getvalue().splitlines()[-1].split()[0])
    assert checked >= 6, out.getvalue()


def _historical() -> tuple[str, list[list[str]], list[str]]:
    """The guide's historical-game example record, its shell commands and its sample messages."""
    import shlex

    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## Historical games"):text.index("## Replay to any turn")]
    example = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    shell = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    commands = [shlex.split(line.split("  #")[0])[1:] for line in shell.splitlines() if line.startswith("pbem ")]
    messages = re.findall(r"^(?:- |  )`(line \d+.*?)`", section, re.M)
    return example, commands, messages


def test_the_historical_example_imports_and_every_sample_message_is_real(tmp_path):
    from pbem.errors import DomainError
    from pbem.archives.records import import_record
    from pbem.store.db import Store

    example, _, messages = _historical()
    assert example == (Path(__file__).parent / "wallenstein" / "records" / "combat_example_3.txt").read_text(
        encoding="utf-8")  # the same record the rulebook test checks
    game = import_record(Store(tmp_path / "h.db"), example)
    assert game.state["counties"]["Kursachsen"]["owner"] == "blue"
    lines = example.splitlines()
    event = lines.index("CHANCE 1618-spring event: picked grain_max_3")
    mistakes = [example.replace("order yellow, red", "order blue, yellow, red"),
                example.replace("out blue 3, yellow 1, peasants 1; stayed blue 1, yellow 2", "out blue 9"),
                example.replace("battle 1 for Kursachsen:", "battle 1 for Anhalt:"),
                "\n".join(lines[:event] + lines[event + 1:]),
                "\n".join(lines[:event + 1] + ["CHANCE 1618-spring event: picked tax_max_5"] + lines[event + 1:])]
    assert len(messages) == len(mistakes) == 5
    for i, (bad, message) in enumerate(zip(mistakes, messages)):
        with pytest.raises(DomainError) as caught:
            import_record(Store(tmp_path / f"m{i}.db"), bad)
        assert str(caught.value) == message


@pytest.mark.slow
def test_the_historical_commands_of_the_guide_run_as_written(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from pbem.cli.main import cli

    example, commands, _ = _historical()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_DB", raising=False)
    (tmp_path / "example.txt").write_text(example, encoding="utf-8")
    for args in commands:
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, f"pbem {' '.join(args)}: {result.output}"
    assert "Chance: recorded at the table" in (tmp_path / "reports" / "1618-spring" / "blue" / "report.txt").read_text()
    assert (tmp_path / "reports" / "1618-spring" / "blue" / "map.png").exists()
