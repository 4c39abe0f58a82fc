"""``pbem ingest`` as a program calls it (pbem.loop.sources): mail files, a Maildir and stdin
ingested with each source's progress told, no command line."""

from __future__ import annotations

import io
import mailbox
from contextlib import contextmanager

from pbem.loop.service import Service
from pbem.loop.sources import configured_sources, ingest_sources
from pbem.mailout.config import load_config
from pbem.store.db import Store
from tests.mail.conftest import FIXTURES, create


def test_each_source_is_ingested_in_order_with_its_own_progress(tmp_path, monkeypatch):
    service = Service(Store(str(tmp_path / "api.db")))
    create(service, monkeypatch, "duel", ["red", "blue", "green", "yellow"])
    config = load_config(None, str(tmp_path / "api.db"), env={})
    box = mailbox.Maildir(tmp_path / "md", create=True)
    for path in sorted(FIXTURES.glob("*.eml")):
        box.add(path.read_bytes())
    told: list[list[tuple[int, int]]] = []

    @contextmanager
    def progress():
        told.append([])
        yield lambda done, total: told[-1].append((done, total))

    plain = str(FIXTURES / "plain.eml")
    outcomes = ingest_sources(service, config, [plain, str(tmp_path / "md")], io.BytesIO(), progress=progress)
    assert len(outcomes) == 1 + len(box) and outcomes[0].outcome == "accepted"
    assert told[0] == [(1, 1)] and told[1] == [(n, len(box)) for n in range(1, len(box) + 1)]
    again = ingest_sources(service, config, [], io.BytesIO((FIXTURES / "plain.eml").read_bytes()))
    assert [o.outcome for o in again] == ["duplicate"]  # no path: stdin, and nothing is recorded twice
    assert configured_sources(config, []) == () and configured_sources(config, ["a"]) == ("a",)
    assert configured_sources(load_config(None, "x.db", env={"PBEM_IMAP_URL": "imaps://u@h/INBOX"}), []) == \
        ("imaps://u@h/INBOX",)
