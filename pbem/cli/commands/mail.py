"""Commands on mail: ingest (orders in), outbox and send (replies and reports out)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import click

from pbem.cli.app import App, emit, pass_app
from pbem.cli.commandset import CommandSet

#: The commands of this module (the ``pbem`` group adds them when one is asked for).
commands = CommandSet()

if TYPE_CHECKING:
    from pbem.loop.ingest import Outcome
    from pbem.mailout.outbox import SendRun

# The mail machinery (imaplib, the email package, the ingest pipeline, smtplib) is imported
# inside the commands that use it, so that every other pbem command starts quickly.

#: Show a progress bar when at least this many mails are ingested at once.
PROGRESS_FROM = 10


@commands.command()
@click.argument("paths", nargs=-1)
@click.option("--move-to", metavar="FOLDER",
              help="IMAP: move each recorded mail to FOLDER (default: flag it; [mailbox] move_to of pbem.toml).")
@click.option("--retry-rejected", is_flag=True,
              help="Process again mails that were rejected before (nothing of them was recorded), "
                   "e.g. after 'pbem seat --allow'; each gets a new reply.")
@click.option("--quiet", "-q", is_flag=True,
              help="For cron: list only mail not handled before, without the replies; print nothing "
                   "when there is no new mail.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output, one object per mail.")
@pass_app
def ingest(app: App, paths: tuple[str, ...], move_to: str | None, retry_rejected: bool, quiet: bool,
           as_json: bool) -> None:
    """Read order mails: an IMAP mailbox, .eml files, Maildir folders, mbox files or stdin ('-').

    An IMAP mailbox is imaps://USER@HOST[:PORT]/FOLDER (or imap:// with STARTTLS); the
    password comes from PBEM_IMAP_PASSWORD or [mailbox] password_file of pbem.toml.
    Without PATH, the [mailbox] url of pbem.toml is read. Each mail is flagged (or moved,
    --move-to) only after it is recorded.

    Every mail is kept, checked and answered once (the reply goes to the outbox);
    the same mail ingested again changes nothing. A file without mail headers is an
    order text typed by the GM: its password may be left out and the result is printed.

    \b
    Example:
      pbem ingest                           # the mailbox of pbem.toml
      PBEM_IMAP_PASSWORD=... pbem ingest imaps://gm@example.org@imap.example.org/INBOX --move-to Processed
      pbem ingest ~/Maildir/pbem            # a Maildir (new/ and cur/)
      pbem ingest orders.eml inbox.mbox
      formail -s ... | pbem ingest -        # or from procmail/fetchmail via stdin
      pbem ingest gm-orders.txt             # GAME w1 red / BID 2 / END, typed by the GM
      pbem seat w1 red --allow anna@work.example && pbem ingest --retry-rejected ~/Maildir/pbem
      pbem ingest --quiet ~/Maildir/pbem    # from cron: only new mail, silent when none

    With --json, each unauthenticated block carries "auth_failure" (unknown game, unknown
    seat, wrong password, sender not registered): for you only, the reply never says which.
    """
    from pbem.loop.sources import configured_sources, ingest_sources, is_imap_url

    paths = configured_sources(app.config, paths)
    if not paths and sys.stdin.isatty():
        raise click.UsageError("give PATH ... (a Maildir, mbox or .eml file, or imaps://USER@HOST/FOLDER), "
                               "or pipe a mail into 'pbem ingest -'")
    for path in paths:
        if path != "-" and not is_imap_url(path) and not os.path.exists(path):
            raise click.BadParameter(f"Path {path!r} does not exist.", param_hint="PATHS")
    outcomes = ingest_sources(app.service, app.config, paths, sys.stdin.buffer, retry_rejected, move_to,
                              lambda: _Progress(enabled=not quiet))
    if quiet:  # already-handled mail is not listed again; nothing new: no output at all
        outcomes = [o for o in outcomes if o.outcome != "duplicate"]
        emit([o.as_dict() for o in outcomes], as_json, "\n".join(o.line() for o in outcomes) or None)
        return
    text = "\n".join(_describe(o) for o in outcomes) or "no mail found"
    counts = {k: sum(o.outcome == k for o in outcomes) for k in {o.outcome for o in outcomes}}
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    emit([o.as_dict() for o in outcomes], as_json, text + (f"\n{len(outcomes)} mail(s): {summary}" if outcomes else ""))
    refused = [o for o in outcomes if o.key.startswith("gm:") and (o.outcome in ("rejected", "partial", "error")
                                                                   or o.note.startswith("rejected before"))]
    if refused:  # the GM's own order text: a refusal is the GM's to fix, and a script's to notice
        if not as_json:
            click.echo(f"Error: {len(refused)} order text(s) of yours not (wholly) recorded: "
                       "fix the lines listed above and ingest again", err=True)
        click.get_current_context().exit(1)


class _Progress:
    """A progress bar on stderr for one mail source, shown once it has PROGRESS_FROM mails."""

    def __init__(self, enabled: bool = True) -> None:
        self.bar: Any = None
        self.done = 0
        self.enabled = enabled

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None and self.enabled and total >= PROGRESS_FROM:
            self.bar = click.progressbar(length=total, label="ingesting", file=sys.stderr)
            self.bar.__enter__()
        if self.bar is not None:
            self.bar.update(done - self.done)
        self.done = done

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def _describe(outcome: Outcome) -> str:
    line = outcome.line()
    if outcome.reply:
        line += "\n" + "\n".join("    " + r for r in outcome.reply.rstrip().splitlines())
    return line


@commands.group(invoke_without_command=True)
@click.option("--all", "show_all", is_flag=True, help="Also list messages already sent.")
@click.option("--show", "show_id", type=int, metavar="ID", hidden=True, help="As 'pbem outbox show ID'.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
@click.pass_context
def outbox(ctx: click.Context, app: App, show_all: bool, show_id: int | None, as_json: bool) -> None:
    """List queued mail (unsent, or --all): id, to, subject, kind, created, sent, attempts, error.

    'pbem outbox show ID' prints one message (sent or not) the way its recipient reads it;
    the password of a welcome mail is masked.

    \b
    Example:
      pbem outbox
      pbem outbox --all --json
      pbem outbox show 7            # read the reply or report queued as message 7
    """
    if ctx.invoked_subcommand is not None:
        return
    if show_id is not None:
        _show(app, show_id, as_json)
        return
    from pbem.mailout.outbox import listing

    rows = listing(app.store, show_all)
    width = max((len(r["kind"]) for r in rows), default=8)
    lines = [f"{r['id']:>5} {r['kind']:{width}} {_state(r):26} {r['to']}  {r['subject']}"
             + (f"  [{r['attempts']} failed attempt(s): {r['last_error']}]" if r["attempts"] and not r["sent"] else "")
             for r in rows]
    emit(rows, as_json, "\n".join(lines) or ("outbox is empty" if show_all else "nothing to send"))


def _state(row: dict) -> str:
    if row["sent"]:
        return "sent " + row["sent"]
    if row["failed"]:
        return "FAILED " + row["failed"]
    return "retry at " + row["next_attempt"] if row["next_attempt"] else "queued"


@outbox.command("show")
@click.argument("outbox_id", type=int, metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def outbox_show(app: App, outbox_id: int, as_json: bool) -> None:
    """Print message ID as its recipient reads it (headers, text, the other parts).

    \b
    Example:
      pbem outbox show 7
    """
    _show(app, outbox_id, as_json)


def _show(app: App, outbox_id: int, as_json: bool) -> None:
    """Print one outbox message: its headers, its text part and the names of its other parts."""
    from pbem.mailout.outbox import shown

    message = shown(app.store, outbox_id)
    lines = [f"{k}: {v}" for k, v in message.headers.items()]
    lines += [f"({message.kind}, {'sent ' + message.sent if message.sent else 'queued'})", "", message.text.rstrip()]
    lines += [f"[also: {p}]" for p in message.other_parts]
    emit(message.as_dict(), as_json, "\n".join(lines))


@commands.command()
@click.option("--smtp", "smtp", metavar="HOST:PORT",
              help="SMTP server (default: [smtp] of pbem.toml, or env PBEM_SMTP_HOST and PBEM_SMTP_PORT).")
@click.option("--smtps", "smtps", metavar="HOST:PORT", help="SMTP server with implicit TLS (port 465).")
@click.option("--starttls", is_flag=True, help="Upgrade the --smtp connection with STARTTLS.")
@click.option("--maildir", type=click.Path(), help="Deliver into this Maildir instead of SMTP.")
@click.option("--retry-failed", is_flag=True, help="Queue failed messages again first (after fixing the cause).")
@click.option("--now", "send_now", is_flag=True,
              help="Also send the messages waiting to be retried, without waiting for their retry time.")
@click.option("--dry-run", is_flag=True, help="List what would be sent; send nothing.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_app
def send(app: App, smtp: str | None, smtps: str | None, starttls: bool, maildir: str | None,
         retry_failed: bool, send_now: bool, dry_run: bool, as_json: bool) -> None:
    """Deliver every due message once; exit 1 if anything failed or the server was unreachable.

    A temporary failure (4xx, a dropped connection) is tried again by later runs after a
    growing wait, up to [send] max_attempts (--now sends those messages at once); a
    permanent one (5xx, an address that cannot be sent) fails the message at once and
    'pbem status' shows the address: fix it, then --retry-failed. Concurrent runs never send
    the same message.

    The SMTP login comes from the environment (PBEM_SMTP_USER, PBEM_SMTP_PASSWORD) or
    pbem.toml's [smtp] user and password_file — never from the command line.

    \b
    Example:
      pbem send                                      # everything from pbem.toml
      PBEM_SMTP_USER=gm PBEM_SMTP_PASSWORD=... pbem send --smtps mail.example.org:465
      pbem send --smtp mail.example.org:587 --starttls
      pbem send --maildir ~/outgoing
      pbem send --now                                # don't wait for the retry times
      pbem send --retry-failed                       # after fixing a refused address
      pbem send --dry-run
    """
    if (smtp or smtps) and maildir:
        raise click.UsageError("give --smtp/--smtps or --maildir, not both")
    if smtp and smtps:
        raise click.UsageError("give --smtp or --smtps, not both")
    from pbem.mailout.outbox import send_due

    run = send_due(app.store, app.config, dry_run, send_now, retry_failed, smtp, smtps, starttls, maildir)
    emit([r.as_dict() for r in run.results], as_json, _send_text(run, dry_run))
    if run.failed:
        if not as_json:
            click.echo("\n".join(_send_advice(run)), err=True)
        click.get_current_context().exit(1)


def _send_advice(run: SendRun) -> list[str]:
    """What the GM can do about the failed messages of a run, each kind said once."""
    lines = []
    failed = run.failed
    permanent = sum(r.permanent for r in failed)
    stopped = [r for r in failed if r.error.startswith("delivery stopped")]
    retried = len(failed) - permanent - len(stopped)
    if permanent:
        lines.append(f"{permanent} message(s) failed for good: 'pbem status' lists the address; fix it (pbem seat "
                     "GAME SEAT --email ...), then run 'pbem send --retry-failed' to send them again")
    if retried:
        lines.append(f"{retried} message(s) will be tried again" + (f" from {run.retry_from}" if run.retry_from else "")
                     + " by 'pbem send' ('pbem send --now' tries them at once)")
    if stopped:
        lines.append(f"delivery stopped: {run.queued} message(s) stay queued; run 'pbem send' again once the "
                     "server can be reached")
    return lines


def _send_text(run: SendRun, dry_run: bool) -> str:
    """What a send run did, a line a message, then the count and what waits to be retried."""
    results = run.results
    verb = "would send" if dry_run else "sent"
    lines = []
    for r in results:
        status = verb if r.ok else "FAILED" if r.permanent else "RETRY" if not r.error.startswith("delivery stopped") \
            else "STOPPED"
        lines.append(f"{status:10} {r.id:>5} {r.to}  {r.subject}" + (f"  ({r.error})" if r.error else "")
                     + (f"  [{r.note}]" if r.note else ""))
    failed = sum(not r.ok for r in results)
    permanent = sum(r.permanent for r in results)
    if dry_run:  # nothing was tried, so nothing failed
        lines.append(f"dry run: {len(results)} message(s) would be sent; nothing was sent" if results
                     else "dry run: nothing to send")
    elif results:
        lines.append(f"{len(results) - failed} {verb}, {failed} failed" + (f" ({permanent} for good)" if permanent else ""))
    else:
        lines.append("nothing to send")
    if run.waiting:
        lines.append(f"{run.waiting} message(s) wait to be retried (next at {run.waiting_next}; "
                     "'pbem send --now' sends them now)")
    return "\n".join(lines)
