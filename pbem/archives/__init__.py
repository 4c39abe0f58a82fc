"""Archives and the site: what a game's log may carry when published (withheld addresses,
masked passwords, sealed votes), self-contained archives (export, verify, import), game
records, a transcriber's skeleton record, and the static site of a game's public history.

It may import the store, mail out (the reports a site shows), mail in (the raw mails an
archive carries) and the club (its notes and endings in a record); never the turn loop or
the command line.
"""
