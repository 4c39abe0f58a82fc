"""Where the GM's commands write files (``export -o``, ``report --out``, ``site --out``,
``send --maildir``, ...): a place that cannot be written is refused with one line and exit
status 1, before any work is done where that can be known, never with a traceback."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pbem.errors import DomainError


def reason(exc: OSError) -> str:
    """The operating system's words for ``exc`` (``No such file or directory``)."""
    return exc.strerror or (os.strerror(exc.errno) if exc.errno else "") or str(exc) or type(exc).__name__


def out_file(path: str | os.PathLike[str]) -> Path:
    """``path`` as a file to write: its directory must exist and be writable, and ``path``
    must not be a directory (a :class:`DomainError` says which it is)."""
    target = Path(path)
    parent = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise DomainError(f"cannot write {path}: it is a directory; give a file name")
    if not parent.is_dir():
        what = "is not a directory" if parent.exists() else "does not exist"
        raise DomainError(f"cannot write {path}: the directory {parent} {what}")
    if not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise DomainError(f"cannot write {path}: permission denied")
    return target


def out_dir(path: str | os.PathLike[str]) -> Path:
    """``path`` as a directory to write into, made (with its parents) if missing; a
    :class:`DomainError` when that cannot be done or it is not writable."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise DomainError(f"cannot write into {path}: it is a file, not a directory")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DomainError(f"cannot write into {path}: {reason(exc)}") from None
    if not os.access(target, os.W_OK | os.X_OK):
        raise DomainError(f"cannot write into {path}: permission denied")
    return target


@contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[None]:
    """Turn an :class:`OSError` raised while writing under ``path`` (a full disk, a file
    removed meanwhile) into a one-line :class:`DomainError`."""
    try:
        yield
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise
        raise DomainError(f"cannot write {exc.filename or path}: {reason(exc)}") from None


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to the file ``path`` (checked with :func:`out_file`)."""
    target = out_file(path)
    with writing(path):
        target.write_text(text, encoding="utf-8")
    return target


def turn_dir(turn: str) -> str:
    """The folder name of a turn's reports: the turn label, one level (``b1/dogs/eva`` -> ``b1-dogs-eva``)."""
    return turn.replace("/", "-")
