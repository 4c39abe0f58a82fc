"""Seeds from ``secrets``; a weak GM-given seed refused unless --weak-seed."""

from __future__ import annotations

import hashlib
import json
import secrets

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.loop.seeds import MIN_BITS, seed_bits
from pbem.store.db import Store

SEATS = ["--seat", "red=r@x.org", "--seat", "blue=b@x.org"]


def _new(db, *extra):
    return CliRunner().invoke(cli, ["--db", str(db), "new", "t1", "--game", "toy-dice-duel", *SEATS, *extra])


@pytest.mark.parametrize("seed", ["1", "s3cret", "pbem-demo-1", "a" * 64, "0123456789"])
def test_weak_seed_refused_with_a_one_line_error(tmp_path, seed):
    result = _new(tmp_path / "p.db", "--seed", seed)
    assert result.exit_code == 1, result.output
    assert "too weak" in result.output and "--weak-seed" in result.output
    assert Store(tmp_path / "p.db").game_ids() == []


def test_weak_seed_accepted_with_the_flag(tmp_path):
    result = _new(tmp_path / "p.db", "--seed", "1", "--weak-seed", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["commitment"] == hashlib.sha256(b"1").hexdigest()


@pytest.mark.parametrize("seed", [secrets.token_hex(16), secrets.token_hex(32), secrets.token_urlsafe(24)])
def test_strong_given_seed_accepted(tmp_path, seed):
    assert seed_bits(seed) >= MIN_BITS
    assert _new(tmp_path / "p.db", "--seed", seed).exit_code == 0


def test_default_seed_is_random_and_256_bits(tmp_path):
    for n in (1, 2):
        db = tmp_path / f"p{n}.db"
        assert _new(db).exit_code == 0
    seeds = [Store(tmp_path / f"p{n}.db").secrets("t1")[0] for n in (1, 2)]
    assert seeds[0] != seeds[1] and all(len(s) == 64 and int(s, 16) for s in seeds)
