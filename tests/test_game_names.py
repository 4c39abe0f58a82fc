"""No shared module names a game: everything game-specific comes from the game's own folders
through its registry entry (adjudicator/games.py, docs/architecture.md "Adding a game").

A game's own files are its folder of each layer (``adjudicator/<pkg>/``, ``reports/<pkg>/``)
and, in a folder the games share, the files named after it (``turns/<pkg>.py``,
``turns/<pkg>_fields.py``, ``reports/templates/<pkg>.html.j2``, ``reports/data/<pkg>_map.json``).
Every other file of the four layers is shared and may not name a game, not even in a comment.
"""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator import games

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("adjudicator", "turns", "reports", "pbem")
SUFFIXES = {".py", ".j2", ".html", ".css", ".js", ".json", ".toml", ".txt"}
#: The built-in games' names as a reader meets them: engine names, package names, the names on
#: their boxes and of their expansions.
NAMES = re.compile(r"wallenstein|havoc|god['’]?s?[ _-]?playground|imperial court|john of gaunt", re.IGNORECASE)
#: The registry's list of games: the one shared place that names them.
REGISTRY = {"adjudicator/games.py"}
#: A command-line example in a help text (``pbem new w1 --game <a game> ...``) shows a real game.
EXAMPLE = re.compile(r"^\s*pbem\s")
#: Shared files that still name a game, each with the reason; this list may only shrink (none now).
EXEMPT: set[str] = set()


def _packages() -> set[str]:
    return {games.BUILTIN_PACKAGES[name].rsplit(".", 1)[1] for name in games.BUILTIN_PACKAGES}


def own(relative: str, packages: set[str]) -> bool:
    """True when ``relative`` is a file of one game: in its folder, or named after it."""
    parts = relative.split("/")
    if any(part in packages for part in parts[:-1]):
        return True
    stem = parts[-1].split(".", 1)[0]
    return any(stem == p or stem.startswith(p + "_") for p in packages)


def shared_files() -> list[str]:
    """The files of the four layers that belong to no one game (docs are not code: pbem/docs)."""
    packages = _packages()
    out = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if (path.is_file() and path.suffix in SUFFIXES and not relative.startswith("pbem/docs/")
                    and "__pycache__" not in relative and not own(relative, packages)):
                out.append(relative)
    return out


def namings(relative: str) -> list[str]:
    """The lines of ``relative`` that name a game (command-line examples aside)."""
    text = (ROOT / relative).read_text(encoding="utf-8", errors="replace")
    return [f"{relative}:{n}: {line.strip()[:100]}" for n, line in enumerate(text.splitlines(), start=1)
            if NAMES.search(line) and not EXAMPLE.match(line)]


def test_no_shared_module_names_a_game():
    found = [hit for relative in shared_files() if relative not in REGISTRY | EXEMPT for hit in namings(relative)]
    assert not found, "shared modules that name a game (ask its registry entry instead):\n" + "\n".join(found)


def test_the_check_sees_the_games_files_and_the_shared_ones():
    packages = _packages()
    assert own("adjudicator/wallenstein/engine.py", packages) and own("turns/gods_playground_plan.py", packages)
    assert own("reports/templates/havoc.html.j2", packages) and own("reports/data/wallenstein_map.json", packages)
    shared = shared_files()
    assert {"pbem/mailout/colours.py", "reports/render.py", "turns/games.py", "adjudicator/recorded.py"} <= set(shared)
    assert not any(own(f, packages) for f in shared)
    assert namings("adjudicator/games.py"), "the registry names the games: the pattern finds them"


def test_every_exemption_is_still_needed():
    for relative in EXEMPT:
        if (ROOT / relative).exists():
            assert namings(relative), f"{relative} names no game any more: take it off EXEMPT"


def test_one_games_words_grammar_and_reports_load_no_other_game():
    """A mail of one game reads only that game's entry and modules (one mail starts fast)."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from reports.gamenames import game_title, turn_name\n"
            "from turns.games import grammar_for\n"
            "from pbem.mailout.colours import palette\n"
            "game_title('havoc'); turn_name('havoc', 'b1/recruit/red'); grammar_for('havoc'); palette('havoc')\n"
            "print(sorted(m for m in sys.modules if 'wallenstein' in m or 'gods_playground' in m))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]", done.stdout
