"""What people read for a game and its turns: the game's name (not the engine id) and each
turn label (``r1/counter/33/blue``, ``b3/battle/round2/red``, ``1618-spring``) in the
game's own words (round and phase, battle and round, season and year)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.i18n import N_, _, ngettext

#: The name of each game, as on its box (in the reader's language: the catalogue's).
TITLES = {"wallenstein": N_("Wallenstein"), "havoc": N_("Havoc: The Hundred Years War"),
          "gods-playground": N_("God's Playground")}
#: The name with an option that adds to it.
TITLE_OPTIONS = {("wallenstein", "expansion", "court"): N_("{game} with the Imperial Court"),
                 ("havoc", "gaunt", "on"): N_("{game} with John of Gaunt"),
                 ("havoc", "gaunt", "extra"): N_("{game} with John of Gaunt")}
#: Wallenstein's seasons in a turn's name (``1618-spring`` -> ``spring 1618``).
SEASONS = {"spring": N_("spring {year}"), "summer": N_("summer {year}"), "autumn": N_("autumn {year}"),
           "winter": N_("winter {year}")}


def game_title(engine: str, options: Mapping[str, Any] | None = None) -> str:
    """``God's Playground``, ``Wallenstein with the Imperial Court``; an unknown engine's id."""
    title = _(TITLES[engine]) if engine in TITLES else engine
    for (game, key, value), extra in TITLE_OPTIONS.items():
        if game == engine and str((options or {}).get(key, "")) == value:
            title = _(extra).format(game=title)
    return title


#: God's Playground's phases as its reports name them (reports/gods_playground/names.py).
def _gp_phase(phase: str) -> str:
    from reports.gods_playground.names import PHASE_NAMES, phase_name

    return phase_name(phase) if phase in PHASE_NAMES else phase.replace("_", " ")


def turn_name(engine: str, label: str, view: Mapping[str, Any] | None = None, after: bool = False) -> str:
    """``label`` in the game's words: ``spring 1618``, ``round 1, starting estates``,
    ``battle 2 (Poitiers), round 3``. ``view`` (any viewer's, at that turn or right after it)
    gives a Havoc battle its name; ``after``: the name of a report after that turn (``the end
    of round 1``, ``after battle 2 (Poitiers)``). An unknown label is given as it is."""
    if label in ("start", "setup") and engine != "wallenstein" or label == "start":
        return _("the start")
    if label == "*":
        return _("every turn")
    if engine == "wallenstein":
        if label == "setup":
            return _("the setup draft")
        if label.startswith("setup/pick-"):  # rules 1.2: one pick a turn (setup/pick-4, setup/pick-4/refreshed)
            return _("the setup draft, pick {number}").format(number=label.split("/")[1][len("pick-"):])
        year, _sep, season = label.partition("-")
        return _(SEASONS[season]).format(year=year) if season in SEASONS else " ".join(reversed(label.split("-", 1)))
    if engine == "havoc":
        return _havoc(label, view or {}, after)
    if engine == "gods-playground":
        return _gods_playground(label, after)
    return label


def turn_short(engine: str, label: str, view: Mapping[str, Any] | None = None) -> str:
    """A few words for a chart's axis: ``spring 1618``, ``round 2``, ``Crécy``."""
    parts = label.split("/")
    if engine == "gods-playground" and parts[0][:1] == "r" and parts[0][1:].isdigit():
        return _("round {number}").format(number=parts[0][1:])
    if engine == "havoc":
        if parts[0] == "final":
            return _("Castillon")
        name = _battle_name(view or {}, parts[1] if len(parts) > 1 else "")
        return name or _("battle {number}").format(number=parts[0][1:])
    return turn_name(engine, label, view)


def played(engine: str, labels: list[str]) -> str:
    """How much of a game the adjudicated ``labels`` are: ``4 rounds``, ``6 seasons``,
    ``7 battles and Castillon``."""
    heads = [label.split("/", 1)[0] for label in labels]
    if engine == "gods-playground":
        n = len({h for h in heads if h[:1] == "r"})
        return ngettext("{n} round", "{n} rounds", n).format(n=n)
    if engine == "havoc":
        n = len({h for h in heads if h[:1] == "b"})
        if "final/castillon" in labels:
            return ngettext("{n} battle and Castillon", "{n} battles and Castillon", n).format(n=n)
        return ngettext("{n} battle", "{n} battles", n).format(n=n)
    if engine == "wallenstein":
        n = len([label for label in labels if "-" in label])
        return ngettext("{n} season", "{n} seasons", n).format(n=n)
    return ngettext("{n} turn", "{n} turns", len(labels)).format(n=len(labels))


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


def _gods_playground(label: str, after: bool) -> str:
    parts = label.split("/")
    if parts[0][:1] != "r" or not parts[0][1:].isdigit() or len(parts) < 2:
        return label
    number, phase = parts[0][1:], parts[1]
    if after and phase in ("counter", "end", "invasions"):
        return _("the end of round {number}").format(number=number)
    return _("round {number}, {phase}").format(number=number, phase=_gp_phase(phase))
