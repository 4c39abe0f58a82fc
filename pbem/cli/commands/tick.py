"""``pbem tick``: the one command for cron (ingest, remind, adjudicate, send)."""

from __future__ import annotations

import click

from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()


@commands.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--smtp", "smtp", metavar="HOST:PORT",
              help="Deliver the outbox to this SMTP server (default: env PBEM_SMTP_HOST/PBEM_SMTP_PORT "
                   "when set).")
@click.option("--smtps", "smtps", metavar="HOST:PORT", help="Deliver to this SMTP server with implicit TLS (port 465).")
@click.option("--starttls", is_flag=True, help="Upgrade the SMTP connection with STARTTLS.")
@click.option("--maildir", "maildir", type=click.Path(),
              help="Deliver the outbox into this Maildir instead of SMTP.")
@click.option("--no-send", is_flag=True, help="Leave the outbox queued (send it later with 'pbem send').")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output: one object per thing done.")
@pass_app
def tick(app: App, paths: tuple[str, ...], smtp: str | None, smtps: str | None, starttls: bool, maildir: str | None,
         no_send: bool, as_json: bool) -> None:
    """One run of the turn loop, for cron: ingest PATHS (Maildir, mbox, .eml), send due
    reminders, adjudicate every game whose orders are in or whose deadline has passed
    (seats without orders play the game's missed-orders default), then deliver the outbox.

    Quiet when nothing happened; otherwise one line per thing done. Exit status 1 when
    anything failed (a delivery, an adjudication, a mail that could not be processed),
    so cron mails you about it; everything that failed stays queued for the next run.

    Without PATHS, the IMAP mailbox of pbem.toml ([mailbox] url) is ingested; without
    --smtp/--maildir, the outbox goes to pbem.toml's [smtp] server (if one is set).

    \b
    Example (crontab -e):
      */10 * * * * cd ~/pbem && pbem tick ~/Maildir/.pbem --smtp mail.example.org:587 --starttls
      */10 * * * * cd ~/pbem && pbem tick ~/Maildir/.pbem --smtps mail.example.org:465
      */10 * * * * cd ~/pbem && pbem tick          # mailbox and SMTP server from pbem.toml
    """
    from pbem.loop.tick import tick_configured, transport_maker

    if (smtp or smtps) and maildir:
        raise click.UsageError("give --smtp/--smtps or --maildir, not both")
    if smtp and smtps:
        raise click.UsageError("give --smtp or --smtps, not both")
    make = None if no_send else transport_maker(app.config, smtp, smtps, starttls, maildir)  # made when mail is due
    done = tick_configured(app.service, app.config, paths, make)
    emit([d.as_dict() for d in done], as_json, "\n".join(d.text for d in done) if done else None)
    if any(d.failed for d in done):
        click.get_current_context().exit(1)


@commands.command()
@click.argument("game_id", required=False)
@click.option("--check", "check_only", is_flag=True,
              help="Only say what differs (exit status 1 when anything does); change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def repair(app: App, game_id: str | None, check_only: bool, as_json: bool) -> None:
    """Check what the database keeps beside each game's log (the due index that 'pbem tick'
    reads, the game as of its last event, which seats each address plays) against a replay of
    the whole log, and derive again whatever differs. Nothing of the log itself is changed.

    pbem keeps these in step with every event it records; a database written by an older pbem
    is brought up to date by the first 'pbem tick'. Run this after restoring a backup or
    editing the database by hand.

    \b
    Example:
      pbem repair --check      # exit status 1 when something differs
    """
    from pbem.store.projection import repair_games

    checked, found = repair_games(app.service, game_id, write=not check_only)
    data = {"games": checked, "differed": {g: p for g, p in found}, "repaired": not check_only}
    if not found:
        text = f"all {checked} game{'' if checked == 1 else 's'} agree with their logs"
    else:
        lines = [f"{g}: {p}" for g, problems in found for p in problems]
        verb = "differ" if check_only else "differed; derived again"
        text = "\n".join(lines + [f"{len(found)} of {checked} games {verb}"])
    emit(data, as_json, text)
    if found and check_only:
        click.get_current_context().exit(1)
