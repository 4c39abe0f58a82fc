"""Import every game engine so it registers itself (see :func:`adjudicator.base.register`).

Each engine package registers on import; add one line per game here.
"""
import adjudicator.wallenstein  # noqa: F401
import adjudicator.havoc  # noqa: F401
