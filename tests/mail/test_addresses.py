"""Seat addresses as the GM writes them: display names parsed
and kept apart, senders matched on the normalised address, anything that is not one plain
address refused with a one-line error before it can reach a mail header or RCPT TO."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli


def run(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def new(db, *seats):
    args = [a for s in seats for a in ("--seat", s)]
    return json.loads(run(db, "new", "duel", "--game", "toy-dice-duel", *args, "--json").stdout)


def order_mail(tmp_path, sender: str, password: str, n: int) -> str:
    path = tmp_path / f"m{n}.eml"
    path.write_bytes(f"From: {sender}\nMessage-ID: <m{n}@example.org>\nSubject: orders\n\n"
                     f"GAME duel red {password}\nBID 1\nEND\n".encode())
    return str(path)


def test_display_names_are_kept_apart_and_senders_match_the_address(tmp_path):
    db = tmp_path / "a.db"
    created = new(db, "red=Anna Kovács <Anna.Kovacs@Example.HU>", "blue=ben@example.org")
    assert created["seats"]["red"]["email"] == "anna.kovacs@example.hu"
    seat = json.loads(run(db, "log", "duel", "--json").stdout)["events"][0]["payload"]["seats"][0]
    assert seat["display_name"] == "Anna Kovács" and seat["addresses"] == ["anna.kovacs@example.hu"]
    password = created["seats"]["red"]["password"]
    out = json.loads(run(db, "ingest", "--json", order_mail(tmp_path, "Anna K <anna.kovacs@example.hu>",
                                                            password, 1)).stdout)
    assert out[0]["outcome"] == "accepted"
    # a new address with a display name, and another allowed sender
    run(db, "seat", "duel", "red", "--email", "Anna <anna@new.example>", "--allow", "Work <ANNA@work.example>")
    out = json.loads(run(db, "ingest", "--json", order_mail(tmp_path, "anna@work.example", password, 2)).stdout)
    assert out[0]["outcome"] == "accepted"
    outbox = json.loads(run(db, "outbox", "--json").stdout)
    assert all("<" not in row["to"] for row in outbox)


BAD = {
    "newline": "red=anna@example.org\nBcc: victim@example.org",
    "carriage return": "red=anna@example.org\rBcc: victim@example.org",
    "NUL": "red=anna\x00@example.org",
    "non-ASCII": "red=ánna@example.org",
    "not an address": "red=Anna Kovacs",
    "two addresses": "red=anna@example.org, eve@example.org",
    "no domain": "red=anna@",
    "no local part": "red=@example.org",
}


@pytest.mark.parametrize("seat", BAD.values(), ids=BAD.keys())
def test_a_seat_that_is_not_one_plain_address_is_a_one_line_error(tmp_path, seat):
    result = run(tmp_path / "b.db", "new", "duel", "--game", "toy-dice-duel", "--seat", seat,
                 "--seat", "blue=ben@example.org", code=1)
    assert result.output.count("\n") == 1 and result.output.startswith("Error:")
    assert run(tmp_path / "b.db", "status", "--json").stdout.strip() == "[]"  # nothing was created


@pytest.mark.parametrize("option", ["--email", "--allow"])
@pytest.mark.parametrize("address", ["x@example.org\nBcc: y@example.org", "x\x00@example.org", "é@example.org"])
def test_seat_changes_refuse_the_same(tmp_path, option, address):
    db = tmp_path / "c.db"
    new(db, "red=anna@example.org", "blue=ben@example.org")
    before = run(db, "log", "duel", "--json").stdout
    result = run(db, "seat", "duel", "red", option, address, code=1)
    assert result.output.count("\n") == 1 and result.output.startswith("Error:")
    assert run(db, "log", "duel", "--json").stdout == before
