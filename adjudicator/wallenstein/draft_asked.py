"""The county draft of rule 3.3 one pick at a time, asked when it comes up (rules version 1.2 on).

"Először a legidősebb játékos választ tartományt: vagy elveszi az egyik felcsapott
tartománykártyát, vagy felhúzza a tartománypakli legfelső lapját, majd az elvett kártya
tartományára átrakja játékostáblájáról az egyik ottani csoport összes seregét ... Utána a tőle
balra ülő játékos következik ... körbe és körbe": at the table each player chooses at his own
turn, seeing the map and the two face-up cards. So each pick is a decision of its own, pending
for the seat whose pick it is (turn ``setup/pick-N``, :func:`adjudicator.wallenstein.state.turn_label`).

A seat's ``DRAFT``, ``GROUPS`` and ``REFRESH`` lines are *standing orders* kept in the draft's
state (the shell records them at any time, :func:`apply_standing`). At the seat's pick they
answer it while they still apply (:func:`answers`):

- the first wish of the list that is face up is taken (a wish taken by another player is no
  longer face up: the list falls through to the next wish);
- with none face up, a list ending with ``DECK`` draws the top card of the deck;
- otherwise the seat is asked (the list is exhausted for this pick);
- a stale pair (the note of rule 3.3) goes under the deck first when the lines hold ``REFRESH``;
  when no wish is among the two turned up, the seat is asked again (turn ``setup/pick-N/refreshed``).

The group put on the county is the one its ``WITH`` names, else the next still on the player
board in the seat's ``GROUPS`` order (else the printed order). With no answer by the deadline
(the missed-orders policy) the seat draws the top card of the deck, and is told so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import GameError
from adjudicator.wallenstein.data import setup_value
from adjudicator.wallenstein.draft import _stale_pair
from adjudicator.wallenstein.draft_orders import read_draft
from adjudicator.wallenstein.notes import chosen
from adjudicator.wallenstein.releases import begin_draft_asked
from adjudicator.wallenstein.setup import place
from adjudicator.wallenstein.state import Ctx, seat_count

#: A pick that draws the top card of the deck.
DECK = "@deck"


#: rule 3.3's draft state (defined with the release table, whose 1.2 upgrade uses it)
begin = begin_draft_asked


def on_turn(state: Mapping[str, Any]) -> str:
    """The seat whose pick it is: round and round from the first seat (rule 3.3)."""
    seats = state["seats"]
    return str(seats[(state["draft"]["pick"] - 1) % len(seats)])


def _stale(state: Mapping[str, Any], seat: str) -> bool:
    """The note of rule 3.3: the face-up pair is still the one ``seat`` chose from at its previous pick."""
    draft = state["draft"]
    last = draft["last_pair"].get(seat)
    face = draft["face_up"]
    return (not draft.get("refreshed") and last is not None and len(face) == 2 and sorted(face) == last
            and len(draft["deck"]) >= 2)


def choice(state: Mapping[str, Any], plan: Mapping[str, Any]) -> str | None:
    """The card ``plan`` takes now: its first wish face up, else :data:`DECK` when the list
    ends with DECK, else None (the seat is asked)."""
    draft = state["draft"]
    wanted = next((c for c in plan["wishes"] if c in draft["face_up"]), None)
    if wanted is not None:
        return wanted
    if plan.get("deck"):
        return DECK if draft["deck"] else (draft["face_up"][0] if draft["face_up"] else None)
    return None


def answers(state: Mapping[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> bool:
    """True when ``orders`` answer ``seat``'s pending pick: they make a pick now, or they put a
    stale pair under the deck first."""
    plan = read_draft(dict(state), orders)
    if plan["missed"]:
        return True
    return (plan["refresh"] and _stale(state, seat)) or choice(state, plan) is not None


def problem(state: Mapping[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> str | None:
    """Why ``orders`` do not answer ``seat``'s pick now (None: they do)."""
    if answers(state, seat, orders):
        return None
    face = " and ".join(state["draft"]["face_up"]) or "none"
    return (f"none of your wishes is face up now (the face-up cards are {face}): name one of them in your "
            "DRAFT line, or end it with DECK to draw the top card of the deck")


def step(ctx: Ctx, seat: str, orders: Sequence[dict[str, Any]]) -> bool:
    """Carry out ``seat``'s pick with ``orders`` (its standing lines, or the missed-orders
    policy); True when the draft is over (the season may begin)."""
    state = ctx.state
    draft = state["draft"]
    plan = read_draft(state, orders)
    pick = draft["pick"]
    if plan["missed"]:
        _default_pick(ctx, seat, pick)
    else:
        if _stale(state, seat):
            _stale_pair(ctx, seat, plan, pick, draft["last_pair"][seat])
            if plan["refresh"]:
                draft["refreshed"] = True
        county = choice(state, plan)
        if county is None:
            if draft["refreshed"]:
                return False  # the two cards turned up hold no wish: the seat is asked again
            raise GameError(f"{seat}'s orders make no pick now")
        _take(ctx, seat, county, _group(ctx, seat, plan, county if county != DECK else None))
    return _next(ctx)


def _default_pick(ctx: Ctx, seat: str, pick: int) -> None:
    """The missed-orders policy: the top card of the deck, the next group of the seat's order."""
    state = ctx.state
    standing = state["draft"]["standing"].get(seat)
    plan = read_draft(state, standing or [])
    size = _next_group(state, seat, plan)
    draft = state["draft"]
    county = _take(ctx, seat, DECK if draft["deck"] else draft["face_up"][0], size)
    chosen(ctx, seat, "pick", pick=pick, county=county, group=size,
           note=f"Pick {pick}: no answer of yours arrived by the deadline, so you drew the top card of the deck, "
                f"{county}, and your group of {size} went there (the missed-orders policy).")


def _next_group(state: Mapping[str, Any], seat: str, plan: Mapping[str, Any]) -> int:
    """The first group of the seat's order still on its player board."""
    left = Counter(state["draft"]["left"][seat])
    return next(n for n in plan["groups"] if left[n] > 0)


def _group(ctx: Ctx, seat: str, plan: Mapping[str, Any], county: str | None) -> int:
    """The group for the county taken: its WITH, else the next of the seat's order (told so
    when the WITH group is already on the map)."""
    state = ctx.state
    size = plan["with"].get(county) if county is not None else None
    if size is not None and size in state["draft"]["left"][seat]:
        return int(size)
    n = _next_group(state, seat, plan)
    if size is not None:
        chosen(ctx, seat, "group", county=county, group=n,
               note=f"{county}: your group of {size} was already on the map, so the next group of your order, {n}, "
                    "went there.")
    elif not plan["groups_given"] and seat not in state["draft"]["printed"]:
        state["draft"]["printed"].append(seat)
    return n


def _take(ctx: Ctx, seat: str, county: str, armies: int) -> str:
    """Take ``county`` (or the top card of the deck) and put ``armies`` on it (rule 3.3)."""
    draft = ctx.state["draft"]
    draft["last_pair"][seat] = sorted(draft["face_up"])
    if county == DECK:
        county, source = draft["deck"].pop(0), "blind"
    else:
        source = "face_up"
        draft["face_up"].remove(county)
        if draft["deck"]:
            draft["face_up"].append(draft["deck"].pop(0))
    draft["left"][seat].remove(armies)
    place(ctx, seat, county, armies)
    draft["picks"].append([seat, county, armies])
    ctx.emit("DraftPick", pick=draft["pick"], seat=seat, county=county, source=source, armies=armies,
             face_up=list(draft["face_up"]))
    draft["pick"] += 1
    draft["refreshed"] = False
    return county


def _next(ctx: Ctx) -> bool:
    """True (and the draft closed) when every group is on the map."""
    state = ctx.state
    draft = state["draft"]
    if any(draft["left"].values()):
        return False
    for seat in state["seats"]:
        if seat in draft["printed"]:
            printed = " ".join(map(str, setup_value("army_groups", seat_count(state))))
            chosen(ctx, seat, "groups", groups=list(setup_value("army_groups", seat_count(state))),
                   note="You sent no GROUPS line: the groups your DRAFT lines did not place with WITH went on in "
                        f"the printed order, largest first ({printed}).")
    state["draft"] = None
    state["phase"] = "plan"
    return True


# -- standing orders (the shell's hooks) ------------------------------------------------------
def apply_standing(state: dict[str, Any], seat: str, orders: Sequence[dict[str, Any]]) -> None:
    """Keep ``orders`` as ``seat``'s draft lines (they replace its earlier ones)."""
    state["draft"]["standing"][seat] = [dict(o) for o in orders]


def auto_orders(state: Mapping[str, Any], seat: str) -> list[dict[str, Any]] | None:
    """``seat``'s standing draft lines when they answer its pending pick, else None (asked)."""
    standing = state["draft"]["standing"].get(seat)
    if not standing or on_turn(state) != seat or not answers(state, seat, standing):
        return None
    return [dict(o) for o in standing]
