"""The fast paths (one game loaded, mail built, one command started) keep their guarantees: a loaded game is the caller's own copy,
a group commit is durable when it ends, ``pbem status`` loads only what it needs, and mail
built with the remembering header policy is byte for byte what ``policy.default`` gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

import pbem.store.connection
import pbem.store.db
from pbem.mailout.mailbase import MAIL_POLICY
from pbem.loop.service import Service
from pbem.store.db import Store
from tests.store.helpers import ROOT, SEATS, SEED, wallenstein_game


def _scribble(value: object) -> None:
    """Change every dict and list inside ``value`` in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


def test_a_loaded_game_is_the_callers_own_copy(tmp_path):
    service = Service(Store(tmp_path / "p.db"), "gm@x.org")
    service.new_game("w1", "wallenstein", SEATS, {}, SEED)
    service.adjudicate("w1", force=True)
    first = service.load("w1")  # folded, then cached
    recorded = first.state_hash
    _scribble(first.state)
    first.submitted["red"] = {"turn": "x"}
    again = service.load("w1")  # from the cache
    assert again.state_hash == recorded and "scribbled" not in again.state
    assert "red" not in again.submitted
    _scribble(again.state)
    assert service.load("w1").state_hash == recorded


def test_group_commit_relaxes_the_sync_and_fsyncs_the_log_at_the_end(tmp_path, monkeypatch):
    store = Store(tmp_path / "p.db")
    synced: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(pbem.store.connection.os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")),
                                                           real_fsync(fd)))
    before = store.conn.execute("PRAGMA synchronous").fetchone()[0]
    with store.group_commit():
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        with store.transaction():
            store.put_mail("k1", b"x", None, None)
        with store.group_commit():  # nested: the outer block syncs
            pass
        assert not synced
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == before
    assert [p.endswith("p.db-wal") for p in synced] == [True]


def test_status_loads_neither_other_engines_nor_the_mail_and_picture_machinery(tmp_path):
    db = tmp_path / "p.db"
    wallenstein_game(db)
    code = ("import sys\nfrom pbem.cli.main import main\n"
            f"sys.argv = ['pbem', '--db', {str(db)!r}, 'status', 'w1']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "import json\nprint(json.dumps(sorted(sys.modules)))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120, check=True).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert "adjudicator.wallenstein" in loaded
    for heavy in ("adjudicator.havoc", "adjudicator.gods_playground", "sqlite_utils", "numpy", "matplotlib",
                  "jinja2", "imaplib", "smtplib", "pbem.loop.ingest", "pbem.archives.archive", "pbem.archives.records",
                  "pbem.cli.commands.mail", "pbem.cli.commands.archive",
                  # nor the mail package, the rules (only the engine's pending/scores/winner are
                  # used) or the order-mail grammar
                  "email", "email.utils", "pbem.mailout.mailbase", "pbem.mailout.notify", "reports", "logging", "socket",
                  "tomllib", "turns.envelope", "adjudicator.wallenstein.season",
                  "adjudicator.wallenstein.orders", "adjudicator.wallenstein.court", "adjudicator.recorded"):
        assert heavy not in loaded, f"pbem status imported {heavy}"


def _modules_of(db, *args: str) -> set[str]:
    """The modules a ``pbem --db DB ARGS`` process has imported when it ends."""
    code = ("import sys\nfrom pbem.cli.main import main\n"
            f"sys.argv = ['pbem', '--db', {str(db)!r}, *{list(args)!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "import json\nprint(json.dumps(sorted(sys.modules)))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PBEM_IMAP_URL": "", "PBEM_SMTP_HOST": ""}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120, check=True).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def test_a_quiet_cron_tick_imports_neither_the_mail_nor_the_report_machinery(tmp_path):
    db = tmp_path / "p.db"
    wallenstein_game(db)
    import sqlite3

    with sqlite3.connect(db) as conn:  # the welcome mails went out: nothing to send
        conn.execute("update outbox set sent_at = '2026-12-01T09:00:00Z'")
    loaded = _modules_of(db, "tick", "--maildir", str(tmp_path / "out"))
    for heavy in ("adjudicator.havoc", "adjudicator.gods_playground", "sqlite_utils", "numpy", "matplotlib",
                  "jinja2", "imaplib", "smtplib", "email", "pbem.loop.ingest", "pbem.mailin.imap", "pbem.mailout.deliver",
                  "pbem.archives.archive", "pbem.archives.records", "pbem.mailout.notify", "pbem.mailin.parse", "reports", "turns.envelope",
                  "pbem.cli.commands.mail", "pbem.cli.commands.archive", "pbem.cli.commands.reports",
                  "adjudicator.wallenstein.season"):
        assert heavy not in loaded, f"pbem tick imported {heavy}"


#: What no one-mail ``pbem ingest FILE`` imports (a module or anything under it): the report
#: renderers, maps and charts, the other games, the mailbox readers and senders, and the
#: standard library's parts only an error or a rare path needs (logging until a message can go
#: somewhere, difflib's suggestions for a misspelt name, gzip for a released data file,
#: secrets for a new password).
MAIL_HOOK_NEVER = ("reports.render", "reports.model", "reports.files", "reports.message", "reports.charts",
                   "reports.wallenstein", "reports.havoc", "reports.gods_playground", "matplotlib", "jinja2", "babel",
                   "numpy", "sqlite_utils", "adjudicator.havoc", "adjudicator.gods_playground", "turns.havoc",
                   "turns.gods_playground", "mailbox", "html.parser", "imaplib", "smtplib", "pbem.archives",
                   "pbem.mailin.imap", "pbem.mailout.deliver", "logging", "difflib", "gzip", "secrets")
#: What a stranger's mail (no game, no password) imports beyond that: no engine, grammar or
#: games' registry entry at all.
STRANGER_NEVER = ("adjudicator.gameinfo", "adjudicator.versions", "adjudicator.wallenstein", "turns.wallenstein")


def _imported(loaded: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded if any(m == p or m.startswith(p + ".") for p in prefixes))


@pytest.mark.parametrize("sender", ["seat", "stranger"])
def test_a_mail_hook_ingest_imports_only_what_its_mail_needs(tmp_path, sender):
    """A seat's order mail, and a stranger's, through ``pbem ingest FILE`` (a mail hook runs
    one per mail): the reply needs the deadline's words, not the report renderers, maps or
    charts; a stranger's mail needs no game at all."""
    from pbem.loop.demo import order_mail

    db = tmp_path / "p.db"
    service = Service(Store(db), "gm@pbem.example")
    created = service.new_game("w1", "wallenstein", SEATS, {}, SEED)
    mail = tmp_path / "order.eml"
    if sender == "seat":
        mail.write_bytes(order_mail(created.game, SEATS[0][0], created.passwords[SEATS[0][0]], "BID 1",
                                    service.store.clock(), "gm@pbem.example"))
    else:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "stranger@elsewhere.example", "gm@pbem.example", "hello"
        msg.set_content("Is this the game?\n")
        mail.write_bytes(bytes(msg))
    service.store.close()
    loaded = _modules_of(db, "ingest", str(mail))
    assert "pbem.loop.ingest" in loaded and "reports.timefmt" in loaded  # the mail was read
    if sender == "seat":
        assert "turns.wallenstein" in loaded  # its orders were read by its game's grammar
    never = MAIL_HOOK_NEVER + (STRANGER_NEVER if sender == "stranger" else ())
    assert not _imported(loaded, never), f"pbem ingest FILE (a {sender}'s mail) imported {_imported(loaded, never)}"


def test_the_lazy_logger_drops_only_what_logging_would_drop(caplog):
    """Before anything imports logging, an info or debug message goes nowhere (as it would:
    nothing can have configured a handler) and logging stays unimported; a warning is
    written as logging writes it unconfigured; once logging is configured every message
    reaches it."""
    code = ("import sys\nfrom pbem.loop.lazylog import LazyLogger\nlog = LazyLogger('pbem.ingest')\n"
            "log.info('quiet %s', 1)\nlog.debug('quiet')\nprint('logging' in sys.modules)\n"
            "log.warning('could not parse a mail (%s)', 'X')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert done.stdout.strip() == "False"
    assert done.stderr.strip() == "could not parse a mail (X)"
    from pbem.loop.lazylog import LazyLogger

    caplog.set_level("DEBUG", logger="pbem.ingest")
    log = LazyLogger("pbem.ingest")
    log.debug("d %s", 1)
    log.info("i %s", 2)
    log.warning("w %s", 3)
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [("DEBUG", "d 1"), ("INFO", "i 2"), ("WARNING", "w 3")]


def test_each_command_imports_the_module_that_defines_it_only():
    """``pbem.cli.main.COMMAND_HOMES`` names the module of the commands cron and mail hooks run (a
    command it does not name still works: every command module is imported for it)."""
    from pbem.cli.main import COMMAND_HOMES, cli

    homes = {name: command.callback.__module__.rsplit(".", 1)[-1] for name, command in cli.commands.items()
             if command.callback is not None}
    for name in ("ingest", "tick", "send", "outbox", "repair"):
        assert name in COMMAND_HOMES, f"pbem.cli.main.COMMAND_HOMES lacks {name!r}"
    for name, module in COMMAND_HOMES.items():
        assert homes.get(name) == module, f"pbem.cli.main.COMMAND_HOMES[{name!r}] should be {homes.get(name)!r}"


def _built(pol: policy.EmailPolicy) -> bytes:
    msg = EmailMessage(policy=pol)
    msg["From"] = "Spielleiter <gm@x.org>"
    msg["To"] = "anna@x.org"
    msg["Subject"] = "Re: Befehle für w1 — Árvíztűrő tükörfúrógép " * 3
    msg["Message-ID"] = "<1@x.org>"
    msg.set_content("Sehr geehrte Spielerin,\n" * 40)
    return bytes(msg)


def test_the_remembering_policy_gives_the_bytes_of_the_default_policy():
    assert _built(MAIL_POLICY) == _built(policy.default) == _built(MAIL_POLICY)
    raw = _built(policy.default)
    for _ in range(2):  # the second time from remembered headers
        a, b = message_from_bytes(raw, policy=MAIL_POLICY), message_from_bytes(raw, policy=policy.default)
        assert [(k, str(v)) for k, v in a.items()] == [(k, str(v)) for k, v in b.items()]
        assert a.get_content_type() == b.get_content_type() == "text/plain"
        assert bytes(a) == bytes(b)


def test_replay_encodes_the_derived_events_once_and_the_state_hash_is_unchanged(tmp_path):
    """``fold(verify=True)`` splices the derived events' canonical text into the state's
    (Wallenstein keeps them as ``log``): the digest must be the one of the whole state, and a
    recorded turn whose events or hash differ must still be refused."""
    import dataclasses

    import pytest

    from adjudicator.base import canonical_json, state_hash
    from pbem.store.digest import _canonical
    from pbem.store.events import KEYED_DIGEST, ReplayMismatch, fold, state_digest

    service = Service(Store(tmp_path / "p.db"), "gm@x.org")
    service.new_game("w1", "wallenstein", SEATS, {}, SEED)
    for _ in range(3):
        service.adjudicate("w1", force=True)
    events = service.store.events("w1")
    game = fold("w1", events, SEED, verify=True)
    state = game.state
    log_text = canonical_json(state["log"])
    assert _canonical(state, ("log", log_text)) == canonical_json(state)
    assert state_digest(state, SEED, KEYED_DIGEST, ("log", log_text)) == state_digest(state, SEED, KEYED_DIGEST)
    assert state_digest(state, SEED, None, ("log", log_text)) == state_hash(state)
    holey = {**state, "note": "\x00pbem: known value\x00"}  # the stand-in itself in the state
    assert _canonical(holey, ("log", log_text)) == canonical_json(holey)
    last = max(i for i, e in enumerate(events) if e.type == "TurnAdjudicated")
    payload = events[last].payload
    changed = [dict(e) for e in payload["events"]]
    changed[0] = {**changed[0], "changed": 1}
    for forged_payload, message in (({**payload, "events": changed}, "derived events"),
                                    ({**payload, "state_hash": "0" * 64}, "state hash")):
        forged = [*events[:last], dataclasses.replace(events[last], payload=forged_payload), *events[last + 1:]]
        with pytest.raises(ReplayMismatch, match=message):
            fold("w1", forged, SEED, verify=True)


def test_replay_checks_the_derived_events_against_the_stored_payload_text(tmp_path):
    """Events read from a store carry their payload's stored JSON, and replay compares the
    engine's derived events with it by splicing: a changed row is refused, a row written with
    other spacing (not canonical) is checked the slow way, and a copy made with
    ``dataclasses.replace`` does not keep the old text."""
    import dataclasses

    import pytest

    from adjudicator.base import canonical_json
    from pbem.store.events import ReplayMismatch, fold

    store = Store(tmp_path / "p.db")
    service = Service(store, "gm@x.org")
    service.new_game("w1", "wallenstein", SEATS, {}, SEED)
    for _ in range(2):
        service.adjudicate("w1", force=True)
    events = store.events("w1")
    assert all(e.text == canonical_json(e.payload) for e in events)
    assert dataclasses.replace(events[-1]).text is None
    last = max(e.seq for e in events if e.type == "TurnAdjudicated")
    payload = next(e.payload for e in events if e.seq == last)

    def rewrite(text: str) -> None:
        with store.transaction():
            store.conn.execute("update events set payload = ? where game_id = 'w1' and seq = ?", [text, last])

    rewrite(json.dumps(payload, indent=1, sort_keys=False))  # the same events, not canonical
    fold("w1", store.events("w1"), SEED, verify=True)
    rewrite(canonical_json({**payload, "zz": {"events": payload["events"]}}))  # "events" named again, inside
    fold("w1", store.events("w1"), SEED, verify=True)
    changed = {**payload, "events": [{**payload["events"][0], "changed": 1}, *payload["events"][1:]]}
    twice = canonical_json(payload)[:-1] + ',"events":' + canonical_json(changed["events"]) + "}"
    assert json.loads(twice) == changed  # a second key wins: the recorded events are the changed ones
    for text in (canonical_json(changed), json.dumps(changed, indent=1), twice):
        rewrite(text)
        with pytest.raises(ReplayMismatch, match="derived events"):
            fold("w1", store.events("w1"), SEED, verify=True)


def test_the_recorded_value_found_in_the_stored_text_ends_where_the_text_says():
    """A value that only begins like the engine's (``12`` for ``1``) is not the same."""
    from pbem.store.events import _same_events
    from pbem.store.chain import StoredEvent, with_text

    def event(payload: dict) -> StoredEvent:
        return with_text(StoredEvent("g", 2, "TurnAdjudicated", 1, payload, "", "", ""), json.dumps(
            payload, sort_keys=True, separators=(",", ":")))

    assert _same_events("1", event({"a": 0, "events": 1, "z": 2}), "events")
    assert not _same_events("1", event({"a": 0, "events": 12, "z": 2}), "events")
    assert not _same_events("1", event({"events": 12}), "events")
    assert _same_events("[]", event({"events": []}), "events")


def test_the_state_text_kept_from_the_last_decision_is_the_text_of_the_whole_state():
    """A verifying fold keeps the canonical text of each unchanged part of a sequential game's
    state from one decision to the next: the text must be that of the whole state, even where
    a part changes into an equal value of another type (1, 1.0 and True; 0.0 and -0.0), which
    ``==`` would take for the same."""
    from adjudicator.base import canonical_json
    from pbem.store.digest import _canonical

    states = [
        {"a": 1, "b": [1, 2], "c": {"x": {"k": 0}, "y": [0.0]}, "d": "s", "e": None},
        {"a": True, "b": [1, 2], "c": {"x": {"k": 0}, "y": [0.0]}, "d": "s", "e": None},
        {"a": 1.0, "b": [True, 2], "c": {"x": {"k": 0.0}, "y": [0.0]}, "d": "s", "e": None},
        {"a": 1.0, "b": [1.0, 2], "c": {"x": {"k": False}, "y": [-0.0]}, "d": "s", "e": 0},
        {"a": -0.0, "b": (1, 2), "c": {"x": {"k": False}, "y": [-0.0], "z": {}}, "d": "é\u2028", "e": False},
        {"a": 0.0, "b": [1, 2], "c": {"x": {True: 0}}, "f": [{"g": 1}], "d": "s"},
        {"a": 0.0, "b": [1, 2], "c": {"x": {1: 0}}, "f": [{"g": 1}], "d": "s"},
        {"a": 0.0, "b": [1, 2], "c": [], "f": [{"g": 1}], "d": "s"},
    ]
    texts: dict = {}
    for state in states + states[::-1]:
        assert _canonical(state, None, texts) == canonical_json(state)
    assert texts  # the parts were kept


def test_the_kept_texts_of_a_long_dict_and_of_values_marshal_cannot_write_are_exact():
    """A long dict of the state (a board) is kept value by value; a value that becomes an equal
    one of another type inside it, a key added or removed, the keys in another order, and a
    value marshal cannot write (encoded each time) all give the text of the whole state."""
    import enum

    from adjudicator.base import canonical_json
    from pbem.store.digest import _canonical

    class Colour(str, enum.Enum):
        RED = "red"

    board = {f"province {i:02}": {"units": i, "owner": "red" if i % 2 else None, "note": "x" * 30}
             for i in range(40)}
    assert len(canonical_json(board)) > 1000
    states = [{"board": board, "round": 1}]
    states.append({"board": {**board, "province 07": {**board["province 07"], "units": 7.0}}, "round": 1})
    states.append({"board": {**board, "province 07": {**board["province 07"], "units": True}}, "round": True})
    states.append({"round": 1, "board": dict(reversed(board.items()))})
    states.append({"board": {k: v for k, v in board.items() if k != "province 03"}, "round": 1})
    states.append({"board": {**board, "province 99": {"units": -0.0}}, "round": 1, "colour": Colour.RED})
    states.append({"board": {**board, "province 99": {"units": 0.0}}, "round": 1, "colour": "red"})
    texts: dict = {}
    for state in states + states[::-1] + states:
        assert _canonical(state, None, texts) == canonical_json(state)


def test_the_kept_texts_follow_a_state_changed_in_place():
    """A replay hands each state to the engine, which changes it in place (``advance_owned``):
    the same dict object comes back with some of its parts changed inside, a long dict kept
    value by value changes one value, loses and gains keys, becomes a list and a dict again;
    the text is that of the whole state every time."""
    from adjudicator.base import canonical_json
    from pbem.store.digest import _canonical

    state = {"board": {f"p{i:02}": {"units": [i], "owner": None, "note": "y" * 40} for i in range(30)},
             "round": 1, "hands": {"red": ["a", "b"]}, "log": []}
    texts: dict = {}
    steps = [
        lambda s: s["board"]["p03"]["units"].append(1),
        lambda s: s["board"]["p03"].update(units=[True]),
        lambda s: s["hands"]["red"].pop(),
        lambda s: s["board"]["p04"].update(units=[1.0]),
        lambda s: s["board"].pop("p05"),
        lambda s: s["board"].update(p05={"units": [0]}),
        lambda s: s.update(round=True),
        lambda s: s.update(board=[1, 2]),
        lambda s: s.update(board={f"p{i:02}": {"units": [i], "note": "z" * 40} for i in range(30)}),
        lambda s: s["board"]["p01"].update(units=[-0.0]),
        lambda s: s["board"]["p01"].update(units=[0.0]),
        lambda s: s.update(board=dict(reversed(s["board"].items()))),
        lambda s: s["board"].update(p07={"units": [7], "owner": "red"}),
        lambda s: s.update(extra={"k": 1}),
        lambda s: s["extra"].update(k=True),
    ]
    for step in [lambda s: None, *steps]:
        step(state)
        assert _canonical(state, None, texts) == canonical_json(state)


def test_canonical_json_is_json_dumps_with_sorted_keys_and_no_spaces():
    """The canonical text (made by a C encoder set up once) is the standard library's."""
    import json

    from adjudicator.base import canonical_json

    for value in (None, True, 0, -0.0, 1.5, 1e16, 1e-7, float("nan"), float("inf"), 2**70, "é\u2028\x00\"\\",
                  {"b": 1, "a": [1, (2, 3), {"z": None, "é": "ü"}]}, {1: "x", 2: "y"}, {True: 1}, [], {}, [[{}]]):
        assert canonical_json(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
