"""``pbem press``: the press of a game as the GM (or one seat) may see it."""

from __future__ import annotations

import click

from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet
from pbem.mailout.press import press_log

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command("press")
@click.argument("game_id")
@click.option("--seat", help="Only what this seat may see (sent or received; grey senders hidden).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def press_cmd(app: App, game_id: str, seat: str | None, as_json: bool) -> None:
    """The press relayed in a game, and whether its press log is intact.

    Press is private to its sender, its recipients and the GM: it is kept in a log of its
    own beside the game's events, and never in exports, records, reports or sites.

    \b
    Example:
      pbem press w1
      pbem press w1 --seat blue --json
    """
    found = press_log(app.store, game_id, seat)
    items, problems = found.items, found.chain_problems
    lines = []
    for item in items:
        to = item["to"] if item["to"] == "ALL" else ", ".join(item["to"])
        if item.get("others"):  # grey press another seat sent: the other recipients are not named
            to += f" and {item['others']} other seat(s)"
        lines.append(f"{item['seq']:>4} {item['recorded_at']} turn {item['turn']} from "
                     f"{item['from'] or 'an anonymous seat'} to {to}" + (" (grey)" if item["grey"] else ""))
        lines += ["       " + line for line in item["text"].split("\n")]
    lines.append(f"{len(items)} press message(s); " + ("press log: intact" if not problems
                                                         else "press log BROKEN: " + "; ".join(problems)))
    emit({"game": game_id, "seat": seat, "press": items, "chain_problems": problems}, as_json, "\n".join(lines))
