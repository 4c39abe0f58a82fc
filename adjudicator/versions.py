"""Rules versions side by side: every game keeps the rules and the data files it began with.

An engine lists its released rules versions in its package's ``releases.py`` as one
:class:`Releases` table. Each :class:`Release` names a version, the day it first shipped, the
*rule points* whose reading differs between versions (the same keys in every release), the
data files its new games read (name -> SHA-256) and what it changes for players.

Where a rule point is implemented, the code asks the table: ``RELEASES.rule("box_pieces")``.
Which release answers is set for the length of one engine call by :func:`pin`: the shell holds
each game to the version and data files recorded in its ``GameCreated`` event (and moved on
only by a recorded upgrade), so a replay of an old game reads the old answers. Outside a
pinned call (a new game, the grammar reading names) the newest release answers.

Data files are pinned by their hash: the files beside an engine are its newest data; every
earlier released version of a file is kept under ``data/released/<stem>-<sha16>.json`` and
read when a game's recorded hash names it. A released version never changes behaviour: a
change of rules or data is a new :class:`Release` (docs/architecture.md, "Engine versions").

The in-force release is a :class:`contextvars.ContextVar`, not a global: it is set and reset
around each call and is local to the thread or task that makes it, so this stays pure
(same inputs and the same pinned release give the same result).
"""

from __future__ import annotations

import calendar
import copy
import dataclasses
import functools
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from adjudicator.base import GameError

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Release:
    """One released rules version of an engine.

    ``rules`` is the version's row of the rule-point table; ``data`` the data files (name ->
    SHA-256) a new game of this version reads; ``changes`` says, for players, what this version
    changes from the one before; ``upgrade`` turns a state of the previous version into one of
    this version (pure; None when the states are alike), for ``pbem upgrade``. ``data_before``
    lists ``(moment, data)``: games of this version created on main before that moment (ISO
    8601, UTC) read those files (a data file changed under the version's name once); a game
    records its data files, so only a record that names none is read by its date.
    """

    version: str
    released: str
    rules: Mapping[str, Any]
    data: Mapping[str, str]
    changes: tuple[str, ...] = ()
    upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    data_before: tuple[tuple[str, Mapping[str, str]], ...] = ()
    windows: tuple[tuple[str | None, str, Mapping[str, Any]], ...] = ()

    def as_created(self, moment: str | None) -> Release:
        """This release as a game created at ``moment`` (ISO 8601) reads it: its rule points
        with the readings of every window that holds ``moment`` (itself when none does)."""
        readings = self.window_readings(moment)
        return dataclasses.replace(self, rules={**self.rules, **readings}) if readings else self

    def window_readings(self, moment: str | None) -> dict[str, Any]:
        """The rule points read otherwise by a game created at ``moment`` (none: empty)."""
        readings: dict[str, Any] = {}
        if not moment or not self.windows:
            return readings
        when = _utc(moment)
        for since, until, values in self.windows:
            if (since is None or _utc(since) <= when) and when < _utc(until):
                readings.update(values)
        return readings

    def data_on(self, moment: str) -> dict[str, str]:
        """The data files a game of this version created at ``moment`` (ISO 8601) read."""
        when = _utc(moment)
        for until, data in sorted(self.data_before, key=lambda row: _utc(row[0])):
            if when < _utc(until):
                return {**self.data, **data}
        return dict(self.data)


@dataclass(frozen=True)
class InForce:
    """The release and the data files (name -> SHA-256) an engine call runs under."""

    release: Release
    data: Mapping[str, str]
    key: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", tuple(f"{n}={h}" for n, h in sorted(self.data.items())))


class Releases:
    """The released versions of one engine, oldest first, and which one is in force."""

    def __init__(self, engine: str, data_dir: str, releases: Sequence[Release]) -> None:
        if not releases:
            raise ValueError(f"{engine}: at least one release")
        keys = set(releases[0].rules)
        for r in releases:
            if set(r.rules) != keys:
                raise ValueError(f"{engine} {r.version}: the rule points must be the same in every release")
            for _, _, readings in r.windows:
                if not set(readings) <= keys:
                    raise ValueError(f"{engine} {r.version}: a window reads unknown rule points")
        self.engine = engine
        self.data_dir = data_dir
        self.all: tuple[Release, ...] = tuple(releases)
        self._default = InForce(self.all[-1], dict(self.all[-1].data))
        self._var: ContextVar[InForce] = ContextVar(f"rules of {engine}", default=self._default)

    # -- the table ------------------------------------------------------------------------
    @property
    def newest(self) -> Release:
        """The release new games are made with."""
        return self.all[-1]

    @property
    def versions(self) -> tuple[str, ...]:
        """Every version, oldest first."""
        return tuple(r.version for r in self.all)

    def get(self, version: str) -> Release:
        """The release ``version``; :class:`GameError` naming the versions known otherwise."""
        for r in self.all:
            if r.version == version:
                return r
        raise GameError(f"{self.engine} has no rules version {version!r} in this pbem "
                        f"(it knows {', '.join(self.versions)})")

    def after(self, version: str) -> tuple[Release, ...]:
        """The releases newer than ``version``, oldest first."""
        index = self.versions.index(self.get(version).version)
        return self.all[index + 1:]

    def on_date(self, day: str) -> Release:
        """The release that was newest on ``day`` (ISO date; a record that names no version)."""
        found = [r for r in self.all if r.released <= day[:10]]
        if not found:
            raise GameError(f"no {self.engine} rules version was released by {day[:10]} "
                            f"(the first, {self.all[0].version}, on {self.all[0].released})")
        return found[-1]

    def since(self, point: str) -> str:
        """The first version whose reading of rule point ``point`` is true (a new order word)."""
        return next(r.version for r in self.all if r.rules[point])

    def not_yet(self, point: str, what: str) -> str:
        """The problem of an order that a later version brought (rule point ``point``)."""
        return (f"{what} came with {self.engine} rules version {self.since(point)}; this game plays version "
                f"{self.in_force().release.version} (the GM can move it to newer rules with pbem upgrade)")

    # -- what is in force -----------------------------------------------------------------
    def in_force(self) -> InForce:
        """The release and data files of the engine call being made (else the newest)."""
        return self._var.get()

    def rule(self, point: str) -> Any:
        """The in-force release's reading of rule point ``point``."""
        return self._var.get().release.rules[point]

    @contextmanager
    def pinned(self, release: Release, data: Mapping[str, str] | None = None) -> Iterator[InForce]:
        """Run the block under ``release``, reading the data files ``data`` names (by hash; the
        release's own for any file not named)."""
        force = self.force(release, data)
        token = self._var.set(force)
        try:
            yield force
        finally:
            self._var.reset(token)

    def force(self, release: Release, data: Mapping[str, str] | None = None) -> InForce:
        """What :meth:`pinned` runs a block under: ``release`` reading the data files ``data``
        names (the release's own for any file not named)."""
        return InForce(release, {**release.data, **(data or {})}) if data or release is not self.newest \
            else self._default

    # -- data files by hash -----------------------------------------------------------------
    def data_files(self) -> dict[str, str]:
        """The data files in force (name -> SHA-256): what a new game records."""
        return dict(self._var.get().data)

    def load(self, name: str) -> Any:
        """The parsed JSON of data file ``name`` in the version in force."""
        return _parsed(self.data_dir, name, self._var.get().data.get(name))

    def cached(self, fn: F) -> F:
        """``functools.cache`` for a function of the data files: one entry per data set."""
        memo: dict[tuple[Any, ...], Any] = {}
        _MEMOS.append(memo)
        var = self._var

        @functools.wraps(fn)
        def wrapper(*args: Any) -> Any:
            key = (var.get().key, *args)
            try:
                return memo[key]
            except KeyError:
                memo[key] = value = fn(*args)
                return value

        wrapper.cache_clear = memo.clear  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]


@functools.cache
def _moment() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?"
                      r"(Z|[+-]\d\d:?\d\d)?)?$")


def _utc(moment: str) -> float:
    """An ISO 8601 moment as seconds since the epoch in UTC (a moment without an offset is
    taken as UTC). Parsed here rather than with :mod:`datetime` so that this pure layer never
    touches a clock; :func:`calendar.timegm` is plain arithmetic on the calendar."""
    found = _moment().match(moment.strip())
    if not found:
        raise GameError(f"{moment!r} is not an ISO 8601 moment")
    year, month, day, hour, minute, second, fraction, zone = found.groups()
    seconds = calendar.timegm((int(year), int(month), int(day), int(hour or 0), int(minute or 0),
                                 int(second or 0)))
    if zone and zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        seconds -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return seconds + (float(f"0.{fraction}") if fraction else 0.0)


def released_name(name: str, sha: str) -> str:
    """The file name under ``data/released/`` of version ``sha`` of data file ``name``: kept
    byte for byte, gzip-compressed (nobody edits a released file; it is read by its hash)."""
    stem, ext = os.path.splitext(name)
    return f"{stem}-{sha[:16]}{ext}.gz"


@functools.cache
def file_hash(path: str) -> str:
    """SHA-256 of a packaged data file (read once per process: packaged files do not change)."""
    with open(path, "rb") as fh:  # reading packaged data is allowed: it is an input, not state
        return hashlib.sha256(fh.read()).hexdigest()


@functools.cache
def data_bytes(data_dir: str, name: str, sha: str | None) -> bytes:
    """The bytes of version ``sha`` of data file ``name`` (None: the packaged file), checked
    against its hash; :class:`GameError` when this pbem does not keep that version."""
    current = os.path.join(data_dir, name)
    if sha is None or (os.path.exists(current) and file_hash(current) == sha):
        with open(current, "rb") as fh:
            return fh.read()
    kept = os.path.join(data_dir, "released", released_name(name, sha))
    raw = b""
    if os.path.exists(kept):
        import gzip  # only for a released (older) data file

        with gzip.open(kept, "rb") as fh:
            raw = fh.read()
    if hashlib.sha256(raw).hexdigest() != sha:
        raise GameError(f"data file {name} with SHA-256 {sha[:16]}... is not kept by this pbem "
                        "(a changed data file needs a new rules version: docs/architecture.md)")
    return raw


def _parsed(data_dir: str, name: str, sha: str | None) -> Any:
    """The parsed JSON of a data file, read once per process (kept in :data:`_PARSED`)."""
    key = (data_dir, name, sha)
    try:
        return _PARSED[key]
    except KeyError:
        _PARSED[key] = value = json.loads(data_bytes(data_dir, name, sha).decode("utf-8"))
        return value


#: What the engines keep across calls: the data files parsed so far, and the memo of each
#: :meth:`Releases.cached` function (see :func:`kept_values`).
_PARSED: dict[tuple[str, str, str | None], Any] = {}
_MEMOS: list[dict[tuple[Any, ...], Any]] = []


def kept_values() -> list[Any]:
    """Every value the engines keep from one call to the next so far: the parsed data files
    and the results of their cached functions of the data. No state an engine returns may hold
    a part of them (the engine contract's ownership rule, :mod:`adjudicator.base`): a caller
    that changes its state in place would change them for every later game."""
    return [*_PARSED.values(), *(value for memo in _MEMOS for value in memo.values())]


class Pinned:
    """An engine held to one release and one set of data files: every method runs pinned.

    Attributes other than methods are the engine's, but ``version`` (the pinned one) and
    ``releases``; ``unpinned`` is the engine itself."""

    def __init__(self, engine: Any, release: Release, data: Mapping[str, str]) -> None:
        self.unpinned = engine
        self.version = release.version
        self.release = release
        self.data = dict(data)
        self._releases: Releases = engine.releases
        # what every call runs under, made once (an engine call is made many times a replay)
        self._force = self._releases.force(release, self.data)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.unpinned, name)
        if name.startswith("__"):
            return value
        if not callable(value) or isinstance(value, type):
            self.__dict__[name] = value  # an engine's constant (its name, its notes): asked once
            return value
        var, force = self._releases._var, self._force

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:  # as ``with releases.pinned(release, data)``
            token = var.set(force)
            try:
                return value(*args, **kwargs)
            finally:
                var.reset(token)

        self.__dict__[name] = call  # made once per method
        return call

    def __repr__(self) -> str:
        return f"<{self.unpinned.name} engine, rules {self.version}>"


def under(engine: Any, fn: F) -> F:
    """``fn`` (a function of the engine's package that the shell calls itself, e.g. a heuristic
    bot) run under the rules ``engine`` is pinned to; ``fn`` itself for an unpinned engine."""
    if not isinstance(engine, Pinned):
        return fn
    releases, release, data = engine._releases, engine.release, engine.data

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        with releases.pinned(release, data):
            return fn(*args, **kwargs)

    return call  # type: ignore[return-value]


def pin(engine: Any, version: str | None = None, data: Mapping[str, str] | None = None,
        created_at: str | None = None) -> Any:
    """``engine`` held to rules ``version`` (default: the newest) and the data files ``data``
    (name -> SHA-256; the release's own for any file not named, or not kept here), as a game
    created at ``created_at`` reads that version (:meth:`Release.as_created`).

    An engine without a release table (a test's toy game, a plug-in) has one version: asking
    for another raises :class:`GameError`."""
    releases: Releases | None = getattr(engine, "releases", None)
    if releases is None:
        if version not in (None, engine.version):
            raise GameError(f"{engine.name} has no rules version {version!r} in this pbem "
                            f"(it knows {engine.version})")
        return engine
    release = releases.get(version) if version is not None else releases.newest
    release = release.as_created(created_at)
    known = {n: h for n, h in (data or {}).items() if n in release.data and _kept(releases.data_dir, n, h)}
    if release is releases.newest and known == dict(release.data):
        return Pinned(engine, release, release.data)
    return Pinned(engine, release, {**release.data, **known})


def upgraded_state(engine: Any, version: str, state: dict[str, Any]) -> dict[str, Any]:
    """``state`` of the pinned ``engine``'s version as rules ``version`` (a newer one) keeps it:
    each release in between turns it with its ``upgrade`` (a new copy; none: the same shape)."""
    releases: Releases = engine.releases
    steps = [r for r in releases.after(engine.version) if releases.versions.index(r.version) <= releases.versions.index(version)]
    if not steps or steps[-1].version != version:
        raise GameError(f"{releases.engine} rules {version} is not newer than {engine.version}")
    out = copy.deepcopy(state)
    for release in steps:
        if release.upgrade is not None:
            out = release.upgrade(out)
    return out


def _kept(data_dir: str, name: str, sha: str) -> bool:
    """True when this pbem keeps version ``sha`` of data file ``name``."""
    try:
        data_bytes(data_dir, name, sha)
    except GameError:
        return False
    return True


def unknown_data(engine: Any, data: Mapping[str, str]) -> list[str]:
    """The data files of ``data`` (name -> SHA-256) whose version this pbem does not keep."""
    releases: Releases | None = getattr(engine, "releases", None)
    if releases is None:
        current = engine.data_files()
        return sorted(n for n, h in data.items() if current.get(n) != h)
    return sorted(n for n, h in data.items() if not _kept(releases.data_dir, n, h))
