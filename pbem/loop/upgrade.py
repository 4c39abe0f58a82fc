"""``pbem upgrade G [--to VERSION] --reason TEXT``: move a running game to newer rules.

A game keeps the rules version it was created with (:mod:`adjudicator.versions`) until the GM
moves it on. The move is one ``EngineUpgraded`` event, made between turns (no seat has orders
in for the pending turn, so nothing accepted under the old rules is judged by the new ones),
with the versions, the reason, the new version's data files and the hash of the state as the
new version keeps it; ``replay --verify`` checks each stretch of the game under its own
version. Every seat is mailed what changes for it: the changelog entries of each version in
between (docs/changelog-<game>.md is written from the same entries). A rollback to a turn
before the upgrade returns the game to the rules that turn was played with.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from adjudicator.versions import Release, upgraded_state
from pbem.errors import DomainError
from pbem.store.events import Game
from pbem.mailout.mailbase import Outgoing, base_message, fold_prose


def plan(game: Game, to: str | None) -> tuple[list[Release], dict[str, Any]]:
    """The releases the game passes to reach ``to`` (default: the newest) and the state it will
    have; :class:`DomainError` naming the problem when it cannot be upgraded now."""
    releases = getattr(game.engine, "releases", None)
    if releases is None:
        raise DomainError(f"{game.engine.name} has one rules version here ({game.engine.version}): nothing to upgrade")
    current = game.engine.version
    target = to or releases.newest.version
    if target not in releases.versions:
        raise DomainError(f"{game.engine.name} has no rules version {target!r} here "
                          f"(it knows {', '.join(releases.versions)})")
    steps = [r for r in releases.after(current) if releases.versions.index(r.version) <= releases.versions.index(target)]
    if target == current:
        raise DomainError(f"game {game.game_id} already plays {game.engine.name} rules {current}")
    if not steps:
        raise DomainError(f"game {game.game_id} plays {game.engine.name} rules {current}; {target} is older: "
                          "a game is never moved back to older rules")
    if game.pending is None:
        raise DomainError(f"game {game.game_id} is over: its rules stay those it was played with")
    sent = sorted(s for s, o in game.submitted.items() if o["turn"] == game.pending.turn)
    if sent:
        raise DomainError(f"game {game.game_id} is in the middle of turn {game.pending.turn}: "
                          f"{', '.join(sent)} sent orders under rules {current}; upgrade before the turn's first "
                          "orders or after its adjudication (or void them with pbem void)")
    return steps, upgraded_state(game.engine, target, game.state)


def payload(game: Game, steps: list[Release], state_hash: str, reason: str) -> dict[str, Any]:
    """The ``EngineUpgraded`` event's payload."""
    return {"from": game.engine.version, "to": steps[-1].version, "reason": reason,
            "turn": game.pending.turn if game.pending else None, "data_files": dict(steps[-1].data),
            "state_hash": state_hash}


def changes(steps: list[Release], width: int = 72) -> list[str]:
    """What the versions in ``steps`` change, as lines for players (version by version), each
    entry in the current language where docs/locale translates it (the changelog pages
    docs/<lang>/changelog-<game>.md are made from the same entries), else as written."""
    from reports.i18n import _

    lines = []
    for release in steps:
        lines.append(_("Version {version} ({released}):").format(version=release.version, released=release.released))
        for entry in release.changes:
            lines += textwrap.wrap(changelog_entry(entry), width, initial_indent="  - ", subsequent_indent="    ",
                                   break_long_words=False, break_on_hyphens=False)
    return lines


def changelog_entry(entry: str) -> str:
    """A changelog entry in the current language (the docs catalogue's translation of the
    changelog page's list item), or as written when it has none."""
    from reports.docs_i18n import LANGUAGES
    from reports.i18n import lang

    here = lang()
    return (_docs_catalogue(here).get(entry) or entry) if here in LANGUAGES else entry


@lru_cache(maxsize=None)
def _docs_catalogue(lang: str) -> Any:
    from reports.docs_i18n import Catalogue

    return Catalogue(lang)


def notice(game: Game, seat: str, event: dict[str, Any], steps: list[Release], sender: str) -> Outgoing:
    """The mail telling ``seat`` that its game now plays newer rules, and what changes (the
    changelog's entries, in the seat's language where the docs catalogue has them)."""
    from pbem.mailout.mailbase import speaking_to

    with speaking_to(game, seat):
        return _notice(game, seat, event, steps, sender)


def _notice(game: Game, seat: str, event: dict[str, Any], steps: list[Release], sender: str) -> Outgoing:
    from reports.i18n import _

    to = game.seats[seat]["email"]
    head = _("Game {game}: from turn {turn} on, the game is played with {engine} rules version {to} (it was "
             "{before}). The GM's reason: {reason}").format(game=game.game_id, turn=event["turn"],
                                                            engine=game.engine.name, to=event["to"],
                                                            before=event["from"], reason=event["reason"])
    tail = _("Everything played so far stands as it was played. The order guide describes the new rules; "
             "HELP by mail lists the orders.")
    lines = [*textwrap.wrap(head, 72), "", _("What changes for you:"), *changes(steps), "", *textwrap.wrap(tail, 72),
             _("Your next orders go in a block starting with:"), f"  GAME {game.game_id} {seat} " + _("<your password>")]
    msg = base_message(game, to, _("[{game}] the game now plays rules {version}").format(
        game=game.game_id, version=event["to"]), sender, "upgrade")
    msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(to, msg["Subject"], msg, "upgrade")


@dataclass(frozen=True)
class RulesOf:
    """One game's rules versions as ``pbem rules`` shows them: the newest, each version with
    its release date and changes (``versions``, JSON-ready), and those changes as lines."""

    game: str
    newest: str
    versions: list[dict[str, Any]]
    lines: list[str]


def rules_of(game: str | None = None) -> list[RulesOf]:
    """The rules versions this pbem keeps for ``game`` (every game when None), oldest first;
    an unknown game is a one-line :class:`DomainError`."""
    from adjudicator.registry import engine_names, get_engine

    out = []
    for name in [game] if game else engine_names():
        try:
            engine = get_engine(name)
        except Exception as exc:  # noqa: BLE001 - an unknown game is a domain error
            raise DomainError(str(exc)) from None
        releases = getattr(engine, "releases", None)
        versions = list(releases.all) if releases is not None else []
        out.append(RulesOf(name, engine.version,
                           [{"version": r.version, "released": r.released, "changes": list(r.changes)}
                            for r in versions] or [{"version": engine.version}], changes(versions)))
    return out
