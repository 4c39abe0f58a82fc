"""A seat's turn: recruit (with the Dogs' Sic 'em! and Looting) or cry Havoc; the Peace
card and the Year of Peace (seed 002, "A játék menete", "Újoncozás").

Turn orders (one block): two ``recruit`` (``card`` = ``deck`` or a recruit's name), at most
two Dogs spent on ``sic`` (1 Dog: ``card`` = ``deck`` or a recruit) or one ``loot`` (2 Dogs:
``prefs`` = wanted cards, else the highest non-Dog), and one ``lay`` (a card name or
``lowest``) -- or a single ``havoc`` with at least two cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.base import Order, Problem, State
from adjudicator.havoc.cards import GAUNT, is_dog
from adjudicator.havoc.releases import rule
from adjudicator.havoc.state import (Ctx, draw, fits_battle, highest_plain, left_of, lowest,
                                     resolve_refs, take_from_hand, to_hand)

TURN_KINDS = ("recruit", "sic", "loot", "lay", "havoc", "dogsout")


def can_recruit(state: State) -> bool:
    """Seed 002: a seat must cry Havoc when deck, recruits and discard cannot give two cards."""
    return len(state["deck"]) + len(state["recruits"]) + len(state["discard"]) >= 2


def validate_turn(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """Problems with a turn's orders (recruit set or havoc)."""
    if not orders:
        return [Problem(None, "send either RECRUIT ... LAY ... or HAVOC <cards>")]
    kinds = [o.get("kind") for o in orders]
    bad = [Problem(i, f"{k!r} is not a turn order (use {', '.join(TURN_KINDS)})") for i, k in enumerate(kinds)
           if k not in TURN_KINDS]
    if bad:
        return bad
    if "havoc" in kinds:
        extra = [k for k in kinds if k not in ("havoc", "dogsout")]
        if extra or kinds.count("havoc") > 1 or kinds.count("dogsout") > 1:
            return [Problem(kinds.index("havoc"), "HAVOC replaces recruiting: send it alone (a DOGS OUT may come with it)")]
        out = next((i for i, k in enumerate(kinds) if k == "dogsout"), None)
        if out is not None and orders[out].get("count") not in (0, 1, 2, "best"):
            return [Problem(out, "DOGS OUT takes 0, 1, 2 or BEST")]
        return validate_havoc(state, seat, orders[kinds.index("havoc")], kinds.index("havoc"))
    if "dogsout" in kinds:
        return [Problem(kinds.index("dogsout"), "DOGS OUT goes with HAVOC, JOIN, ADD or PASS")]
    if not can_recruit(state):
        return [Problem(None, "too few cards left to recruit: you must cry HAVOC (seed 002)")]
    if rule("recruit_asked"):
        return validate_parts(state, seat, orders, [])
    return _validate_recruit(state, seat, orders)


def validate_havoc(state: State, seat: str, order: Order, index: int, minimum: int = 2) -> list[Problem]:
    """Laying ``minimum`` or more cards from the hand within the battle limits."""
    refs = order.get("cards")
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        return [Problem(index, "name the cards to lay")]
    if len(refs) < minimum:
        return [Problem(index, f"lay at least {minimum} cards (seed 002)")]
    cards, why = resolve_refs(state["hands"][seat], refs)
    if cards is None:
        return [Problem(index, why, stage="name")]
    if not fits_battle(list(state["field"].get(seat, [])) + cards):
        return [Problem(index, "at most 6 cards in the battle plus 2 Dogs of War outside it (seed 002)")]
    return []


def _validate_recruit(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    problems: list[Problem] = []
    hand = state["hands"][seat]
    draws = [(i, o) for i, o in enumerate(orders) if o["kind"] == "recruit"]
    lays = [(i, o) for i, o in enumerate(orders) if o["kind"] == "lay"]
    if len(draws) != 2:
        problems.append(Problem(None, "recruiting draws exactly two cards: two RECRUIT lines"))
    if len(lays) != 1:
        problems.append(Problem(None, "recruiting puts exactly one card into the recruits: one LAY line"))
    dogs_needed = sum(1 if o["kind"] == "sic" else 2 if o["kind"] == "loot" else 0 for o in orders)
    if dogs_needed > 2:
        problems.append(Problem(None, "at most 2 Dogs of War while recruiting (seed 002)"))
    elif dogs_needed + sum(1 for o in orders if o["kind"] == "lay" and is_dog(str(o.get("card")))) \
            > sum(1 for c in hand if is_dog(c)):
        problems.append(Problem(None, "not enough Dogs of War in your hand (the one you LAY is not spent)"))
    taken: list[str] = []
    for i, o in enumerate(orders):
        if o["kind"] in ("recruit", "sic"):
            card = o.get("card")
            if card == "deck":
                continue
            if card not in state["recruits"]:
                problems.append(Problem(i, f"{card} is not among the recruits", tuple(state["recruits"][:3]), "name"))
            elif card in taken:
                problems.append(Problem(i, f"{card} is taken twice"))
            taken.append(str(card))
        elif o["kind"] == "loot" and highest_plain(state["discard"]) is None:
            problems.append(Problem(i, "the discard pile holds no card to loot"))
    # Seed 002: "if the recruiting area is full, your first card must be taken from there" --
    # the first card taken by any means (RECRUIT, SIC or LOOT), as the orders run in order;
    # rules version 1 refused only a first RECRUIT from the deck.
    if rule("full_recruits_any_take"):
        takes = [(i, o) for i, o in enumerate(orders) if o["kind"] in ("recruit", "sic", "loot")]
        first = takes[0] if takes and (takes[0][1]["kind"] == "loot" or takes[0][1].get("card") not in state["recruits"]) \
            else None
    else:
        first = draws[0] if draws and draws[0][1].get("card") == "deck" else None
    if first is not None and len(state["recruits"]) >= state["limit"]:
        problems.append(Problem(first[0], f"the recruits are full ({state['limit']}): take your first card from them"))
    for i, o in lays:
        card = o.get("card")
        if card != "lowest" and card not in hand and card not in taken:
            problems.append(Problem(i, f"{card} is not in your hand", stage="name"))
    return problems


def dogs_spent(took: Sequence[dict]) -> int:
    """The Dogs of War a recruiting has spent so far (1 per Sic 'em!, 2 per Looting)."""
    return sum(1 if t.get("how") == "sic" else 2 if t.get("how") == "loot" else 0 for t in took)


def dog_actions(took: Sequence[dict]) -> int:
    """How many Sic 'em!s and Lootings a recruiting has made so far."""
    return sum(1 for t in took if t.get("how") in ("sic", "loot"))


def validate_parts(state: State, seat: str, orders: Sequence[Order], took: Sequence[dict]) -> list[Problem]:
    """Rules version 3: the next parts of a recruiting, ``took`` being what it has taken so far.

    Seed 002, "Újoncozás": "A játékos húz két kártyát, és a kezéből lerak egy lapot az
    újoncokhoz" -- two cards, then one card into the recruits; "újoncozás közben kijátszhat 1
    vagy 2 harc ebeit". A block holds the next parts in the order they are carried out (the LAY
    last): any first ones (a lone ``RECRUIT DECK``), and the seat is asked for the rest when they
    arise, or all of them at once. A LAY ends the recruiting, so it comes with the second draw.
    """
    if not orders:
        return [Problem(None, "send the next part of your recruiting: RECRUIT, SIC, LOOT or LAY")]
    bad = [Problem(i, f"{o.get('kind')!r} is not a recruiting order (use RECRUIT, SIC, LOOT or LAY)")
           for i, o in enumerate(orders) if o.get("kind") not in ("recruit", "sic", "loot", "lay")]
    if bad:
        return bad
    problems: list[Problem] = []
    hand = state["hands"][seat]
    done = sum(1 for t in took if t.get("how") == "recruit")
    draws = [i for i, o in enumerate(orders) if o["kind"] == "recruit"]
    lays = [i for i, o in enumerate(orders) if o["kind"] == "lay"]
    if done + len(draws) > 2:
        left = 2 - done
        problems.append(Problem(draws[left] if left < len(draws) else None,
                                f"recruiting draws exactly two cards: {left} more RECRUIT line{'' if left == 1 else 's'}"
                                if left else "recruiting draws exactly two cards: both are drawn, LAY a card now"))
    if len(lays) > 1:
        problems.append(Problem(lays[1], "recruiting puts exactly one card into the recruits: one LAY line"))
    elif lays and done + len(draws) != 2:
        problems.append(Problem(lays[0], "recruiting draws exactly two cards before the LAY: write the RECRUIT "
                                         "lines before it, or send them alone and you are asked for the LAY"))
    actions = [o for o in orders if o["kind"] in ("sic", "loot")]
    needed = sum(1 if o["kind"] == "sic" else 2 for o in actions)
    laid_dog = sum(1 for o in orders if o["kind"] == "lay" and is_dog(str(o.get("card"))))
    if dogs_spent(took) + needed > 2:
        problems.append(Problem(None, "at most 2 Dogs of War while recruiting (seed 002)"))
    elif needed + laid_dog > sum(1 for c in hand if is_dog(c)):
        problems.append(Problem(None, "not enough Dogs of War in your hand (the one you LAY is not spent)"))
    elif state["options"].get("sic") == "once" and dog_actions(took) + len(actions) > 1:
        problems.append(Problem(None, "one Sic 'em! or one Looting a recruiting (option sic=once: \"1 vagy 2 "
                                      "harc ebeit\" read as one Dog action)"))
    named: list[str] = []
    for i, o in enumerate(orders):
        if o["kind"] in ("recruit", "sic") and o.get("card") != "deck":
            card = o.get("card")
            if card not in state["recruits"]:
                problems.append(Problem(i, f"{card} is not among the recruits", tuple(state["recruits"][:3]), "name"))
            elif card in named:
                problems.append(Problem(i, f"{card} is taken twice"))
            named.append(str(card))
        elif o["kind"] == "loot" and highest_plain(state["discard"]) is None:
            problems.append(Problem(i, "the discard pile holds no card to loot"))
    # Seed 002: "if the recruiting area is full, your first card must be taken from there":
    # the first card taken by any means, when nothing is taken yet
    takes = [(i, o) for i, o in enumerate(orders) if o["kind"] in ("recruit", "sic", "loot")]
    if not took and takes and len(state["recruits"]) >= state["limit"]:
        i, first = takes[0]
        if first["kind"] == "loot" or first.get("card") not in state["recruits"]:
            problems.append(Problem(i, f"the recruits are full ({state['limit']}): take your first card from them"))
    for i in lays:
        card = orders[i].get("card")
        if card != "lowest" and card not in hand and card not in named:
            problems.append(Problem(i, f"{card} is not in your hand", stage="name"))
    return problems


def validate_recruiting(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """The next parts of a recruiting under way (pending kind ``recruiting``, version 3)."""
    return validate_parts(state, seat, orders, state["phase"]["took"])


def recruiting_forms(state: State) -> tuple[str, ...]:
    """The keywords the next part of a recruiting under way may use (version 3)."""
    phase = state["phase"]
    took, seat = phase["took"], phase["seat"]
    dogs = sum(1 for c in state["hands"][seat] if is_dog(c))
    spent = dogs_spent(took)
    once = state["options"].get("sic") == "once" and dog_actions(took) >= 1
    forms = ["RECRUIT"] if sum(1 for t in took if t["how"] == "recruit") < 2 else []
    if dogs and spent < 2 and not once:
        forms.append("SIC")
    if dogs >= 2 and spent == 0 and highest_plain(state["discard"]) is not None:
        forms.append("LOOT")
    return (*forms, "LAY")


def ask_recruiting(ctx: Ctx, seat: str, took: list[dict]) -> None:
    """Version 3: the seat has carried out what it sent; it is asked for the next part of its
    recruiting (pending kind ``recruiting``), its view showing what it drew."""
    ctx.s["phase"] = {"name": "recruiting", "seat": seat, "took": took}
    ctx.emit("RecruitAsked", seat=seat, took=list(took), dogs=dogs_spent(took))


def rotate_peace(ctx: Ctx, seat: str) -> bool:
    """The Peacekeeper recruits: turn the Peace card on (seed 002). True for a Year of Peace."""
    peace = ctx.s["peace"]
    if peace["holder"] != seat:
        return False
    if peace["fresh"]:
        peace["fresh"] = False  # the winner turned it to 1 at the start of this turn
        return False
    if peace["side"] == "havoc":
        peace.update(side="peace", position=1)
    elif peace["position"] < peace["max"]:
        peace["position"] += 1
    else:
        return True
    ctx.emit("PeaceRotated", seat=seat, position=peace["position"])
    return False


def year_of_peace(ctx: Ctx, by: str, then: dict | None) -> None:
    """Seed 002: the next battle card is removed with its tokens; everyone but the
    Peacekeeper (everyone, when John of Gaunt keeps the peace) discards one card."""
    s = ctx.s
    removed = s["battles"].pop(0)
    s["removed"].append({"id": removed, "why": "year of peace"})
    s["peace"].update(side="peace", position=1)
    ctx.emit("YearOfPeace", peacekeeper=by, removed=removed)
    who = [x for x in s["seats"] if x != by and s["hands"][x]]
    s["phase"] = {"name": "peace_discard", "seats": who, "by": by, "then": then}


def apply_recruit(ctx: Ctx, seat: str, orders: Sequence[Order], start: int = 0,
                  took: list[dict] | None = None) -> bool:
    """Draw two, use the Dogs, lay one (orders in the written order, the LAY last).

    False when it stopped at a ``LOOT LOOK`` for the seat to look through the discard pile
    (phase ``loot``; :func:`resume_loot` carries on from there), or, in version 3, when the
    orders end before the LAY (phase ``recruiting``: the seat is asked for the rest).
    """
    s = ctx.s
    took = [] if took is None else took
    lay = next((o["card"] for o in orders if o["kind"] == "lay"), None)
    takes = [o for o in orders if o["kind"] != "lay"]
    for i in range(start, len(takes)):
        order = takes[i]
        if order["kind"] == "loot" and order.get("look") and highest_plain(s["discard"]) is not None:
            _spend_dogs(ctx, seat, 2, keep=lay)
            ask_loot(ctx, seat, {"kind": "recruit", "orders": [dict(o) for o in orders], "index": i + 1, "took": took})
            return False
        got = _take(ctx, seat, order, keep=lay)
        if got == GAUNT:
            ctx.emit("Recruit", seat=seat, took=took, laid=None, note="John of Gaunt drawn: the turn ends")
            return True
        took.append({"how": order["kind"], "from": order.get("card", "discard"), "card": got})
    if lay is None:  # version 3: the rest of the recruiting is asked when it arises
        ask_recruiting(ctx, seat, took)
        return False
    card = lowest(s["hands"][seat]) if lay == "lowest" else lay
    if card is not None and card in s["hands"][seat]:
        take_from_hand(s, seat, card)
        s["recruits"].append(card)
    public = [t if t["from"] != "deck" else {**t, "card": None} for t in took]
    ctx.emit("Recruit", seat=seat, took=took, public=public, laid=card)
    return True


def _spend_dogs(ctx: Ctx, seat: str, n: int, keep: str | None = None) -> None:
    s = ctx.s
    for dog in [c for c in s["hands"][seat] if is_dog(c) and c != keep][:n]:
        take_from_hand(s, seat, dog)
        s["discard"].append(dog)


def ask_loot(ctx: Ctx, seat: str, resume: dict) -> None:
    """Seed 002, Looting: "átnézze a dobott lapokat, és elvegyen onnét 1 nem-ebek kártyát" --
    the seat looks through the discard pile (its view shows it now, and only now: "A dobott
    lapokat csak hullarablás közben lehet megnézni") and names the card (``LOOT <card>``)."""
    ctx.s["phase"] = {"name": "loot", "seat": seat, "resume": resume, "outer": ctx.s["phase"]}
    ctx.emit("LootingLook", seat=seat, discard_size=len(ctx.s["discard"]))


def validate_loot_choice(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """The Looting decision: one ``LOOT <card>`` naming a non-Dog of the discard pile."""
    if len(orders) != 1 or orders[0].get("kind") != "loot" or orders[0].get("look"):
        return [Problem(None, "send one LOOT <card> naming a card of the discard pile (not a Dog)")]
    prefs = orders[0].get("prefs", [])
    if len(prefs) > 1:
        return [Problem(0, "name one card: LOOT <card>")]
    if prefs and (prefs[0] not in state["discard"] or is_dog(prefs[0])):
        plain = sorted(c for c in state["discard"] if not is_dog(c))
        return [Problem(0, f"{prefs[0]} is not a non-Dog card of the discard pile", tuple(plain[:3]), "name")]
    return []


def resume_loot(ctx: Ctx, seat: str, order: Order) -> bool:
    """Take the named card (none named: the highest) and carry on with the rest of the
    interrupted decision; True when it finished (False: it stopped at another Looting)."""
    s = ctx.s
    phase = s["phase"]
    got = loot(ctx, seat, order.get("prefs", []))
    s["phase"] = phase["outer"]
    resume = phase["resume"]
    if resume["kind"] == "recruit":
        took = [*resume["took"], {"how": "loot", "from": "discard", "card": got}]
        return apply_recruit(ctx, seat, resume["orders"], resume["index"], took)
    return apply_dogs(ctx, seat, resume["orders"], resume["index"])


def _take(ctx: Ctx, seat: str, order: Order, keep: str | None) -> str | None:
    s = ctx.s
    if order["kind"] in ("sic", "loot"):
        dogs = [c for c in s["hands"][seat] if is_dog(c) and c != keep][: 1 if order["kind"] == "sic" else 2]
        if order["kind"] == "loot" and highest_plain(s["discard"]) is None:
            return None
        for dog in dogs:
            take_from_hand(s, seat, dog)
            s["discard"].append(dog)
    if order["kind"] == "loot":
        return loot(ctx, seat, order.get("prefs", []))
    source = order.get("card")
    if source != "deck" and source in s["recruits"]:
        s["recruits"].remove(source)
        to_hand(s, seat, source)
        return str(source)
    got = draw(ctx, seat, order["kind"])
    if got is None and s["recruits"]:  # the deck and discard are spent: take a recruit instead
        got = s["recruits"].pop(0)
        to_hand(s, seat, got)
    return got


def loot(ctx: Ctx, seat: str, prefs: Sequence[str]) -> str | None:
    """Looting: the first wanted non-Dog in the discard pile, else the highest (seed 002)."""
    s = ctx.s
    wanted = [p for p in prefs if p in s["discard"] and not is_dog(p)]
    card = wanted[0] if wanted else highest_plain(s["discard"])
    if card is None:
        return None
    s["discard"].remove(card)
    to_hand(s, seat, card)
    ctx.emit("Looting", seat=seat, card=card)
    return card


def end_turn(ctx: Ctx, seat: str) -> None:
    """The next seat clockwise takes its turn."""
    ctx.s["phase"] = {"name": "turn", "seat": left_of(ctx.s, seat)}


def john_turn(ctx: Ctx) -> None:
    """John of Gaunt keeps the peace: he rotates the card but neither recruits nor fights
    (seed 002); on a Year of Peace every player discards."""
    peace = ctx.s["peace"]
    if peace["fresh"]:
        peace["fresh"] = False
    elif peace["position"] < peace["max"]:
        peace["position"] += 1
        ctx.emit("PeaceRotated", seat="@john", position=peace["position"])
    else:
        year_of_peace(ctx, "@john", None)
        ctx.s["phase"]["after"] = left_of(ctx.s, "@john")
        return
    end_turn(ctx, "@john")


def validate_discard(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """A Year of Peace discard: one ``discard`` order with a card or ``lowest``."""
    if len(orders) != 1 or orders[0].get("kind") != "discard":
        return [Problem(None, "send one DISCARD <card> (or DISCARD LOWEST)")]
    card = orders[0].get("card")
    if card != "lowest" and card not in state["hands"][seat]:
        return [Problem(0, f"{card} is not in your hand", stage="name")]
    return []


def apply_discards(ctx: Ctx, orders: dict[str, Sequence[Order]]) -> None:
    """Everyone asked discards; then the Peacekeeper recruits (or play goes on after John)."""
    s = ctx.s
    phase = s["phase"]
    for seat in phase["seats"]:
        card = orders[seat][0]["card"]
        card = lowest(s["hands"][seat]) if card == "lowest" else card
        if card in s["hands"][seat]:
            take_from_hand(s, seat, card)
            s["discard"].append(card)
            ctx.emit("PeaceDiscard", seat=seat, card=card)
    then = phase.get("then")
    if then is None:
        s["phase"] = {"name": "turn", "seat": phase.get("after") or left_of(s, phase["by"])}
        return
    if apply_recruit(ctx, then["seat"], then["orders"]):
        end_turn(ctx, then["seat"])


def deal_one(ctx: Ctx, seat: str, why: str) -> None:
    """Give ``seat`` the top card of the deck (nothing when none is left)."""
    got = draw(ctx, seat, why)
    if got is None:
        ctx.emit("NoCard", seat=seat, why=why)


__all__ = ["apply_recruit", "validate_turn", "validate_havoc", "rotate_peace", "year_of_peace", "to_hand"]


def apply_dogs(ctx: Ctx, seat: str, orders: Sequence[Order], start: int = 0) -> bool:
    """Activate the Dogs: each goes to the discard pile; the cards taken go to the hand.
    False when it stopped at a ``LOOT LOOK`` (see :func:`ask_loot`). Here beside the Looting it
    resumes (:func:`resume_loot`); the battle uses it from here."""
    s = ctx.s
    if start == 0:
        s["phase"]["queue"].remove(seat)
    for i in range(start, len(orders)):
        o = orders[i]
        if o["kind"] == "keep":
            continue
        dogs = [c for c in s["field"][seat] if is_dog(c)][: 1 if o["kind"] == "scavenge" else 2]
        for dog in dogs:
            s["field"][seat].remove(dog)
            s["discard"].append(dog)
        if o["kind"] == "loot" and o.get("look"):
            ask_loot(ctx, seat, {"kind": "dogs", "orders": [dict(x) for x in orders], "index": i + 1})
            return False
        if o["kind"] == "loot":
            loot(ctx, seat, o.get("prefs", []))
            continue
        card = o["card"]
        for zone in [*s["field"].values(), s["recruits"]]:
            if card in zone:
                zone.remove(card)
        to_hand(s, seat, card)
        ctx.emit("Scavenging", seat=seat, card=card)
    return True
