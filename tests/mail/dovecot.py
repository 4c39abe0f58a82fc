"""A real IMAP server for the tests: Dovecot (Debian's dovecot-imapd), started with a
throwaway config, user and Maildir on loopback ports; skipped with a reason when it is
not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import imaplib
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.mail.servers import free_port, make_certificate

USER, PASSWORD = "gm@pbem.example", "imap-test-pw-4417"

CONFIG = """\
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
disable_plaintext_auth = yes
auth_mechanisms = plain login
mail_location = maildir:{mail}/%u
first_valid_uid = 1
default_login_user = {login}
default_internal_user = {internal}
default_internal_group = {group}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {d}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={mail}/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


@dataclass
class Dovecot:
    """A running Dovecot: its ports, certificate and the test user."""

    process: subprocess.Popen
    imap_port: int
    imaps_port: int
    cert: Path
    root: Path

    def url(self, scheme: str = "imaps", folder: str = "INBOX") -> str:
        """The pbem mailbox URL of the test user."""
        port = self.imaps_port if scheme == "imaps" else self.imap_port
        return f"{scheme}://{USER}@127.0.0.1:{port}/{folder}"

    def client(self) -> imaplib.IMAP4_SSL:
        """A logged-in client of the test user (to put mail in and look at flags)."""
        imap = imaplib.IMAP4_SSL("127.0.0.1", self.imaps_port,
                                 ssl_context=ssl.create_default_context(cafile=str(self.cert)))
        imap.login(USER, PASSWORD)
        return imap

    def append(self, messages: list[bytes], folder: str = "INBOX") -> None:
        """Deliver ``messages`` into ``folder``."""
        imap = self.client()
        try:
            for raw in messages:
                typ, data = imap.append(folder, None, None, raw)
                assert typ == "OK", data
        finally:
            imap.logout()

    def count(self, folder: str, criterion: str = "ALL") -> int:
        """How many messages of ``folder`` match ``criterion``."""
        imap = self.client()
        try:
            typ, _ = imap.select(folder)
            if typ != "OK":
                return 0
            typ, data = imap.search(None, criterion)
            return len(data[0].split())
        finally:
            imap.logout()


def _accounts() -> dict[str, object]:
    """Users the server runs as: unprivileged ones when started by root, else ourselves."""
    if os.getuid() != 0:
        me = pwd.getpwuid(os.getuid())
        return {"login": me.pw_name, "internal": me.pw_name, "group": me.pw_name, "uid": me.pw_uid,
                "gid": me.pw_gid}
    nobody = pwd.getpwnam("nobody")
    login = "dovenull" if _has_user("dovenull") else "nobody"
    internal = "dovecot" if _has_user("dovecot") else "nobody"
    return {"login": login, "internal": internal, "group": internal, "uid": nobody.pw_uid, "gid": nobody.pw_gid}


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _wait(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"dovecot exited: {log.read_text() if log.exists() else '(no log)'}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    pytest.fail("dovecot did not start listening")


@pytest.fixture
def dovecot():
    """A Dovecot on two loopback ports (IMAP with STARTTLS, IMAPS), stopped afterwards."""
    binary = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)
    if binary is None:
        pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd; .ci/run does it)")
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    root.chmod(0o755)
    accounts = _accounts()
    mail = root / "mail"
    mail.mkdir()
    if os.getuid() == 0:
        os.chown(mail, int(accounts["uid"]), int(accounts["gid"]))  # type: ignore[arg-type]
    cert, key = make_certificate(root)
    key.chmod(0o600)
    (root / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    ports = free_port(), free_port()
    conf = root / "dovecot.conf"
    conf.write_text(CONFIG.format(d=root, cert=cert, key=key, mail=mail, imap_port=ports[0], imaps_port=ports[1],
                                  **accounts))
    process = subprocess.Popen([binary, "-F", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait(ports[1], process, root / "dovecot.log")
        yield Dovecot(process, ports[0], ports[1], cert, root)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(root, ignore_errors=True)
