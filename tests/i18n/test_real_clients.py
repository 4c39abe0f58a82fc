"""A game with a Hungarian, a German and an English seat read as its players read it: every
mail opened in a real mail client (s-nail decodes the MIME, the encoded subjects and the
charset), every seat's HTML report opened in a real browser (headless Chromium).

Skipped with a reason when the client is not installed; ``.ci/run`` installs both."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tempfile
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from tests.reports.browser import FLAGS, chromium, screenshot

pytestmark = pytest.mark.slow

#: What each language's welcome mail must say, as its reader sees it (subject, then body).
WELCOME = {"hu": ("Üdvözlünk", "A jelszavad:"), "de": ("Willkommen", "Dein Passwort:"),
           "en": ("Welcome", "Your password:")}
#: Bytes of UTF-8 read as Latin-1 (mojibake), a replacement character, an undecoded subject.
GARBLED = ("Ã", "Å‘", "\ufffd", "=?utf-8?", "=?UTF-8?")


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """Two seasons of the demo by mail: seats reading Hungarian, German and English."""
    base = tmp_path_factory.mktemp("clients")
    out = base / "demo"
    result = CliRunner().invoke(cli, ["--db", str(base / "demo.db"), "demo", "--out", str(out), "--turns", "2",
                                      "--json"])
    assert result.exit_code == 0, result.output
    seats = {seat: row["language"] for seat, row in json.loads(result.output)["seats"].items()}
    assert set(seats.values()) == {"hu", "de", "en"}
    return out, seats


def _s_nail(mails: list[Path]) -> str:
    """What s-nail prints for each of ``mails`` read from a Maildir (headers it shows, the
    text parts decoded to UTF-8), one message after the other."""
    with tempfile.TemporaryDirectory(prefix="pbem-maildir-") as box:
        for sub in ("cur", "new", "tmp"):
            Path(box, sub).mkdir()
        for n, mail in enumerate(mails, 1):
            shutil.copy(mail, Path(box, "new", f"{n:04d}.pbem:2,"))
        script = "".join(f"print {n}\n" for n in range(1, len(mails) + 1)) + "quit\n"
        done = subprocess.run(["s-nail", "-n", "-N", "-R", "-S", "ttycharset=utf-8", "-S", "pager=cat", "-S",
                               "crt=0", "-S", "sendcharsets=utf-8", "-f", box], input=script.encode(),
                              capture_output=True, timeout=120, check=False,
                              env={"LC_ALL": "C.UTF-8", "HOME": box, "MAILRC": "/dev/null"})
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout.decode("utf-8")


@pytest.mark.skipif(shutil.which("s-nail") is None, reason="s-nail is not installed (apt-get install -y s-nail)")
def test_every_mail_reads_in_a_real_mail_client(demo):
    out, seats = demo
    for seat, language in seats.items():
        mails = sorted((out / "mailboxes" / seat).glob("*.eml"))
        assert mails, seat
        shown = _s_nail(mails)
        assert shown.count("[-- Message ") == len(mails), f"s-nail did not open every mail of {seat}"
        assert not [g for g in GARBLED if g in shown], f"{seat} ({language}): garbled text in the client"
        subject, body = WELCOME[language]
        assert f"Subject: [demo-wallenstein] {subject}, {seat}" in shown
        assert body in shown
        # each mail says its reader's language; the client shows the decoded accented letters
        assert shown.count(f"Content-Language: {language}") >= len(mails)
        if language != "en":
            assert any(ch in shown for ch in "áéíóöőúüűÄÖÜäöüß")


def test_mail_lines_are_72_characters_counted_as_letters(demo):
    """The text part of every mail folds its prose at 72 characters, an accented letter
    counted as one; indented lines (orders to copy, tables' wrapped cells) are kept whole."""
    out, seats = demo
    for seat in seats:
        for path in sorted((out / "mailboxes" / seat).glob("*.eml")):
            text = message_from_bytes(path.read_bytes(), policy=policy.default).get_body(("plain",)).get_content()
            long = [line for line in text.splitlines() if len(line) > 72 and not line[:1].isspace()]
            assert not long, f"{path.name} of {seat}: {long[:3]}"


def _dom(html: Path) -> str:
    """The page as Chromium built it (its DOM after parsing, scripts and styles applied)."""
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        done = subprocess.run([str(chromium()), *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                               html.resolve().as_uri()], capture_output=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    return done.stdout.decode("utf-8")


@pytest.mark.skipif(chromium() is None, reason="Debian's chromium is not installed (apt-get install -y chromium)")
def test_each_seat_report_opens_in_a_real_browser_in_its_language(demo, tmp_path):
    from PIL import Image

    out, seats = demo
    words = {"hu": "tallér", "de": "Talern", "en": "victory points"}
    for seat, language in seats.items():
        page = out / "reports" / "1618-summer" / seat / "report.html"
        dom = _dom(page)
        assert f'<html lang="{language}">' in dom
        assert words[language] in dom, f"{seat}: the browser does not show '{words[language]}'"
        assert not [g for g in GARBLED if g in dom]
        shot = screenshot(page, tmp_path / f"{seat}.png", window=(1000, 3000))
        image = Image.open(io.BytesIO(shot.read_bytes())).convert("RGB")
        colours = image.getcolors(maxcolors=1_000_000)
        assert colours is not None and len(colours) > 200, f"{seat}: the page did not render"
