"""Mail in: reading inbound mail from files, Maildir, mbox, stdin or IMAP, its size limits, the
text of a message, bounces, and which senders the games know and how often they may write.

It may import pbem.store, pbem.mailout (the headers mail in and out share) and pbem.errors;
the turn loop (pbem.loop) decides what a mail does.
"""
