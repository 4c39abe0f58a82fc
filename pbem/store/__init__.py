"""The store and its history: the event log in SQLite and its migrations, the event types and
the fold that rebuilds a game (with the club's part of it, :mod:`pbem.store.clubstate`), what is
kept beside the log (projection, heads, turn history, the due index and its clock), rollbacks
without losing history, game ids and seat passwords, and the outbox's stored form.

The lowest room: it imports the shared ground (pbem/errors.py, pbem/outfiles.py),
adjudicator/, turns/ and reports/ only; every other room builds on it.
"""
