"""The store and its history: the event log in SQLite, its migrations, the event types and the
fold that rebuilds a game, what is kept beside the log (projection, heads, turn history), and
rolling a game back without losing history.

The lowest room of the shell: it may import pbem.errors, adjudicator/ and turns/, and nothing
else of pbem/ (the others build on it).
"""
