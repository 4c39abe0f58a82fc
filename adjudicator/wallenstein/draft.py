"""The county draft of rule 3.3 (option ``setup=draft``): picks round and round from the first seat.

Each seat's draft plan (:func:`adjudicator.wallenstein.draft_orders.read_draft`) says in advance
what the player would decide at the table:

- its wish list, best first: on its pick it takes the best wished card face up, else it
  draws the top card of the deck ("vagy elveszi az egyik felcsapott tartománykártyát, vagy
  felhúzza a tartománypakli legfelső lapját");
- which group goes on the county just taken ("átrakja játékostáblájáról az egyik ottani
  csoport összes seregét"): the group its ``DRAFT <county> WITH <n>`` names for that county
  (rules version 1.2 on), else the next group of its ``GROUPS`` order, else of the printed
  order;
- whether to put a stale face-up pair under the deck (the note of rule 3.3: "Ha valakire úgy
  kerül a sor, hogy ugyanaz a két tartománykártya van felcsapva, mint ami volt, amikor az
  előbb soron volt, azokat, ha akarja, a pakli aljára rakhatja, és felcsaphat helyettük két
  másikat"): ``REFRESH`` (version 1.2 on). **Reading**: the pair "as it was when he was last
  on turn" is the pair he chose from then (after a refresh of his, the two turned up).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.wallenstein.notes import chosen
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.setup import place
from adjudicator.wallenstein.state import Ctx


def run_draft(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> None:
    """Rule 3.3: the picks of every seat's plan, then the season may begin."""
    state = ctx.state
    draft = state["draft"]
    queue = {s: list(plans[s]["groups"]) for s in state["seats"]}
    last_pair: dict[str, list[str] | None] = {s: None for s in state["seats"]}
    pick = 0
    while any(queue.values()):
        for seat in state["seats"]:
            if not queue[seat]:
                continue
            pick += 1
            plan = plans[seat]
            if rule("draft_choices"):
                _stale_pair(ctx, seat, plan, pick, last_pair[seat])
                last_pair[seat] = sorted(draft["face_up"])
            wanted = next((c for c in plan["wishes"] if c in draft["face_up"]), None)
            if wanted is not None:
                county, source = wanted, "face_up"
                draft["face_up"].remove(wanted)
                if draft["deck"]:
                    draft["face_up"].append(draft["deck"].pop(0))
            else:
                county, source = draft["deck"].pop(0), "blind"
            armies = _group(ctx, seat, plan, county, queue[seat])
            place(ctx, seat, county, armies)
            ctx.emit("DraftPick", pick=pick, seat=seat, county=county, source=source, armies=armies,
                     face_up=list(draft["face_up"]))
    for seat in state["seats"]:
        _defaults(ctx, seat, plans[seat])
    state["draft"] = None
    state["phase"] = "plan"


def _stale_pair(ctx: Ctx, seat: str, plan: Mapping[str, Any], pick: int, last: list[str] | None) -> None:
    """The note of rule 3.3: a pair still face up since the seat's previous pick may go under the deck.

    Such a pair holds none of the seat's wishes (it would have taken one at its previous pick),
    so ``REFRESH`` always turns it over; without the line the pair stays ("ha akarja": the
    option left unused) and the seat is told."""
    draft = ctx.state["draft"]
    face = draft["face_up"]
    if last is None or len(face) < 2 or sorted(face) != last or len(draft["deck"]) < 2:
        return
    if not plan["refresh"]:
        chosen(ctx, seat, "refresh", pick=pick, face_up=list(face),
               note=f"At pick {pick} the face-up cards {' and '.join(face)} were still the two you chose from at "
                    "your previous pick; you sent no REFRESH line, so they stayed face up (rule 3.3 lets you put "
                    "them under the deck and turn up two others).")
        return
    under = list(face)
    draft["face_up"] = draft["deck"][:2]
    draft["deck"] = draft["deck"][2:] + under
    ctx.emit("DraftRefresh", pick=pick, seat=seat, under=under, face_up=list(draft["face_up"]))


def _group(ctx: Ctx, seat: str, plan: Mapping[str, Any], county: str, queue: list[int]) -> int:
    """The group put on ``county``: the one the seat's wish names (version 1.2), else its next in order."""
    size = plan["with"].get(county)
    if size is not None and size in queue:
        queue.remove(size)
        return size
    n = queue.pop(0)
    if size is not None:
        chosen(ctx, seat, "group", county=county, group=n,
               note=f"{county}: your group of {size} was already on the map, so the next group of your order, "
                    f"{n}, went there.")
    return n


def _defaults(ctx: Ctx, seat: str, plan: Mapping[str, Any]) -> None:
    """Notes of the draft decisions the seat's orders left to the engine (version 1.2 on)."""
    printed = " ".join(map(str, plan["groups"]))
    if plan["missed"]:
        chosen(ctx, seat, "draft", groups=list(plan["groups"]),
               note="No draft orders of yours arrived: every pick of yours was the top card of the deck and your "
                    f"groups went on in the printed order, {printed} (the missed-orders policy).")
    elif not plan["groups_given"] and len(plan["with"]) < len(plan["groups"]):
        chosen(ctx, seat, "groups", groups=list(plan["groups"]),
               note="You sent no GROUPS line: the groups your DRAFT lines did not place with WITH went on in "
                    f"the printed order, largest first ({printed}).")
