"""Run the pbem of an earlier commit (a git work tree) with two changes that leave its event log alone.

Used only by :mod:`tests.compat.make_corpus` to make the compatibility corpus::

    python tests/compat/oldpbem.py WORKTREE START_ISO -- pbem arguments ...

- the clock reads START_ISO, then one second later at each read (so every recorded time is the
  date the release was current, and the same on every run);
- every picture a report would draw is a 1x1 PNG (the corpus stays small; pictures never feed
  back into events, states or hashes).
"""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone

_TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082")


def _fake_datetime(start: datetime) -> type:
    """A ``datetime`` whose ``now`` ticks one second a read from ``start``."""
    ticks = [0]

    class Clock(datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[override]
            ticks[0] += 1
            moment = start + timedelta(seconds=ticks[0])
            return moment if tz is not None else moment.replace(tzinfo=None)

    return Clock


def _tiny_savefig(self, fname, *args, **kwargs):  # noqa: ANN001 - matplotlib's signature
    if hasattr(fname, "write"):
        fname.write(_TINY_PNG)
    else:
        with open(fname, "wb") as handle:
            handle.write(_TINY_PNG)


def isolate(tree: str) -> None:
    """Import pbem's packages from ``tree`` only: drop the finder of an editable install of
    today's pbem (it would lend the old tree the modules it lacks) and put ``tree`` first."""
    def editable(finder: object) -> bool:
        return str(getattr(finder, "__module__", "")).startswith("__editable__")

    sys.meta_path[:] = [f for f in sys.meta_path if not editable(f)]
    sys.path[:] = [tree] + [p for p in sys.path if p and "__editable__" not in p and not p.endswith("tests/compat")]
    for name in [m for m in sys.modules if m.split(".")[0] in ("pbem", "adjudicator", "turns", "reports")]:
        del sys.modules[name]


def main(argv: list[str]) -> int:
    """Run ``pbem`` of the work tree ``argv[0]`` with the clock at ``argv[1]``."""
    tree, start = argv[0], datetime.fromisoformat(argv[1]).astimezone(timezone.utc)
    rest = argv[3:] if argv[2:3] == ["--"] else argv[2:]
    isolate(tree)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.figure

    matplotlib.figure.Figure.savefig = _tiny_savefig  # type: ignore[method-assign]
    try:  # later releases write pictures through one function of their own
        import reports.pngout

        reports.pngout.figure_png = lambda fig, *a, **k: _TINY_PNG  # type: ignore[assignment]
    except ImportError:
        pass
    try:  # the store's module: pbem/store/db.py, in earlier releases pbem/store.py
        import pbem.store.db as store_module
    except ImportError:
        import pbem.store as store_module  # type: ignore[no-redef]

    store_module.datetime = _fake_datetime(start)  # type: ignore[attr-defined]
    try:
        from pbem.cli.main import main as cli
    except ImportError:
        from pbem.cli import main as cli  # type: ignore[no-redef]

    sys.argv = ["pbem", *rest]
    try:
        cli()
    except SystemExit as done:
        return int(done.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
