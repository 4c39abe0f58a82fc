"""Mail out: the messages the service sends (replies, welcome and turn mails, reports turned
into mail, press relayed between seats, the club's notices), the outbox as a work queue, the
GM's settings file and delivery by SMTP or into a Maildir; with what they need of a seat (its
colour, its language) and of the players' pages.

It may import the store (and the ground); never mail in, the club, the archives, the turn
loop or the command line.
"""
