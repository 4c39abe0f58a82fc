"""The Wallenstein engine's sentences (why an action was not carried out, what the game chose
for a seat, pieces the box ran out of) as templates for :mod:`reports.enginetext`.

Each template is the engine's sentence with its values as placeholders
(adjudicator/wallenstein: actions.py, combat.py, court.py, draft.py, favour.py, season.py,
winter.py); a new engine sentence needs a template here, or it is shown in English.
"""

from __future__ import annotations

from reports.enginetext import Sentences, Template, joined, words
from reports.i18n import N_, _, pgettext

#: Building and piece names as the engine writes them in its sentences.
PIECES = {"palace": N_("palace"), "church": N_("church"), "trading house": N_("trading post"),
          "revolt marker": N_("revolt marker")}
SEASONS = {"spring": N_("spring"), "summer": N_("summer"), "autumn": N_("autumn"), "winter": N_("winter")}
TILES = {"attack": N_("attack"), "tax": N_("tax"), "grain": N_("grain"), "recruit": N_("recruit"),
         "defend": N_("defend")}
#: Where the engine puts a favour card's armies, revolt-marker removal or building (favour.RANKED).
RANKED = {"the most armies": N_("the most armies"), "the most revolt markers": N_("the most revolt markers"),
          "the most empty building spaces": N_("the most empty building spaces")}


#: The buildings as the order language names them (PALACE, CHURCH, TRADE), for tables and lists.
_BUILDING_IDS = {"palace": lambda: pgettext("building", "palace"), "church": lambda: pgettext("building", "church"),
                 "trade": lambda: pgettext("building", "trade")}


def building_id(value: str) -> str:
    """A building as the order language names it (palace, church, trade)."""
    return _BUILDING_IDS[value]() if value in _BUILDING_IDS else value


def favour_effect(text: str) -> str:
    """A favour card's effect as :func:`adjudicator.wallenstein.favour.describe` words it."""
    return EFFECTS(text) if text else text


def reasons(text: str) -> str:
    """Why a manoeuvre was not made: the reason of each of its alternatives, ``; else ``."""
    return _("; else ").join(SKIP(part) for part in text.split("; else "))


_AND, _OR = N_(" and "), N_(" or ")

#: The effects of the favour cards (favour.describe).
EFFECTS = Sentences([
    Template(N_("build a {building} without paying"), {"building": words(PIECES)}),
    Template(N_("this season your counties cannot be attacked by manoeuvre {names}"), {"names": joined(_OR)}),
    Template(N_("{n} victory point")), Template(N_("{n} victory points")),
    Template(N_("{n} army from your supply onto one of your counties")),
    Template(N_("{n} armies from your supply onto one of your counties")),
    Template(N_("remove up to {n} revolt marker from one of your counties")),
    Template(N_("remove up to {n} revolt markers from one of your counties")),
    Template(N_("{n} Taler")), Template(N_("{n} grain")),
])

#: Why an action (or a court space) was not carried out (Skipped / CourtSkipped reasons).
SKIP = Sentences([
    Template(N_("{county} is no longer yours")),
    Template(N_("{county} was lost earlier this season and its card left your action space at once: taking the "
                "county back does not bring the action back")),
    Template(N_("it costs {cost} Taler and you have {taler}")),
    Template(N_("{county} already has a {building} (no two of a kind)"), {"building": building_id}),
    Template(N_("{county} has no empty building space")),
    Template(N_("no {piece} pieces are left (the box has {box}, all on the board)"), {"piece": words(PIECES)}),
    Template(N_("you have only {supply} armies in supply, {n} needed")),
    Template(N_("you have no armies in supply")),
    Template(N_("only the move: {to} is no longer yours (the army was recruited)")),
    Template(N_("only the move: {county} would not keep one army behind after moving {armies} (the army was "
                "recruited)")),
    Template(N_("the move goes to {to}, which is no longer yours")),
    Template(N_("{county} would not keep one army behind after moving {armies}")),
    Template(N_("{to} is not adjacent to {county}")),
    Template(N_("{county} has {present} armies, fewer than the {at_least} you asked for (declined)")),
    Template(N_("{county} has {present} armies: it cannot send {armies} and keep one behind")),
    Template(N_("{county} has {present} armies: it cannot send {armies} and keep {leave} behind")),
    Template(N_("{to} has a church and the event forbids attacking it")),
    Template(N_("{to} is under the Emperor's protection against {action} this season")),
    Template(N_("you have only {supply} courtiers in supply, {n} needed")),
    Template(N_("{county} has {armies} armies: it cannot give {n} and keep one")),
    Template(N_("only {tray} of your armies lie in the tray, {n} needed")),
])

_BONUS_WHY = Sentences([
    Template(N_("No orders of yours arrived")), Template(N_("You sent no BONUS line")),
    Template(N_("None of the tiles of your BONUS line ({tiles}) was left")),
])
_FAMINE_WHY = Sentences([
    Template(N_("You sent no FAMINE line")),
    Template(N_("{counties} were not in your FAMINE line"), {"counties": joined(_AND)}),
])
_FAVOUR_WHY = Sentences([
    Template(N_("{counties} did not fit"), {"counties": joined(_AND)}),
    Template(N_("you named no county (FAVOUR ... AT)")),
])

#: What the game chose for a seat, and why (ChosenForSeat notes), and the box running out of pieces.
NOTES = Sentences([
    Template(N_("No revolt marker is placed in {county}: all {box} markers of the box are on the board.")),
    Template(N_("You held the recruit tile: your RECRUIT5 in {county} placed {placed} armies instead of {n} (the "
                "tile lets you; write RECRUIT5 {county} NO TILE to place {n}).")),
    Template(N_("Only {got} of the {wanted} peasant armies called for are in the supply (the box has {box}; the "
                "rest are in the tower or the tray).")),
    Template(N_("You sent no FAVOUR line: your {n} courtiers took no favour card, though they could have paid for "
                "{cards} (taking one is never compulsory, rule 9.4: \"de ez nem kötelező\")."),
             {"cards": joined(_OR)}),
    Template(N_("At pick {pick} the face-up cards {cards} were still the two you chose from at your previous pick; "
                "you sent no REFRESH line, so they stayed face up (rule 3.3 lets you put them under the deck and "
                "turn up two others)."), {"cards": joined(_AND)}),
    Template(N_("{county}: your group of {size} was already on the map, so the next group of your order, {n}, went "
                "there.")),
    Template(N_("No draft orders of yours arrived: every pick of yours was the top card of the deck and your groups "
                "went on in the printed order, {groups} (the missed-orders policy).")),
    Template(N_("Pick {pick}: no answer of yours arrived by the deadline, so you drew the top card of the deck, "
                "{county}, and your group of {size} went there (the missed-orders policy).")),
    Template(N_("You sent no GROUPS line: the groups your DRAFT lines did not place with WITH went on in the "
                "printed order, largest first ({groups}).")),
    Template(N_("The bank pays {seat} only {bank} of the {n} Taler of the favour card: the box's coins are {box} "
                "Taler and the players hold the rest.")),
    Template(N_("Favour card {card} ({effect}): {why}, so it went to {county}, your county with {ranked} where it "
                "fits (the card is carried out at once if possible, rule 9.4)."),
             {"effect": favour_effect, "why": _FAVOUR_WHY, "ranked": words(RANKED)}),
    Template(N_("{why}: you took the {tile} tile on place {place}, the lowest place still free (the earliest turn "
                "left; the player with the highest bid takes place 1 in the rulebook's example)."),
             {"why": _BONUS_WHY, "tile": words(TILES)}),
    Template(N_("No orders of yours arrived for {season} {year}: a money card lay on every action space (no action "
                "was carried out) and no card on the bid space (the missed-orders policy)."),
             {"season": words(SEASONS)}),
    Template(N_("{why}: your famine revolts in {counties} were fought in the order drawn (rule 4.2.2 lets you "
                "choose the order: FAMINE <county>, ... in your autumn plan)."), {"why": _FAMINE_WHY}),
])


def engine_text(text: object) -> str:
    """An engine sentence of a Wallenstein event in the reader's language."""
    sentence = str(text)
    if "; else " in sentence:
        return reasons(sentence)
    out = SKIP(sentence)
    return out if out != sentence else NOTES(sentence)
