"""Havoc's public moves a report shows that the view does not keep: every seat's recruiting
before a battle (found through the game's registry entry)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def public_record(turns: Sequence[Mapping[str, Any]], turn: str) -> list[dict[str, Any]]:
    """Every seat's recruiting before the battle of ``turn``, from the adjudicated ``turns``
    (their payloads): the cards taken from the face-up recruits, a card from the deck as
    ``None``, and the card laid into the recruits; all seen at the table."""
    battle = turn.split("/", 1)[0]
    mine: list[dict[str, Any]] = []
    for payload in reversed(list(turns)):  # a battle's turns follow each other: read back to its first
        if payload["turn"].split("/", 1)[0] == battle:
            mine.append(payload)
        elif mine:
            break
    out = []
    for payload in reversed(mine):
        for e in payload["events"]:
            if e.get("type") == "Recruit":
                took = [{"from": "deck" if c.get("from") == "deck" else "recruits",
                         "card": None if c.get("from") == "deck" else c.get("card")} for c in e.get("public") or []]
                out.append({"type": "Recruit", "seat": e.get("seat"), "took": took, "laid": e.get("laid")})
    return out
