"""The player docs stay true: the alias table is current, the example mails parse."""

from __future__ import annotations

import re
from pathlib import Path

from turns.base import LineProblem
from turns.envelope import parse_blocks
from turns.wallenstein import parse
from turns.wallenstein_names import alias_table_markdown

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"```\n(.*?)```", text, flags=re.S)


def _problems(mail: str) -> list[LineProblem]:
    """Envelope and grammar problems of a mail, with the mail's line numbers."""
    result = parse_blocks(mail)
    found = list(result.problems)
    for block in result.blocks:
        found += block.problems
        found += [LineProblem(p.line + block.first_line - 1, p.message, p.suggestions, p.stage, p.text)
                  for p in parse(block.body).problems]
    return found


def test_alias_table_is_generated_from_the_data() -> None:
    assert alias_table_markdown() in (DOCS / "orders-wallenstein.md").read_text("utf-8")


def test_example_mail_is_accepted_and_the_example_reply_is_what_we_say() -> None:
    blocks = _code_blocks((DOCS / "orders-wallenstein.md").read_text("utf-8"))
    mail = next(b for b in blocks if b.startswith("Hi all"))
    reply = blocks[-1]
    assert _problems(mail) == []
    broken = mail.replace("Bohemia TO Silesia", "Bohemia TO Schlesein").replace("BID 2", "BID 7")
    assert "\n".join(str(p) for p in _problems(broken)) + "\n" == reply


def test_every_example_line_in_the_orders_doc_parses() -> None:
    text = (DOCS / "orders-wallenstein.md").read_text("utf-8")
    rows = re.findall(r"^\| `([A-Z][A-Z0-9]+ [^`<]*)` \|", text, flags=re.M)
    assert len(rows) >= 8
    for block in _code_blocks(text):
        if not block.startswith(("GAME <", "Hi all", "line ")):
            rows += [line for line in block.splitlines() if line.strip()]
    for row in rows:
        result = parse(row)
        assert result.ok and len(result.orders) == 1, (row, [str(p) for p in result.problems])


def test_order_mail_doc_examples() -> None:
    text = (DOCS / "order-mail.md").read_text("utf-8")
    for block in _code_blocks(text):
        if block.startswith("#ok\n"):
            assert parse_blocks(block).ok, block
