"""The mail envelope: data cases (tests/turns/data/envelope_cases.json) and properties."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turns.base import LineProblem
from turns.envelope import Block, find_games, parse_blocks

DATA = json.loads((Path(__file__).parent / "data" / "envelope_cases.json").read_text("utf-8"))
CASES = DATA["cases"]


def _text(case: dict[str, Any]) -> str:
    return ("\r\n" if case.get("crlf") else "\n").join(case["text"])


def _check_problems(got: list[LineProblem], wanted: list[str], where: str) -> None:
    assert len(got) == len(wanted), f"{where}: {[str(p) for p in got]}"
    for problem, expected in zip(got, wanted):
        line, message = expected.split(": ", 1)
        assert f"line {problem.line}" == line and message in problem.message, f"{where}: {problem}"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    result = parse_blocks(_text(case))
    where = case["id"]
    assert len(result.blocks) == len(case["blocks"]), f"{where}: {result.blocks}"
    for block, want in zip(result.blocks, case["blocks"]):
        got = {"game": block.game, "seat": block.seat, "password": block.password,
               "first_line": block.first_line, "end_line": block.end_line,
               "body": block.body.split("\n") if block.body else []}
        assert got == {k: v for k, v in want.items() if k != "problems"}, where
        _check_problems(block.problems, want["problems"], where)
    _check_problems(result.problems, case["problems"], where)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_body_lines_are_the_mail_lines(case: dict[str, Any]) -> None:
    """Line k of a block's body is line first_line + k - 1 of the mail (or blanked)."""
    source = _text(case).splitlines()
    for block in parse_blocks(_text(case)).blocks:
        for k, line in enumerate(block.body.split("\n") if block.body else []):
            original = source[block.first_line - 1 + k]
            assert line == "" or line.split()[0] in original, (case["id"], k, line, original)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_password_never_shown(case: dict[str, Any]) -> None:
    for block in parse_blocks(_text(case)).blocks:
        shown = [repr(block), str(block), block.header(), *map(str, block.problems), *map(repr, block.problems)]
        if block.password:
            assert not any(block.password in s for s in shown), (case["id"], shown)


def test_find_games() -> None:
    text = "GAME a-1 x p\nEND\nGAME b-2 y q\nEND\nGAME a-1 z r\nEND\n> GAME c-3 x p\n"
    assert find_games(text) == ["a-1", "b-2"]


@given(st.text())
def test_arbitrary_text_never_crashes(text: str) -> None:
    result = parse_blocks(text)
    for block in result.blocks:
        assert isinstance(block, Block) and block.first_line >= 2
        assert len(block.body.split("\n")) <= len(text.splitlines()) + 1


_WORD = st.text(st.characters(categories=("L", "N"), max_codepoint=0x24F), min_size=1, max_size=6)
_LINE = st.one_of(st.just("END"), st.just("> GAME q-1 a b"), st.just("-- "), st.just(""),
                  st.builds(lambda w: "GAME " + " ".join(w), st.lists(_WORD, max_size=5)),
                  st.lists(_WORD, max_size=4).map(" ".join))


@given(st.lists(_LINE, max_size=30), st.sampled_from(["\n", "\r\n"]))
def test_mail_like_text_keeps_line_numbers(lines: list[str], newline: str) -> None:
    result = parse_blocks(newline.join(lines))
    for block in result.blocks:
        assert lines[block.game_line - 1].upper().startswith("GAME")
        if block.end_line is not None:
            assert lines[block.end_line - 1].upper().startswith("END")
            count = block.end_line - block.first_line
            assert block.body.split("\n") == [""] if count == 0 else block.body.count("\n") + 1 == count


@given(st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=12, max_size=20))
def test_password_absent_from_problems(password: str) -> None:
    text = f"GAME bad_id! seat {password} extra\nTAX x\n"
    for block in parse_blocks(text).blocks:
        assert block.password == password
        shown = repr(block) + str(block) + "".join(str(p) + repr(p) for p in block.problems)
        assert password not in shown


def test_original_message_separator_ends_the_readable_text() -> None:
    for separator in ("-----Original Message-----", "-------- Original message --------",
                      "----- Original Message -----"):
        text = f"GAME w-1 anna new-pw\nTAX Burgund\nEND\n\n{separator}\nFrom: x\n\nGAME w-1 anna old-pw\nBID 1\nEND\n"
        result = parse_blocks(text)
        assert [(b.password, b.body) for b in result.blocks] == [("new-pw", "TAX Burgund")], separator
    # a forwarded message is still read
    text = "---------- Forwarded message ---------\nFrom: x\n\nGAME w-1 anna pw\nBID 1\nEND\n"
    assert len(parse_blocks(text).blocks) == 1


def test_template_game_lines_are_prose() -> None:
    text = ("Send orders like:\n\nGAME w1 red <password>\n... your orders ...\nEND\n\n"
            "GAME <game-id> <seat> <password>\n")
    result = parse_blocks(text)
    assert result.blocks == [] and result.problems == []
    result = parse_blocks("GAME w1 red pw\nBID 1\nGAME w1 red <password>\nEND\n")
    assert [(b.body, b.end_line) for b in result.blocks] == [("BID 1\n", 4)]
    # a quoted template is not a quoted block
    assert parse_blocks("> GAME w1 red <password>\n").problems == []


# -- press blocks ----------------------------------------------------------------
def test_press_inside_a_block_is_kept_apart_from_the_orders():
    text = ("Hi\nGAME w1 blue pw-1\nTAX Burgund\nPRESS TO red, green\nLet's ally.\n> quoted, dropped\n"
            "End of story.\ngame on?\nEND\nBID 0\nEND\n")
    [block] = parse_blocks(text).blocks
    assert block.ok and block.end_line == 11
    [press] = block.press
    assert (press.to, press.line, press.end_line) == (("red", "green"), 4, 9)
    assert press.text == "Let's ally.\nEnd of story.\ngame on?" and not press.to_all
    assert block.body.split("\n") == ["TAX Burgund", "", "", "", "", "", "", "BID 0"]  # line numbers kept
    assert block.has_orders


def test_press_alone_needs_no_orders_and_to_is_optional():
    [block] = parse_blocks("GAME w1 blue pw\nTURN round-1\nPRESS all\nhello\nEND\nEND\n").blocks
    assert block.ok and not block.has_orders and block.press[0].to_all and block.press[0].text == "hello"


def test_press_whose_end_closed_it_leaves_the_block_without_end():
    [block] = parse_blocks("GAME w1 blue pw\nPRESS TO red\nhi\nBID 1\nEND\n").blocks
    assert [p.message for p in block.problems] == [
        "block for game w1 opened on line 1 has no END line: the END on line 5 closed the PRESS block of "
        "line 2; end the press text with END, then the GAME block with another END"]


def test_press_cut_by_a_signature_or_a_new_block_has_no_end():
    result = parse_blocks("GAME w1 blue pw\nPRESS TO red\nhi\nGAME w1 red pw2\nBID 1\nEND\n")
    first, second = result.blocks
    assert "the PRESS block opened on line 2 has no END line" in first.problems[0].message
    assert second.ok and not second.press
    [cut] = parse_blocks("GAME w1 blue pw\nPRESS TO red\nhi\n-- \nBen\nEND\nEND\n").blocks
    assert not cut.ok and cut.press == ()
