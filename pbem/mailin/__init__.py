"""Mail in: reading inbound mail from files, Maildir, mbox, stdin or IMAP, its size limits, the
text of a message, bounces, and which senders the games know and how often they may write.

It may import the store and mail out (the headers mail in and out share); what a mail does
is the turn loop's (:mod:`pbem.loop.ingest`), which passes itself in where it reads a mailbox.
"""
