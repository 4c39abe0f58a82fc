"""Real servers on loopback for the delivery tests: aiosmtpd handlers, TLS certificates."""

from __future__ import annotations

import asyncio
import shutil
import socket
import ssl
import subprocess
import sys
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp() -> Iterator[Callable[..., int]]:
    """Start aiosmtpd controllers on loopback (``smtp(handler, **kwargs)`` -> the port);
    all stopped after the test."""
    from aiosmtpd.controller import Controller

    running = []

    def start(handler: Any, **kwargs: Any) -> int:
        port = free_port()
        controller = Controller(handler, hostname="127.0.0.1", port=port, **kwargs)
        controller.start()
        running.append(controller)
        return port

    yield start
    for controller in running:
        controller.stop()


class Scripted:
    """An SMTP handler: ``rcpt`` maps an address to the answer its RCPT gets; ``data`` is a
    list of answers to successive DATA commands (then 250); ``delay`` slows each DATA."""

    def __init__(self, data: list[str] | None = None, rcpt: dict[str, str] | None = None,
                 delay: float = 0.0) -> None:
        self.data = list(data or [])
        self.rcpt = dict(rcpt or {})
        self.delay = delay
        self.messages: list[tuple[str, list[str], bytes]] = []
        self.rcpt_seen: list[str] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        self.rcpt_seen.append(address)
        if address in self.rcpt:
            return self.rcpt[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.data:
            answer = self.data.pop(0)
            if not answer.startswith("250"):
                return answer
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 2.0.0 OK"

    def message_ids(self) -> list[str]:
        """The Message-ID of every accepted message, in arrival order."""
        return [str(message_from_bytes(m[2], policy=policy.default)["Message-ID"]) for m in self.messages]


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for 127.0.0.1 (``openssl req``): (cert, key)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: cannot make a test certificate")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The server side TLS context of the certificate."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(str(cert), str(key))
    return ctx


def pbem(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real ``pbem`` entry point (``python -m pbem``) in a subprocess."""
    return subprocess.run([sys.executable, "-m", "pbem", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)
