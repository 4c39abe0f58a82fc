"""pbem.toml: file values, environment overrides, password files (plain or netrc, private only)."""

from __future__ import annotations

import pytest

from pbem.mailout.config import load_config, read_secret
from pbem.errors import DomainError


def test_file_next_to_the_database_and_environment_overrides(tmp_path):
    (tmp_path / "pbem.toml").write_text('sender = "gm@example.org"\n[smtp]\nhost = "smtp.example.org"\nport = 465\n'
                                        '[send]\nmax_attempts = 3\nbackoff_minutes = 1\n')
    cfg = load_config(None, str(tmp_path / "pbem.db"), env={})
    assert cfg.sender == "gm@example.org" and cfg.value("smtp", "host", "PBEM_SMTP_HOST") == "smtp.example.org"
    assert cfg.retry_policy().max_attempts == 3 and cfg.retry_policy().backoff.total_seconds() == 60
    env = {"PBEM_SMTP_HOST": "other.example.org"}
    assert load_config(None, str(tmp_path / "pbem.db"), env=env).value("smtp", "host", "PBEM_SMTP_HOST") == \
        "other.example.org"
    assert load_config(None, str(tmp_path / "elsewhere" / "x.db"), env={}).path is None  # no file: env only
    with pytest.raises(DomainError, match="not found"):
        load_config(str(tmp_path / "missing.toml"), "x.db", env={})


def test_bad_files_are_one_line_errors(tmp_path):
    for text, message in (('[smtp]\npassword = "x"\n', "never read from the config file"),
                          ('[imap]\nurl = "x"\n', "unknown setting"), ("sender = [", "config file")):
        (tmp_path / "pbem.toml").write_text(text)
        with pytest.raises(DomainError, match=message):
            load_config(None, str(tmp_path / "pbem.db"), env={})


def test_password_files_plain_and_netrc_and_only_private(tmp_path):
    plain = tmp_path / "pw"
    plain.write_text("s3cret\nignored\n")
    plain.chmod(0o600)
    assert read_secret(plain) == "s3cret"
    for mode in (0o640, 0o604):
        plain.chmod(mode)
        with pytest.raises(DomainError, match="chmod 600"):
            read_secret(plain)
    netrc = tmp_path / "netrc"
    netrc.write_text("machine imap.example.org login gm@example.org password imap-pw\n"
                     "machine smtp.example.org login gm@example.org password smtp-pw\n")
    netrc.chmod(0o600)
    assert read_secret(netrc, "smtp.example.org", "gm@example.org") == "smtp-pw"
    assert read_secret(netrc, "imap.example.org") == "imap-pw"
    with pytest.raises(DomainError, match="no entry"):
        read_secret(netrc, "pop.example.org")
