"""The turn loop: the GM's operations on games (create, adjudicate, correct, branch, reopen,
upgrade), one inbound mail processed (authenticate, record, reply), the mail commands of
players, press, seat passwords and lockouts, deadlines, one cron tick, and the demo's bots.

It may import pbem.store, pbem.mailin, pbem.mailout, pbem.archives, pbem.club and pbem.errors;
only the command line (pbem.cli) imports it from above.
"""
