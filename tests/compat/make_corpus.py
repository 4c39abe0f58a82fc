"""Make the compatibility corpus: databases, archives and records made by earlier states of main.

    .venv/bin/python -m tests.compat.make_corpus            # every release of releases.json
    .venv/bin/python -m tests.compat.make_corpus r4 r5      # some of them
    .venv/bin/python -m tests.compat.make_corpus --add r6 COMMIT "what it is"   # a new release

Each release of ``tests/compat/corpus/releases.json`` names a commit of main. For each, this
checks the commit out in a temporary git work tree and runs *that* pbem
(:mod:`tests.compat.oldpbem`: its own code only, the clock at the release's date, pictures as
1x1 PNGs) to play, with the bots, by mail:

- ``running.db.xz``: a database holding a running game of every game the release has (the
  demo stopped after a few turns), and a Wallenstein game with the Imperial Court made with
  ``pbem new`` and played with ``pbem bots``;
- ``running/<game>.pbem.json`` and ``.record.txt``: the archive and readable record of each
  running game, as that release exported them;
- ``finished.db.xz`` and ``finished/<game>.pbem.json``, ``.record.txt``: whole games;
- ``transcripts.jsonl.gz``: seeded random games played by that release's engines alone
  (:mod:`tests.compat.transcript`: the orders of every step and the state hash after it), for
  every seat count and the main options.

tests/compat/test_corpus.py opens, verifies and continues every one of them on today's pbem.
Adding a rules version or changing a format adds a release here (``--add``) and its fixtures.
Needs git and the history of main (the commits named); nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import gzip
import json
import lzma
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
ROOT = HERE.parent.parent
RUNNER = HERE / "oldpbem.py"
SEAT_SEED = "5eed" * 16  # a 256-bit seed written out, so no release asks for --weak-seed
#: demo turns for a running game (long enough to be mid-game, short enough to stay small)
RUNNING_TURNS = {"wallenstein": 2, "havoc": 14, "gods-playground": 30}
SEATS = {"wallenstein": 4, "havoc": 3, "gods-playground": 3}


def releases() -> dict[str, dict[str, str]]:
    """The releases of the corpus: name -> {commit, date, about}."""
    return json.loads((CORPUS / "releases.json").read_text(encoding="utf-8"))["releases"]


def _pbem(tree: Path, date: str, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the pbem of ``tree`` on ``db`` (its own code only, the clock at ``date``)."""
    cmd = [sys.executable, str(RUNNER), str(tree), date, "--", "--db", str(db), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=tree, timeout=1800)


def _games(tree: Path) -> list[str]:
    """The games the release at ``tree`` plays."""
    known = (tree / "adjudicator").iterdir()
    names = {"wallenstein": "wallenstein", "havoc": "havoc", "gods_playground": "gods-playground"}
    return [names[p.name] for p in sorted(known) if p.name in names and (p / "engine.py").exists()]


def _demo(tree: Path, date: str, db: Path, out: Path, game: str, turns: int | None) -> None:
    args = ["demo", "--game", game, "--seats", str(SEATS[game]), "--out", str(out / game)]
    if turns is not None:
        args += ["--turns", str(turns)]
    done = _pbem(tree, date, db, *args)
    if done.returncode != 0:
        raise SystemExit(f"demo of {game} failed at {tree.name}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


def _court_game(tree: Path, date: str, db: Path, passwords: dict[str, dict[str, str]]) -> bool:
    """A Wallenstein game with the Imperial Court, made with ``pbem new`` and two seasons of bots."""
    seats = [f"--seat={s}={s}@example.org" for s in ("red", "blue", "green", "yellow")]
    made = _pbem(tree, date, db, "new", "court", "--game", "wallenstein", *seats, "--option", "expansion=court",
                 "--seed", SEAT_SEED, "--json")
    if made.returncode != 0:
        return False  # a release without the court (or without this command's options)
    shown = json.loads(made.stdout)
    passwords["court"] = {name: seat["password"] for name, seat in shown["seats"].items()}
    for _ in range(2):
        _pbem(tree, date, db, "bots", "court", *[f"--seat={s}" for s in ("red", "blue", "green", "yellow")])
        _pbem(tree, date, db, "adjudicate", "court")
    return True


def _passwords(out: Path) -> dict[str, dict[str, str]]:
    """The seats' passwords, read from the GAME lines of the bots' order mails (test fixtures:
    the corpus tests mail orders as the players would)."""
    found: dict[str, dict[str, str]] = {}
    for mail in sorted(out.glob("*/mail/**/*.eml")):
        for line in mail.read_text(encoding="utf-8", errors="replace").splitlines():
            words = line.split()
            if len(words) == 4 and words[0] == "GAME":
                found.setdefault(words[1], {})[words[2]] = words[3]
    return found


def _copy_outputs(src: Path, dest: Path) -> None:
    """The demo's archive and record of each game."""
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(src.glob("*/demo-*")):
        if path.name.endswith((".pbem.json", ".record.txt")):
            shutil.copy(path, dest / path.name.replace("demo-", ""))


#: the games, seat lists and options of the transcripts (random legal orders, seeds by config)
TRANSCRIPTS = [
    *[("wallenstein", seats, options) for seats in ("red,blue,green", "red,blue,green,yellow",
                                                     "red,blue,green,yellow,black")
      for options in ({}, {"setup": "draft"}, {"expansion": "court"})],
    *[("havoc", seats, options) for seats in ("red,blue", "red,blue,green", "red,blue,green,yellow",
                                               "red,blue,green,yellow,purple", "red,blue,green,yellow,purple,orange")
      for options in ({}, {"gaunt": "on"}, {"gaunt": "extra", "order": "winner"}, {"order": "random", "peace": "12"},
                      {"small": "on"})],
    ("gods-playground", "white,blue,red", {}),
]
SEEDS = {"wallenstein": 2, "havoc": 1, "gods-playground": 8}


def _transcripts(tree: Path, games: list[str], dest: Path) -> None:
    """Random games of the release's own engines, as transcripts."""
    lines = []
    for game, seats, options in TRANSCRIPTS:
        if game not in games or (options.get("small") == "on" and seats.count(",") > 2):
            continue
        seeds = [f"corpus-{game}-{seats}-{json.dumps(options, sort_keys=True)}-{i}" for i in range(SEEDS[game])]
        done = subprocess.run([sys.executable, str(HERE / "transcript.py"), str(tree), game, seats,
                               json.dumps(options), *seeds], capture_output=True, text=True, cwd=tree, timeout=1800)
        if done.returncode != 0:
            raise SystemExit(f"transcripts of {game} failed at {tree.name}:\n{done.stderr[-2000:]}")
        lines += done.stdout.splitlines()
    dest.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), 9, mtime=0))


def _pack(db: Path, dest: Path) -> None:
    """The database as the release left it (WAL checkpointed by the release's own close), xz-packed."""
    for extra in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        if extra.exists() and extra.stat().st_size:
            raise SystemExit(f"{db} still has a write-ahead log: the release did not close it")
    dest.write_bytes(lzma.compress(db.read_bytes(), preset=9))


def make(name: str, info: dict[str, str]) -> None:
    """Regenerate the fixtures of release ``name``."""
    target = CORPUS / name
    with tempfile.TemporaryDirectory(prefix=f"pbem-corpus-{name}-") as tmp:
        work, tree = Path(tmp), Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), info["commit"]],
                       check=True, capture_output=True)
        try:
            games = [g for g in _games(tree) if g in (info.get("games") or [g])]
            for kind, turns in (("running", RUNNING_TURNS), ("finished", None)):
                db, out = work / f"{kind}.db", work / kind
                for game in games:
                    _demo(tree, info["date"], db, out, game, None if turns is None else turns[game])
                passwords = _passwords(out)
                if kind == "running" and "wallenstein" in games:
                    _court_game(tree, info["date"], db, passwords)
                if target.exists() and kind == "running":
                    shutil.rmtree(target)
                target.mkdir(parents=True, exist_ok=True)
                _copy_outputs(out, target / kind)
                (target / kind / "passwords.json").write_text(json.dumps(passwords, indent=1, sort_keys=True) + "\n")
                _pack(db, target / f"{kind}.db.xz")
            _transcripts(tree, games, target / "transcripts.jsonl.gz")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    print(f"{name}: {', '.join(sorted(p.name for p in target.rglob('*') if p.is_file()))}")


def main(argv: list[str]) -> None:
    """Regenerate the named releases (default: all), or ``--add NAME COMMIT ABOUT`` one."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--add", nargs=3, metavar=("NAME", "COMMIT", "ABOUT"))
    args = parser.parse_args(argv)
    known = releases()
    if args.add:
        name, commit, about = args.add
        full = subprocess.run(["git", "-C", str(ROOT), "rev-parse", commit], check=True, capture_output=True,
                              text=True).stdout.strip()
        date = subprocess.run(["git", "-C", str(ROOT), "show", "-s", "--format=%cI", full], check=True,
                              capture_output=True, text=True).stdout.strip()
        known[name] = {"commit": full, "date": date, "about": about}
        doc = {"about": json.loads((CORPUS / "releases.json").read_text(encoding="utf-8"))["about"], "releases": known}
        (CORPUS / "releases.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        args.names = [name]
    for name in args.names or list(known):
        make(name, known[name])


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main(sys.argv[1:])
