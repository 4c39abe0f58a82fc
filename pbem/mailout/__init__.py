"""Mail out: the messages the service sends (replies, welcome and turn mails, reports turned into
mail), the outbox as a work queue, and delivery by SMTP or into a Maildir; with what they need
of a seat (its colour, its language) and of the players' pages.

It may import pbem.store, pbem.errors and reports/; never the turn loop or the command line.
"""
