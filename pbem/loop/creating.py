"""Creating a game: ``pbem new`` checked, seeded and recorded, each seat's password made once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adjudicator.base import GM, GameError
from adjudicator.chance import commitment
from pbem.loop import deadlines
from pbem.store.auth import check_game_id, check_seat_name, hash_password, new_password, parse_address
from pbem.errors import DomainError
from pbem.store.events import KEYED_DIGEST, Game, fold, state_digest
from pbem.store.db import NewEvent
from pbem.loop.deadlines import parse_deadline
from pbem.loop.reading import _engine


@dataclass
class Created:
    """The result of :meth:`Service.new_game`: the game and each seat's password (shown once)."""

    game: Game
    passwords: dict[str, str]


class Creating:
    """Creating games (a part of :class:`~pbem.loop.service.Service`)."""

    # -- creating ---------------------------------------------------------------------
    def new_game(self, game_id: str, engine_name: str, seats: Sequence[tuple[str, str]],
                 options: Mapping[str, str] | None = None, seed: str | None = None,
                 deadline: str | None = None, deadline_every: str | None = None,
                 decision_every: str | None = None, remind_before: str | None = None,
                 colors: Mapping[str, str] | None = None, language: str | None = None,
                 languages: Mapping[str, str] | None = None) -> Created:
        """Create a game; returns it with the seats' passwords (the GM's only chance to see them).
        ``language``: the game's default language; ``languages``: a seat's own (pbem.mailout.languages)."""
        from pbem.mailout import notify
        from pbem.loop.seeds import new_seed

        check_game_id(game_id)
        engine = _engine(engine_name)
        names = [check_seat_name(n) for n, _ in seats]
        addresses = {name: parse_address(email) for name, email in seats}  # refused before anything is made
        if len(set(names)) != len(names):
            raise DomainError("seat names must be different")
        from pbem.mailout.languages import check as check_language

        language = check_language(language) if language else None
        languages = {s: check_language(code) for s, code in (languages or {}).items()}
        if not engine.min_seats <= len(names) <= engine.max_seats:
            raise DomainError(f"{engine.name} needs {engine.min_seats}-{engine.max_seats} seats, got {len(names)}")
        if deadline and deadlines.is_due(parse_deadline(deadline), self.store.clock()):
            raise DomainError(f"the deadline {deadline} has already passed; give a later one, or a relative "
                              "clock (--deadline-every 72h: each turn is due 72 hours after it opens)")
        seed = seed or new_seed()
        from pbem.mailout.press import split_options

        options, press_rules = split_options(dict(options or {}))  # press options are the service's
        from pbem.club.options import split as club_split

        options, club_rules = club_split(options)  # so are the club's (absences, civil disorder, joining)
        check = getattr(engine, "check_options", None)  # at creation only: a replay never runs it
        problems = check(options) if check is not None else []
        if problems:
            raise DomainError(f"{len(problems)} problem(s) in the options; nothing was created:\n"
                              + "\n".join(f"  - {p}" for p in problems))
        try:
            state, setup_events = engine.create(names, options, seed)
        except GameError as exc:
            raise DomainError(str(exc)) from None
        passwords = {name: new_password() for name in names}
        seat_rows, credentials = [], {}
        for name, email in seats:
            salt, digest = hash_password(passwords[name])
            credentials[name] = {"salt": salt, "password_hash": digest}
            display, address = addresses[name]
            seat_rows.append({"name": name, "email": address, "addresses": [address],
                              **({"display_name": display} if display else {}),
                              **({"language": languages[name]} if name in languages else {})})
        payload = {
            "game": game_id, "engine": engine.name, "engine_version": engine.version, "seats": seat_rows,
            "options": options, "commitment": commitment(seed), "data_files": engine.data_files(),
            "setup_events": setup_events, "state_hash": state_digest(state, seed, KEYED_DIGEST),
            "state_digest": KEYED_DIGEST, "deadlines": {"*": parse_deadline(deadline)} if deadline else {},
        }
        if language:
            payload["language"] = language
        if press_rules is not None:
            payload["press"] = press_rules
        if club_rules is not None:
            payload["club"] = club_rules
        from pbem.mailout import colours

        wanted = colours.assign(engine.name, names, colors)
        if wanted != colours.of_view(engine.view(state, GM)):  # recorded only where the engine's differ
            payload["colors"] = wanted
        for key, text in (("deadline_every", deadline_every), ("decision_every", decision_every),
                          ("remind_before", remind_before)):
            if text:  # relative clocks, in seconds (pbem.loop.deadlines)
                payload[key] = int(deadlines.parse_duration(text).total_seconds())
        with self.store.transaction():
            if self.store.game_row(game_id) is not None:
                raise DomainError(f"game {game_id!r} already exists")
            self.store.append(game_id, [NewEvent("GameCreated", payload)], expected_seq=0)
            self.store.put_secrets(game_id, seed, credentials)
            game = fold(game_id, self.store.events(game_id), seed)
            self._project(game, created=True)
            game = self._start_clock(game, self.store.clock())
            self._project(game)
            for name, _ in seats:
                notify.queue(self.store, game, notify.welcome(game, name, passwords[name], self.sender))
        return Created(game, passwords)
