"""Archives and the site: what a game's log may carry when published (withheld addresses,
masked passwords), self-contained archives (export, verify, import), game records, a
transcriber's skeleton record, and the static site of a game's public history.

It may import pbem.store, pbem.mailin (reading the raw mails an archive carries), pbem.mailout
(the reports a site shows) and pbem.errors.
"""
