"""``pbem report``: the files of a turn's reports, said as text and JSON, and its refusals."""

from __future__ import annotations

import json

from tests.clirun import SEATS, run


def test_report_writes_a_seats_files_and_says_so(tmp_path):
    db = str(tmp_path / "r.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS)
    run("--db", db, "adjudicate", "w1", "--force")
    out = tmp_path / "reports"
    files = json.loads(run("--db", db, "report", "w1", "--seat", "red", "--out", str(out), "--json"))
    assert files and all(f.startswith(str(out / "1618-spring" / "red")) for f in files)
    assert sorted(str(p) for p in out.rglob("*") if p.is_file()) == sorted(files)
    assert run("--db", db, "report", "w1", "--seat", "red", "--out", str(out)) == \
        f"wrote {len(files)} files under {out}\n"
    opening = json.loads(run("--db", db, "report", "w1", "--turn", "start", "--public", "--out", str(out), "--json"))
    assert opening and all("/public/" in f for f in opening) and not set(opening) & set(files)
    for args, why in ((("--seat", "green"), "no seat 'green' in w1"),
                      (("--turn", "1700-spring"), "w1 has no adjudicated turn '1700-spring'"),
                      (("--turn", "1618-spring", "--set-aside"), "no rollback of w1 set turn '1618-spring' aside")):
        said = run("--db", db, "report", "w1", *args, "--out", str(out), code=1)
        assert why in said and said.count("\n") == 1, said
