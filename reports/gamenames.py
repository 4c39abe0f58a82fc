"""What people read for a game and its turns: the game's name (not the engine id) and each
turn label (``r1/counter/33/blue``, ``b3/battle/round2/red``, ``1618-spring``) in the
game's own words (round and phase, battle and round, season and year)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The name of each game, as on its box.
TITLES = {"wallenstein": "Wallenstein", "havoc": "Havoc: The Hundred Years War", "gods-playground": "God's Playground"}
#: What an option adds to the name.
TITLE_OPTIONS = {("wallenstein", "expansion", "court"): " with the Imperial Court",
                 ("havoc", "gaunt", "on"): " with John of Gaunt", ("havoc", "gaunt", "extra"): " with John of Gaunt"}


def game_title(engine: str, options: Mapping[str, Any] | None = None) -> str:
    """``God's Playground``, ``Wallenstein with the Imperial Court``; an unknown engine's id."""
    title = TITLES.get(engine, engine)
    for (game, key, value), extra in TITLE_OPTIONS.items():
        if game == engine and str((options or {}).get(key, "")) == value:
            title += extra
    return title


#: God's Playground's phases as its reports name them (reports/gods_playground/names.py).
def _gp_phase(phase: str) -> str:
    from reports.gods_playground.names import PHASE_NAMES

    return PHASE_NAMES.get(phase, phase.replace("_", " "))


def turn_name(engine: str, label: str, view: Mapping[str, Any] | None = None, after: bool = False) -> str:
    """``label`` in the game's words: ``spring 1618``, ``round 1, starting estates``,
    ``battle 2 (Poitiers), round 3``. ``view`` (any viewer's, at that turn or right after it)
    gives a Havoc battle its name; ``after``: the name of a report after that turn (``the end
    of round 1``, ``after battle 2 (Poitiers)``). An unknown label is given as it is."""
    if label in ("start", "setup") and engine != "wallenstein" or label == "start":
        return "the start"
    if label == "*":
        return "every turn"
    if engine == "wallenstein":
        return "the setup draft" if label == "setup" else " ".join(reversed(label.split("-", 1)))
    if engine == "havoc":
        return _havoc(label, view or {}, after)
    if engine == "gods-playground":
        return _gods_playground(label, after)
    return label


def turn_short(engine: str, label: str, view: Mapping[str, Any] | None = None) -> str:
    """A few words for a chart's axis: ``spring 1618``, ``round 2``, ``Crécy``."""
    parts = label.split("/")
    if engine == "gods-playground" and parts[0][:1] == "r" and parts[0][1:].isdigit():
        return f"round {parts[0][1:]}"
    if engine == "havoc":
        if parts[0] == "final":
            return "Castillon"
        name = _battle_name(view or {}, parts[1] if len(parts) > 1 else "")
        return name or f"battle {parts[0][1:]}"
    return turn_name(engine, label, view)


def played(engine: str, labels: list[str]) -> str:
    """How much of a game the adjudicated ``labels`` are: ``4 rounds``, ``6 seasons``,
    ``7 battles and Castillon``."""
    def count(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    heads = [label.split("/", 1)[0] for label in labels]
    if engine == "gods-playground":
        return count(len({h for h in heads if h[:1] == "r"}), "round")
    if engine == "havoc":
        battles = count(len({h for h in heads if h[:1] == "b"}), "battle")
        return battles + (" and Castillon" if "final/castillon" in labels else "")
    if engine == "wallenstein":
        return count(len([label for label in labels if "-" in label]), "season")
    return count(len(labels), "turn")


def _battle_name(view: Mapping[str, Any], kind: str) -> str:
    """The name of the battle a Havoc decision of ``kind`` belongs to, as ``view`` knows it:
    the battle being fought, else (right after it) the last one; none before a battle."""
    if kind not in ("battle", "dogs"):
        return ""
    current = ((view.get("battle") or {}).get("battle") or {}).get("name")
    return str(current or (view.get("last_battle") or {}).get("name") or "")


def _havoc(label: str, view: Mapping[str, Any], after: bool) -> str:
    parts = label.split("/")
    if parts[0] == "final":
        if after:
            return "the end of the war" if view.get("over") else "Castillon, the last battle"
        return "Castillon, the exchange of Dogs" if parts[1:2] == ["exchange"] else "Castillon, the last battle"
    if parts[0][:1] != "b" or not parts[0][1:].isdigit() or len(parts) < 2:
        return label
    number, kind = parts[0][1:], parts[1]
    name = _battle_name(view, kind)
    battle = f"battle {number}" + (f" ({name})" if name else "")
    if after and kind in ("battle", "dogs"):
        return f"after {battle}"
    if kind == "battle" and len(parts) > 2 and parts[2].startswith("round"):
        return f"{battle}, round {parts[2][5:]}"
    return {"recruit": f"before battle {number}, {parts[2] if len(parts) > 2 else ''}'s turn",
            "peace": f"before battle {number}, the Year of Peace", "dogs": f"{battle}, the Dogs of War",
            "choose": f"before battle {number}, choosing the battle",
            "loot": f"before battle {number}, looting"}.get(kind, battle)


def _gods_playground(label: str, after: bool) -> str:
    parts = label.split("/")
    if parts[0][:1] != "r" or not parts[0][1:].isdigit() or len(parts) < 2:
        return label
    number, phase = parts[0][1:], parts[1]
    if after and phase in ("counter", "end", "invasions"):
        return f"the end of round {number}"
    return f"round {number}, {_gp_phase(phase)}"
