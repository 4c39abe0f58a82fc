"""Where inbound mail is read from: .eml files, directories, Maildir folders, mbox files, stdin.

Sources are read one mail at a time: :func:`read_sources` returns :class:`Mails`, which
knows how many mails there are (for a progress bar) but reads each only when ingest comes
to it, so a Maildir of ten thousand mails never sits in memory at once. Nothing here
changes a folder: ingest keeps what it read, and a Maildir's files stay where they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    import tempfile


@dataclass(frozen=True)
class RawMail:
    """One item read from a source: the raw bytes and where they came from."""

    raw: bytes
    origin: str
    mailbox: bool = False  # read from a Maildir or mbox: never a GM's order text


class Mails:
    """Mails read one at a time: ``len()`` is how many there are; iterating reads them (once)."""

    def __init__(self, count: int, items: Iterable[RawMail]) -> None:
        self.count = count
        self._items = items

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[RawMail]:
        return iter(self._items)


def is_maildir(path: Path) -> bool:
    """True for a directory with Maildir's ``cur``/``new`` subdirectories."""
    return path.is_dir() and (path / "new").is_dir() and (path / "cur").is_dir()


def is_mbox(path: Path) -> bool:
    """True for a file whose first line is an mbox ``From `` separator."""
    with path.open("rb") as fh:
        return fh.read(5) == b"From "


def maildir(path: Path) -> Mails:
    """The mails of a Maildir (``new`` and ``cur``) in arrival order (Maildir unique names start
    with the delivery time), each read when it is reached."""
    import mailbox  # here: a single mail's run (procmail, ingest FILE) never needs it

    box = mailbox.Maildir(path, factory=None, create=False)
    keys = sorted(box.iterkeys())

    def items() -> Iterator[RawMail]:
        for key in keys:
            try:
                with box.get_file(key) as fh:
                    raw = fh.read()
            except (KeyError, FileNotFoundError):  # moved by a mail client meanwhile: next run
                continue
            yield RawMail(raw, f"{path}:{key}", mailbox=True)

    return Mails(len(keys), items())


def mbox(path: Path, origin: str | None = None, cleanup: tempfile.TemporaryDirectory[str] | None = None) -> Mails:
    """The mails of an mbox file in file order, without their ``From `` lines, each read when
    it is reached (``cleanup``: a temporary directory removed when the last one was read)."""
    import mailbox

    box = mailbox.mbox(path, create=False)
    keys = list(box.iterkeys())  # the table of contents: offsets only

    def items() -> Iterator[RawMail]:
        try:
            for n, key in enumerate(keys, 1):
                yield RawMail(box.get_bytes(key), f"{origin or path}#{n}", mailbox=True)
        finally:
            box.close()
            if cleanup is not None:
                cleanup.cleanup()

    return Mails(len(keys), items())


def stream(data: BinaryIO, origin: str = "<stdin>") -> Mails:
    """A stream (stdin) holds one mail, one order text, or an mbox (``From `` first); an mbox is
    copied to a temporary file in pieces and read from there one mail at a time."""
    head = data.read(5)
    if head != b"From ":
        return Mails(1, [RawMail(head + data.read(), origin)])
    import shutil
    import tempfile

    tmp = tempfile.TemporaryDirectory()
    path = Path(tmp.name) / "stdin.mbox"
    with path.open("wb") as fh:
        fh.write(head)
        shutil.copyfileobj(data, fh, 1024 * 1024)
    return mbox(path, origin, cleanup=tmp)


def path_mails(path: Path) -> Mails:
    """The mails at ``path``: a Maildir, a directory of files (each read when reached), an
    mbox, or one file."""
    if is_maildir(path):
        return maildir(path)
    if path.is_dir():  # each file opened when reached (its count taken as one: an mbox in it counts one)
        files = [p for p in sorted(path.iterdir()) if p.is_file() and not p.name.startswith(".")]
        return Mails(len(files), (mail for p in files for mail in path_mails(p)))
    if is_mbox(path):
        return mbox(path)
    return Mails(1, _lazy_file(path))


def _lazy_file(path: Path) -> Iterator[RawMail]:
    yield RawMail(path.read_bytes(), str(path))


def chain(sources: list[Mails]) -> Mails:
    """One :class:`Mails` of several, in order."""
    def items() -> Iterator[RawMail]:
        for source in sources:
            yield from source

    return Mails(sum(len(s) for s in sources), items())


def read_sources(paths: Iterable[str], stdin: BinaryIO | None) -> Mails:
    """Every mail of ``paths`` in order (``-`` is ``stdin``), read one at a time."""
    return chain([stream(stdin) if name == "-" and stdin is not None else path_mails(Path(name)) for name in paths])


# the readers as lists (a few mails: tests, one file)
def read_maildir(path: Path) -> list[RawMail]:
    """The mails of a Maildir as a list."""
    return list(maildir(path))


def read_mbox(path: Path, origin: str | None = None) -> list[RawMail]:
    """The mails of an mbox file as a list."""
    return list(mbox(path, origin))


def read_stream(data: BinaryIO, origin: str = "<stdin>") -> list[RawMail]:
    """The mails of a stream as a list."""
    return list(stream(data, origin))


def read_path(path: Path) -> list[RawMail]:
    """The mails at ``path`` as a list."""
    return list(path_mails(path))
