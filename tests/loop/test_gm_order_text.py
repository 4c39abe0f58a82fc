"""An order text the GM types (`pbem ingest anna.txt`, docs/gm-guide.md "Orders typed by the
GM") that is refused is the GM's to fix: the command exits 1 (a script notices), the answer
names every problem in the GM's words (no "how to send orders" by mail, no "orders you sent"),
and the same text again is refused again, also with exit 1."""

from __future__ import annotations

from tests.clirun import SEATS, run


def test_a_refused_order_text_exits_1_with_the_gms_answer(tmp_path):
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--deadline-every", "72h")
    anna = tmp_path / "anna.txt"
    anna.write_text("GAME w1 red\nTAX Burgundd\nBID 2\nEND\n")
    out = run("--db", db, "ingest", str(anna), code=1)
    assert "line 2: TAX Burgundd" in out and "did you mean: Burgund" in " ".join(out.split()), out
    assert "too few actions planned" in out, out
    assert "How to send orders" not in out and "you sent" not in out and "mail (not HTML)" not in out, out
    assert "the seat's earlier orders for this turn still stand" in " ".join(out.split()), out
    assert "Error: 1 order text(s) of yours not (wholly) recorded" in out, out
    again = run("--db", db, "ingest", str(anna), code=1)
    assert "rejected before: the same text; correct it and ingest it again" in again, again
    empty = tmp_path / "empty.txt"
    empty.write_text("orders for red, by phone\n")
    assert "No order block (GAME <game> <seat> ... END) was found in this order text" in \
        " ".join(run("--db", db, "ingest", str(empty), code=1).split())


def test_an_accepted_order_text_exits_0(tmp_path):
    db = str(tmp_path / "pbem.db")
    for game in ("w1", "w2"):  # the same seed: the same counties
        run("--db", db, "new", game, "--game", "wallenstein", *SEATS, "--seed", "gm-text", "--weak-seed")
    run("--db", db, "bots", "w1", "--seat", "red", "--out", str(tmp_path / "bot"))
    (written,) = (tmp_path / "bot").iterdir()
    text = tmp_path / "red.txt"
    text.write_text(written.read_text().replace("GAME w1 red", "GAME w2 red"))
    assert run("--db", db, "ingest", str(text)).startswith("accepted")
