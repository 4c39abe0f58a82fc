"""The Wallenstein order language the other way round: order dicts to their canonical lines
(``parse(format_orders(x)).orders == x``, see :mod:`turns.wallenstein`), and what the
missed-orders policy played for a seat, in the player's words."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.base import Order


#: What the missed-orders policy plays for a seat, in the player's words, by the kind of turn
#: (rules 5-6: money cards on the action spaces; the draft's blind picks), and what the
#: Imperial Court adds (rule 9).
MISSED_HELP = {
    "plan": "money cards on every action space: you did no action this season and paid nothing; no card on "
            "the bid space, so you rank after the 0 bids in the turn order and take the first bonus tile "
            "left. Your counties still need grain in winter.",
    "draft": "blind picks: you drew the top card of the county deck, and your army group went there in the "
             "order of your GROUPS line, else as printed on your setup board (rules 1.2 on: for the one pick "
             "you were asked; your DRAFT lines still make your later picks).",
    "court": "Nothing went on the court spaces (money cards there too) and no favour card was played.",
}


def missed_help(kind: str, options: dict[str, str] | None = None) -> str:
    """What the missed-orders policy did for a seat whose orders for a ``kind`` turn were missing."""
    text = MISSED_HELP.get(kind, "")
    if text and kind == "plan" and str((options or {}).get("expansion", "")) == "court":
        text += " " + MISSED_HELP["court"]
    return text


def format_order(order: Order) -> str:
    """The canonical line of one order dict (raises ``ValueError`` for an unknown kind)."""
    kind = order.get("kind")
    if kind == "action":
        return _format_action(order)
    if kind == "bid":
        card = order["card"]
        return {"taler": f"BID {order.get('value')}", "county": f"BID COUNTY {order.get('county')}",
                "tower": "BID TOWER", "none": "BID NONE"}[card]
    if kind == "bonus":
        return "BONUS " + " ".join(order["order"])
    if kind == "famine":
        return "FAMINE " + ", ".join(order["counties"])
    if kind == "draft":
        groups = order.get("groups") or {}
        wishes = [c + (f" WITH {groups[c]}" if c in groups else "") for c in order["counties"]]
        return "DRAFT " + ", ".join(wishes + (["DECK"] if order.get("deck") else []))
    if kind == "refresh":
        return "REFRESH"
    if kind == "groups":
        return "GROUPS " + " ".join(str(n) for n in order["sizes"])
    if kind == "court":
        what = order["county"] if order["card"] == "county" else order["card"].upper()
        return f"COURT{order['slot']} {what}"
    if kind == "favour":
        text = "FAVOUR " + (" ".join(str(n) for n in order["prefs"]) or "NONE")
        if order.get("counties"):
            return text + " AT " + ", ".join(order["counties"])
        return text + (f" AT {order['county']}" if order.get("county") else "")
    if kind == "missed":  # the engine's missed-orders policy: no line a player writes
        return "# no orders received (missed-orders policy)"
    raise ValueError(f"not a Wallenstein order: {order!r}")


def _format_action(order: Order) -> str:
    action = order["action"]
    if order.get("card") == "tower":
        return f"{action.upper()} TOWER"
    text = f"{action.upper()} {order['county']}"
    if "tile" in order:
        return text + (" WITH TILE" if order["tile"] else " NO TILE")
    if "to" not in order:
        return text
    armies = order["armies"]
    if action == "recruit1":
        return f"{text} MOVE {armies} TO {order['to']}"
    return " ELSE ".join([f"{text} {_format_alt(order)}", *(_format_alt(a) for a in order.get("else", []))])


def _format_alt(alt: Order) -> str:
    text = f"TO {alt['to']} WITH {alt['armies']}"
    if "leave" in alt:
        text += f" LEAVE {alt['leave']}"
    if "at_least" in alt:
        text += f" IF {alt['at_least']}"
    return text


def format_orders(orders: Sequence[Order]) -> str:
    """The canonical text of ``orders``: one line each, in order, ending with a newline."""
    return "".join(format_order(order) + "\n" for order in orders)
