"""Havoc's names as people read them: the game's title (with John of Gaunt), each turn label
(``b3/battle/round2/red`` -> ``battle 3 (Poitiers), round 2``) and how much of a game was
played; found through the game's registry entry (:mod:`reports.gamenames`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.i18n import N_, _, ngettext

#: The name on the box (in the reader's language: the catalogue's).
TITLE = N_("Havoc: The Hundred Years War")
#: The name with an option that adds to it: (option, value) -> words.
TITLE_OPTIONS = {("gaunt", "on"): N_("{game} with John of Gaunt"),
                 ("gaunt", "extra"): N_("{game} with John of Gaunt")}
#: What a seat's hand holds, in its report mail.
HAND = N_("Cards in your hand")


def turn_name(label: str, view: Mapping[str, Any], after: bool) -> str:
    """``battle 2 (Poitiers), round 3``; ``after``: ``after battle 2 (Poitiers)``."""
    if label == "setup":
        return _("the start")
    parts = label.split("/")
    if parts[0] == "final":
        if after:
            return _("the end of the war") if view.get("over") else _("Castillon, the last battle")
        return _("Castillon, the exchange of Dogs") if parts[1:2] == ["exchange"] else _("Castillon, the last battle")
    if parts[0][:1] != "b" or not parts[0][1:].isdigit() or len(parts) < 2:
        return label
    number, kind = parts[0][1:], parts[1]
    name = _battle_name(view, kind)
    battle = (_("battle {number} ({name})").format(number=number, name=name) if name else
              _("battle {number}").format(number=number))
    if after and kind in ("battle", "dogs"):
        return _("after {battle}").format(battle=battle)
    if kind == "battle" and len(parts) > 2 and parts[2].startswith("round"):
        return _("{battle}, round {round}").format(battle=battle, round=parts[2][5:])
    before = {"recruit": N_("before battle {number}, {seat}'s turn"),
              "peace": N_("before battle {number}, the Year of Peace"), "dogs": N_("{battle}, the Dogs of War"),
              "choose": N_("before battle {number}, choosing the battle"),
              "loot": N_("before battle {number}, looting")}
    if kind not in before:
        return battle
    return _(before[kind]).format(number=number, battle=battle, seat=parts[2] if len(parts) > 2 else "")


def turn_short(label: str, view: Mapping[str, Any]) -> str | None:
    """A chart's axis: the battle's name (``Crécy``), ``Castillon``."""
    parts = label.split("/")
    if parts[0] == "final":
        return _("Castillon")
    name = _battle_name(view, parts[1] if len(parts) > 1 else "")
    return name or _("battle {number}").format(number=parts[0][1:])


def played(labels: list[str]) -> str:
    """``7 battles and Castillon``."""
    heads = [label.split("/", 1)[0] for label in labels]
    n = len({h for h in heads if h[:1] == "b"})
    if "final/castillon" in labels:
        return ngettext("{n} battle and Castillon", "{n} battles and Castillon", n).format(n=n)
    return ngettext("{n} battle", "{n} battles", n).format(n=n)


def _battle_name(view: Mapping[str, Any], kind: str) -> str:
    """The name of the battle a decision of ``kind`` belongs to, as ``view`` knows it: the
    battle being fought, else (right after it) the last one; none before a battle."""
    if kind not in ("battle", "dogs"):
        return ""
    current = ((view.get("battle") or {}).get("battle") or {}).get("name")
    return str(current or (view.get("last_battle") or {}).get("name") or "")
