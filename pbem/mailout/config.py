"""The GM's configuration file ``pbem.toml`` (next to the database, or ``--config``).

It names the mailbox, the SMTP server and the sender, so that the cron line stays short::

    sender = "Club GM <gm@example.org>"

    [mailbox]
    url = "imaps://gm@example.org@imap.example.org/INBOX"
    move_to = "Processed"                 # or leave out: processed mail is flagged \\Seen
    password_file = "~/.config/pbem/imap-password"

    [smtp]
    host = "smtp.example.org"
    port = 465
    tls = "smtps"                         # "smtps" (implicit TLS), "starttls" or "none"
    user = "gm@example.org"
    password_file = "~/.config/pbem/smtp-password"

    [send]
    max_attempts = 8                      # temporary failures before a message is failed
    backoff_minutes = 5                   # first wait; doubles after each failure

Environment variables override the file (``PBEM_FROM``, ``PBEM_IMAP_URL``,
``PBEM_IMAP_MOVE_TO``, ``PBEM_IMAP_PASSWORD``, ``PBEM_SMTP_HOST``, ``PBEM_SMTP_PORT``,
``PBEM_SMTP_TLS``, ``PBEM_SMTP_USER``, ``PBEM_SMTP_PASSWORD``, ...). Secrets never come
from the TOML file itself: only from the environment or from a password file that nobody
but its owner can read (a group- or world-readable one is refused). A password file holds
the password on its first line, or is a netrc file (``machine HOST login USER password PW``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import DomainError

if TYPE_CHECKING:  # the outbox queue is imported by what sends mail, not by every command
    from pbem.mailout.outqueue import RetryPolicy

FILE_NAME = "pbem.toml"
_SECRET_KEYS = {"password", "pass", "secret"}


@dataclass
class Config:
    """The settings of one pbem installation (file values with environment overrides)."""

    path: str | None = None
    sender: str | None = None
    mailbox: dict[str, Any] = field(default_factory=dict)
    smtp: dict[str, Any] = field(default_factory=dict)
    send: dict[str, Any] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=lambda: os.environ, repr=False)

    def value(self, section: str, key: str, env_name: str) -> Any:
        """A setting: the environment variable if set, else the file's value, else None."""
        if self.env.get(env_name):
            return self.env[env_name]
        return getattr(self, section).get(key)

    def retry_policy(self) -> RetryPolicy:
        """The retry schedule of ``[send]``."""
        try:
            attempts = int(self.value("send", "max_attempts", "PBEM_SEND_MAX_ATTEMPTS") or 8)
            minutes = float(self.value("send", "backoff_minutes", "PBEM_SEND_BACKOFF_MINUTES") or 5)
        except ValueError as exc:
            raise DomainError(f"{self.path or 'config'}: [send] {exc}") from None
        if attempts < 1 or minutes < 0:
            raise DomainError(f"{self.path or 'config'}: [send] max_attempts must be >= 1, backoff_minutes >= 0")
        from pbem.mailout.outqueue import RetryPolicy

        return RetryPolicy(max_attempts=attempts, backoff=timedelta(minutes=minutes))

    def secret(self, section: str, env_name: str, host: str | None, user: str | None) -> str | None:
        """A password: ``env_name`` if set, else from the section's ``password_file``
        (``<env_name>_FILE`` overrides it), refused when others may read that file."""
        if self.env.get(env_name):
            return self.env[env_name]
        name = self.env.get(f"{env_name}_FILE") or getattr(self, section).get("password_file")
        if not name:
            return None
        return read_secret(Path(os.path.expanduser(str(name))), host, user)


def read_secret(path: Path, host: str | None = None, user: str | None = None) -> str:
    """The password in ``path``: its first line, or the netrc entry of ``host``."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise DomainError(f"password file {path}: {exc.strerror}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise DomainError(f"password file {path} can be read by others (mode {stat.filemode(mode)}); "
                          f"run: chmod 600 {path}")
    text = path.read_text(encoding="utf-8")
    if any(line.split()[:1] in (["machine"], ["default"]) for line in text.splitlines()):
        import netrc

        try:
            entry = netrc.netrc(str(path)).authenticators(host or "")
        except netrc.NetrcParseError as exc:
            raise DomainError(f"password file {path}: {exc.msg} (line {exc.lineno})") from None
        if entry is None or (user and entry[0] and entry[0] != user):
            raise DomainError(f"password file {path} has no entry for {user + '@' if user else ''}{host}")
        return entry[2] or ""
    first = text.splitlines()[0].strip() if text.strip() else ""
    if not first:
        raise DomainError(f"password file {path} is empty")
    return first


def load_config(path: str | None, db_path: str, env: Mapping[str, str] = os.environ) -> Config:
    """The configuration: ``path`` (must exist), else ``pbem.toml`` next to the database
    if there is one, else only the environment."""
    explicit = path or env.get("PBEM_CONFIG")
    candidate = Path(explicit) if explicit else Path(db_path).resolve().parent / FILE_NAME
    if not candidate.is_file():
        if explicit:
            raise DomainError(f"config file {candidate} not found")
        return Config(env=env)
    import tomllib

    try:
        data = tomllib.loads(candidate.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DomainError(f"config file {candidate}: {exc}") from None
    _check(data, candidate)
    return Config(str(candidate), data.get("sender"), dict(data.get("mailbox", {})), dict(data.get("smtp", {})),
                  dict(data.get("send", {})), env)


def _check(data: dict[str, Any], path: Path) -> None:
    """Refuse unknown sections and passwords written into the file."""
    known = {"sender": str, "mailbox": dict, "smtp": dict, "send": dict}
    for key, value in data.items():
        if key not in known:
            raise DomainError(f"config file {path}: unknown setting {key!r} (known: {', '.join(known)})")
        if not isinstance(value, known[key]):
            raise DomainError(f"config file {path}: {key!r} must be a {'table' if known[key] is dict else 'string'}")
    for section in ("mailbox", "smtp"):
        for key in data.get(section, {}):
            if key.lower() in _SECRET_KEYS:
                raise DomainError(f"config file {path}: [{section}] {key} — passwords are never read from the "
                                  "config file; use password_file (mode 600) or the environment")
