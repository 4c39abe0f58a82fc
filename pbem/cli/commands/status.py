"""Commands that read games: status, show, log (each reads the database only)."""

from __future__ import annotations

from typing import Any

import click

from adjudicator.base import GM, PUBLIC
from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet
from pbem.club.hooks import ended_text as club_ended_text, status_lines as club_status_lines
from pbem.loop.overview import event_log, game_view, status_rows
from pbem.mailin import guard
from pbem.mailout.languages import status_lines as language_lines

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command()
@click.argument("game_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def status(app: App, game_id: str | None, as_json: bool) -> None:
    """Turn, who has submitted, who is awaited, deadline — of one game or all.

    Player addresses that mail cannot reach (refused by the SMTP server, or bounced)
    are listed under their game with the seat, and so is what mail made the service do in
    the last 7 days that the GM should know of (password resets, wrong passwords, a seat
    locked, mail commands not answered over their limit: "mail guard").

    \b
    Example:
      pbem status w1 --json
    """
    rows = status_rows(app.service, game_id)
    lines = [line for r in rows for line in _row_lines(r)]
    emit(rows if game_id is None else rows[0], as_json, "\n".join(lines) or "no games")


def _row_lines(r: dict[str, Any]) -> list[str]:
    """The lines of one game's status row (an open game's, a broken or unreplayable one's, a
    running or finished one's), then its press, digest, languages, mail problems and club."""
    if r.get("open"):
        o = r["open"]
        return [f"{r['game']} ({r['engine']}): open, not started; free seats: {', '.join(o['free']) or '-'}; "
                f"taken: {', '.join(o['taken']) or '-'}"
                + (f"; {o['asked']} asking to join ('pbem lobby {r['game']}')" if o["asked"] else "")]
    lines: list[str] = []
    if r.get("error"):
        lines.append(f"{r['game']} ({r['engine']}): CANNOT BE LOADED: {r['error']}")
    elif r.get("seed_known") is False:
        lines.append(f"{r['game']} ({r['engine']}): {r['note']}")
    elif r.get("abandoned") is not None:
        lines.append(f"{r['game']} ({r['engine']}): abandoned by the GM: {r['abandoned']}")
    elif r["over"]:
        lines.append(f"{r['game']} ({r['engine']}): over; " + (club_ended_text(r["ended"]) if r.get("ended")
                                                              else f"winner {r['winner'] or 'none'}"))
    else:
        lines.append(f"{r['game']} ({r['engine']}): turn {r['turn']}; submitted: "
                     f"{', '.join(r['submitted']) or '-'}; awaiting: {awaiting_text(r)}; "
                     f"deadline: {r['deadline'] or 'none'}" + ("; OVERDUE" if r.get("overdue") else ""))
        if r.get("deadline_passed_before_turn"):
            lines.append(f"  the deadline for every turn ({r['deadline_passed_before_turn']}) passed before this "
                         f"turn opened, so it does not apply to it: set one with 'pbem deadline {r['game']} +3d'")
    if not r.get("error") and r.get("engine_version") != r.get("newest_version", r.get("engine_version")):
        lines.append(f"  rules: {r['engine']} {r['engine_version']}; this pbem's newest is {r['newest_version']} "
                     f"(pbem upgrade {r['game']} --reason TEXT moves the game to it)")
    if r.get("press") and not r["over"]:
        lines.append("  " + _press_line(r["press"]))
    if r.get("digest") and not r["over"]:
        lines.append(f"  reports as plain text without pictures (DIGEST ON): {', '.join(r['digest'])}")
    lines += language_lines(r)
    lines += [f"  mail to {p['address']} (seat {p['seat'] or '?'}) fails: {p['error']} ({p['source']}, {p['at']}"
              f"{', ' + str(p['count']) + ' times' if p['count'] > 1 else ''})" for p in r["delivery_problems"]]
    lines += guard.status_lines(r["mail_guard"])
    lines += club_status_lines(r)
    return lines


def awaiting_text(row: dict[str, Any]) -> str:
    """``blue, red (white: its plan answers it)``: the seats awaited, those whose standing
    orders or plan answer the decision said apart."""
    planned = row.get("planned") or []
    left = [s for s in row["awaiting"] if s not in planned]
    text = ", ".join(left) or "-"
    if planned:
        text += f" ({', '.join(planned)}: standing orders or plan answer it)"
    return text


def _press_line(press: dict[str, Any]) -> str:
    """The readable status line of a game's press rules and this turn's press."""
    if press["mode"] == "off":
        return "press: off"
    sent = ", ".join(f"{seat} {n}" for seat, n in press["sent_this_turn"].items() if n)
    return (f"press: {press['mode']}; at most {press['per_turn']} per seat and turn, {press['max_bytes']} bytes "
            f"each; sent this turn: {sent or '-'}")


def _viewer(seat: str | None, public: bool, gm: bool) -> str:
    if sum(bool(x) for x in (seat, public, gm)) > 1:
        raise click.UsageError("give at most one of --seat, --public, --gm")
    return seat or (PUBLIC if public else GM)


@commands.command()
@click.argument("game_id")
@click.option("--seat", help="Show what this seat may see.")
@click.option("--public", is_flag=True, help="Show what spectators may see.")
@click.option("--gm", is_flag=True, help="Show everything (the default).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def show(app: App, game_id: str, seat: str | None, public: bool, gm: bool, as_json: bool) -> None:
    """The current view of a game for a seat, the public or the GM.

    \b
    Example:
      pbem show w1 --seat red --json
    """
    view = game_view(app.service, game_id, _viewer(seat, public, gm))  # a dict view names the seats' colours
    emit(view, as_json, _describe(view))


def _describe(view: Any) -> str:
    """A readable summary of a view (``--json`` gives all of it): its plain fields, then one
    line per entry of each table (seats, counties...) with the entry's plain fields."""
    lines, tables = [], []
    for key, value in view.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            tables.append((key, value))
        elif isinstance(value, dict):
            lines.append(f"{key}: " + (", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "-"))
        elif isinstance(value, list):
            lines.append(f"{key}: " + (_plain(value) if len(value) <= 12 else f"{len(value)} entries (see --json)"))
        else:
            lines.append(f"{key}: {_plain(value)}")
    for key, table in tables:
        lines += ["", f"{key}:"]
        for name, entry in table.items():
            fields = ", ".join(f"{k} {_plain(v)}" for k, v in entry.items() if not isinstance(v, (dict, list)) or
                               (isinstance(v, list) and len(v) <= 12))
            lines.append(f"  {name}: {fields}")
    return "\n".join(lines)


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "-"
    return "-" if value is None else str(value)


@commands.command()
@click.argument("game_id")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def log(app: App, game_id: str, as_json: bool) -> None:
    """The event log of a game (the GM's view: it includes every seat's orders).

    \b
    Example:
      pbem log w1 --json
    """
    found = event_log(app.store, game_id)
    lines = [f"{e['seq']:>4} {e['recorded_at']} {e['type']}" + _brief(e) for e in found.events]
    problems = found.chain_problems
    lines.append("chain: intact" if not problems else "chain BROKEN: " + "; ".join(problems))
    emit({"events": found.events, "chain_problems": problems}, as_json, "\n".join(lines))


def _brief(e: dict[str, Any]) -> str:
    p = e["payload"]
    if e["type"] == "OrdersSubmitted":
        return f" {p['seat']} {p['turn']} ({len(p['orders'])} orders)"
    if e["type"] == "TurnAdjudicated":
        return f" {p['turn']} hash {p['state_hash'][:12]}"
    if e["type"] == "GameCreated":
        return f" {p['engine']} {p.get('engine_version')} seats {', '.join(s['name'] for s in p['seats'])}"
    if e["type"] == "EngineUpgraded":
        return f" rules {p['from']} -> {p['to']} from turn {p['turn']}; reason: {p['reason']}"
    if e["type"] == "RolledBack":
        return (f" to {p['to']}; set aside {', '.join(p.get('undone', []))}; reason: {p['reason']}"
                + ("; orders kept" if p.get("keep_orders") else ""))
    return " " + ", ".join(f"{k}={v}" for k, v in sorted(p.items()) if isinstance(v, (str, int)))
