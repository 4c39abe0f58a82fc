"""The turn loop: the GM's operations on games (create, adjudicate, correct, branch, reopen,
upgrade), one inbound mail processed (authenticate, record, reply), the mail commands of
players, seat passwords and lockouts, the mails around deadlines, one cron tick, and the
demo.

It may import every room below it (store, mail out, mail in, club, archives); only the
command line (pbem/cli/) imports it.
"""
