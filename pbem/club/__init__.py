"""What a PBEM server gives its players beyond one game (the "club" around the games).

One module per concern, each a thin layer over :mod:`pbem.loop.service` and the store:

- :mod:`pbem.store.clubstate`: the club's part of a game's fold (absences, civil disorder,
  resignations, missed turns in a row, draw and concession votes, how the game ended,
  observers), rebuilt from the game's own events like everything else;
- :mod:`pbem.club.options`: the game options of the club (absence policy, its cap, civil
  disorder after N missed turns, how open games are joined);
- :mod:`pbem.club.absence`: absences (``ABSENT FROM ... TO ...``), the deadline that waits or
  the bot that plays meanwhile, missed turns and civil disorder, coming back, the standby list
  and replacements;
- :mod:`pbem.club.endings`: draw votes, concessions and resignations;
- :mod:`pbem.club.observers`: observers who get the public report and the final record;
- :mod:`pbem.club.lobby`: open games that players join by mail (``LIST``, ``JOIN``), with a
  waiting list; the game starts when full or when the GM says so, bots in the empty seats;
- :mod:`pbem.club.players`: a player's record across games (``pbem players``, ``STATS``),
  a second address by a confirmed mail, a public table only when the GM enables it;
- :mod:`pbem.club.mail`: the mail commands outside GAME blocks and the lines inside them;
- :mod:`pbem.club.limits`: how often mail may make the club do something (the guard log);
- :mod:`pbem.club.bots`: which bot plays a seat nobody plays (civil disorder, absence, the demo).

The club's notices go out through :mod:`pbem.mailout.clubmail`.

The club sits above the store, mail out and mail in, and below the archives, the turn loop
and the command line: it never imports those; the service it is handed is the loop's (the
final record an observer gets comes from :meth:`pbem.loop.service.Service.game_record`).

The event types are listed in :data:`pbem.store.clubstate.TYPES`; none of them reaches an engine.
"""
