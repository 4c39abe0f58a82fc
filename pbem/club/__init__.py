"""What a PBEM server gives its players beyond one game (the "club" around the games).

One module per concern, each a thin layer over :mod:`pbem.service` and the store:

- :mod:`pbem.club.state`: the club's part of a game's fold (absences, civil disorder,
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
- :mod:`pbem.club.limits`: how often mail may make the club do something (the guard log).

The event types are listed in :data:`pbem.club.state.TYPES`; none of them reaches an engine.
"""
