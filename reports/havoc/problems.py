"""Havoc's problems in the reader's language (its registry entry's ``problems``, read by
:mod:`pbem.mailout.problemtext`): ``ENGINE``, the engine's checks of a turn, recruiting, the
battles, the final battle and standing orders (adjudicator/havoc/turn.py, battle.py, final.py,
standing.py, state.py, engine.py); ``GRAMMAR``, the order grammar's (turns/havoc.py). "(seed
002)" names the rulebook the rule comes from and stays in every language."""

from __future__ import annotations

from reports.enginetext import Template as _T
from reports.i18n import N_

#: The messages of the engine's checks, the most particular first.
ENGINE = (
    # turn.py: a turn and recruiting
    _T(N_("send either RECRUIT ... LAY ... or HAVOC <cards>")),
    _T(N_("{kind} is not a turn order (use {kinds})")),
    _T(N_("HAVOC replaces recruiting: send it alone (a DOGS OUT may come with it)")),
    _T(N_("DOGS OUT goes with HAVOC, JOIN, ADD or PASS")),
    _T(N_("too few cards left to recruit: you must cry HAVOC (seed 002)")),
    _T(N_("name the cards to lay")),
    _T(N_("lay at least {n} cards (seed 002)")),
    _T(N_("at most 6 cards in the battle plus 2 Dogs of War outside it (seed 002)")),
    _T(N_("recruiting draws exactly two cards: two RECRUIT lines")),
    _T(N_("recruiting draws exactly two cards: both are drawn, LAY a card now")),
    _T(N_("recruiting draws exactly two cards: {n} more RECRUIT line")),
    _T(N_("recruiting draws exactly two cards: {n} more RECRUIT lines")),
    _T(N_("recruiting draws exactly two cards before the LAY: write the RECRUIT lines before it, or send them "
          "alone and you are asked for the LAY")),
    _T(N_("recruiting puts exactly one card into the recruits: one LAY line")),
    _T(N_("at most 2 Dogs of War while recruiting (seed 002)")),
    _T(N_("not enough Dogs of War in your hand (the one you LAY is not spent)")),
    _T(N_("one Sic 'em! or one Looting a recruiting (option sic=once: \"1 vagy 2 harc ebeit\" read as one Dog "
          "action)")),
    _T(N_("the recruits are full ({limit}): take your first card from them")),
    _T(N_("send the next part of your recruiting: RECRUIT, SIC, LOOT or LAY")),
    _T(N_("{kind} is not a recruiting order (use RECRUIT, SIC, LOOT or LAY)")),
    _T(N_("{card} is not among the recruits")),
    _T(N_("{card} is taken twice")),
    _T(N_("the discard pile holds no card to loot")),
    _T(N_("send one LOOT <card> naming a card of the discard pile (not a Dog)")),
    _T(N_("name one card: LOOT <card>")),
    _T(N_("{card} is not a non-Dog card of the discard pile")),
    _T(N_("send one DISCARD <card> (or DISCARD LOWEST)")),
    # state.py: the cards a line names
    _T(N_("no Dog of War left in your hand")),
    _T(N_("no card of value {value} left in your hand")),
    _T(N_("{card} is not in your hand")),
    # battle.py
    _T(N_("send one {join} <cards> or {stay} (and at most one DOGS OUT)")),
    _T(N_("DOGS OUT is for a seat in the battle: you STAY out")),
    _T(N_("John of Gaunt's battle: with two or more cards you must join (seed 002)")),
    _T(N_("send DOGS OUT 0, 1 or 2: how many of your laid Dogs of War stay out of the battle")),
    _T(N_("DOGS OUT takes 0, 1, 2 or BEST")),
    _T(N_("you may declare at most {most} of your laid Dogs of War out (DOGS OUT {low}-{high})")),
    _T(N_("send SCAVENGE <card>, LOOT or KEEP")),
    _T(N_("you may activate at most {n} of your laid Dogs of War (seed 002)")),
    _T(N_("{card} is not a non-Dog on the table or among the recruits")),
    _T(N_("send NEXT <battle> naming a remaining battle")),
    # final.py: Castillon
    _T(N_("send EXCHANGE <number of Dogs, 0 to 2>")),
    _T(N_("you may exchange 0 to {n} Dogs of War now")),
    _T(N_("send FINAL <up to 6 cards>")),
    _T(N_("name the cards")),
    _T(N_("at most 6 cards, Dogs included, at Castillon (seed 002)")),
    _T(N_("lay at least one card")),
    # standing.py, engine.py
    _T(N_("standing orders are recorded with apply_standing, not as this turn's orders")),
    _T(N_("a standing block holds only STANDING lines")),
    _T(N_("STANDING needs one of: {whens}")),
)

#: The messages of the game's grammar (turns/), read after every game's engine messages.
GRAMMAR = (
    # turns/havoc.py
    _T(N_("unknown card {token} (write e.g. blue7, dog or 5)")),
    _T(N_("an empty order")),
    _T(N_("unknown order {word}")),
    _T(N_("{key} takes nothing after it")),
    _T(N_("unknown battle {name}")),
    _T(N_("name the recruit card (e.g. blue9) or DECK")),
    _T(N_("conditions: LAID <= n or HAND >= n")),
    _T(N_("STANDING cannot hold another STANDING")),
    _T(N_("STANDING needs orders after ':'")),
    _T(N_("{usage} (how many of your laid Dogs of War stay out of the battle)")),
    _T(N_("{usage} (one card by its name, e.g. blue07, or a Dog as dog03)")),
    _T(N_("{usage} (cards by their names)")),
    _T(N_("{usage} (<when> is one of {whens})")),
)
