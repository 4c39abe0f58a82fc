"""Exports of a running game mask passwords in the raw mails (keeping the
hash of the original, which the events name) and leave out the undecided orders."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from pbem.archives.archive import export_game, import_archive, verify_archive
from pbem.archives.masking import mask_mail
from pbem.store.db import Store

SEATS = [("red", "r@x.org"), ("blue", "b@x.org")]


def _mail(password: str, bid: int, n: int, encoding: str = "8bit") -> bytes:
    body = f"GAME g1 red {password}\r\nBID {bid}\r\nEND\r\n".encode()
    if encoding == "base64":
        body = base64.encodebytes(body)
    return (f"From: r@x.org\r\nMessage-ID: <m{n}@x.org>\r\nSubject: GAME g1 red {password}\r\n"
            f"Content-Type: text/plain\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n").encode() + body


def _submit(service, raw: bytes, n: int, bid: int) -> None:
    service.store.put_mail(f"m{n}", raw, f"<m{n}@x.org>", "r@x.org")
    source = {"kind": "mail", "raw_sha256": hashlib.sha256(raw).hexdigest()}
    service.submit("g1", "red", [{"kind": "bid", "value": bid}], f"BID {bid}", source)


@pytest.fixture
def running(service):
    created = service.new_game("g1", "toy-dice-duel", SEATS, {"rounds": "3"}, "privacy-seed")
    password = created.passwords["red"]
    _submit(service, _mail(password, 1, 1), 1, 1)
    service.adjudicate("g1", force=True)  # round-1 decided
    _submit(service, _mail(password, 3, 2, "base64"), 2, 3)  # round-2: red's orders still secret
    return service, password


def test_running_export_has_no_password_and_no_undecided_orders(running):
    service, password = running
    archive = export_game(service.store, "g1")
    text = json.dumps(archive)
    decoded = [base64.b64decode(m["raw"]) for m in archive["mails"]]
    assert password not in text and not any(password.encode() in raw for raw in decoded)
    pending = [e for e in archive["events"] if e["type"] == "OrdersSubmitted" and e["payload"]["turn"] == "round-2"]
    assert pending == [] and "BID 3" not in text and archive["withheld"]["events"] == 1
    assert len(archive["mails"]) == 1  # the decided turn's mail only
    mail = archive["mails"][0]
    event = next(e for e in archive["events"] if e["type"] == "OrdersSubmitted")
    assert mail["sha256"] == event["payload"]["source"]["raw_sha256"]  # the original's hash is kept
    assert hashlib.sha256(_mail(password, 1, 1)).hexdigest() == mail["sha256"]
    assert b"BID 1" in decoded[0] and b"GAME g1 red *" in decoded[0]
    result = verify_archive(archive)
    assert result.ok, result.problems


def test_masked_export_imports(tmp_path, running):
    service, password = running
    fresh = Store(tmp_path / "x.db")
    assert import_archive(fresh, export_game(service.store, "g1")).ok
    assert not any(password.encode() in bytes(r["raw"]) for r in fresh.db.query("select raw from mails"))
    again = export_game(fresh, "g1")  # the masked mail travels on, still proving the original
    first = export_game(service.store, "g1")
    assert again["mails"] == first["mails"] and verify_archive(again).ok


def test_raw_mail_export_keeps_the_mails_for_the_gm(running):
    service, password = running
    archive = export_game(service.store, "g1", raw_mail=True)
    assert password.encode() in base64.b64decode(archive["mails"][0]["raw"])


def test_a_tampered_masked_mail_is_found(running):
    service, _ = running
    archive = export_game(service.store, "g1")
    raw = base64.b64decode(archive["mails"][0]["raw"]).replace(b"BID 1", b"BID 2")
    archive["mails"][0]["raw"] = base64.b64encode(raw).decode()
    assert any("altered" in p for p in verify_archive(archive).problems)


@pytest.mark.parametrize("line", ["GAME w1 9emz-wk5a-v45t", "GAME w1 red:9emz-wk5a-v45t", "> GAME w1 red 9emz-wk5a-v45t"])
def test_mask_finds_passwords_without_the_seat_word(line):
    raw = f"From: r@x.org\r\n\r\n{line}\r\nBID 1\r\n".encode()
    assert b"9emz-wk5a-v45t" not in mask_mail(raw, ["red"])


def test_finished_game_exports_everything(service):
    service.new_game("g1", "toy-dice-duel", SEATS, {"rounds": "1"}, "privacy-seed")
    service.adjudicate("g1", force=True)
    archive = export_game(service.store, "g1")
    assert archive["over"] and "withheld" not in archive
    assert len(archive["events"]) == len(service.store.events("g1"))
