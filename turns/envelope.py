"""The mail envelope: finding ``GAME ... END`` order blocks in the text of a mail.

An order mail (already decoded to text by the shell) holds one or more blocks::

    GAME <game-id> <seat> <password>
    ... orders, one per line; '#' starts a comment ...
    END

Everything outside blocks (greetings, signatures, quoted earlier reports) is ignored.
Lines quoted with ``>`` (any depth) are ignored everywhere, and a signature separator
line (``-- ``) or the separator above an unquoted original in a reply (``-----Original
Message-----``) ends the readable text. A ``GAME`` line with placeholders
(``GAME w1 red <password>``, as in the welcome mail and in our replies) is prose, not a
block. Line numbers are 1-based and count the lines of
the original text (:meth:`str.splitlines`), so a block's ``body`` keeps every line
(ignored ones blanked) and ``first_line`` says where it starts: grammar problems can then
point at the line the player really wrote (``turns.base.check_orders(..., first_line=)``).

Inside a block, ``PRESS TO <seats>`` (or ``PRESS TO ALL``) ... ``END`` is a press message
to other seats (:class:`Press`): its lines are blanked in ``body`` (they are no orders) and
its ``END`` closes the press, not the block.

Passwords never appear in a problem, a ``repr`` or a ``str`` of a block.
This module is pure: text in, values out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from turns.base import LineProblem

#: Characters a mail client may put where a plain space belongs (or nothing at all).
_SPACES = {"\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u3000": " ", "\t": " ",
           "\ufeff": "", "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": ""}
_SPACE_RE = re.compile("|".join(map(re.escape, _SPACES)))
_GAME_ID = re.compile(r"[A-Za-z0-9-]+")
_FIELDS = ("game id", "seat", "password")
#: The line some clients (Outlook, Android, Samsung, ...) put above the unquoted original
#: of a reply: ``-----Original Message-----``, ``-------- Original message --------``.
_ORIGINAL = re.compile(r"^\s*-{2,}\s*original\s+message\s*-{2,}\s*$", re.IGNORECASE)
#: A placeholder such as ``<password>`` or ``<game-id>`` (a template, not a real GAME line).
_PLACEHOLDER = re.compile(r"^<[^<>]*>$")
MASK = "******"
#: What a seat name may look like (pbem/store/auth.py's rule); another word in the seat's place
#: (``red:pw``) may hold the password, so it is masked wherever it would be shown.
_SEAT_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")
#: The shape of a generated password (``k7mq-2xpd-9rtw``): masked wherever it stands.
_PASSWORD_SHAPE = re.compile(r"^[A-Za-z0-9]{4}(?:-[A-Za-z0-9]{4}){2,}$")
#: The longest game id or seat shown back (longer ones are cut, so nothing long is echoed).
SHOWN_LIMIT = 40


def looks_like_password(word: str) -> bool:
    """True for a word shaped like a generated password (``k7mq-2xpd-9rtw``)."""
    return _PASSWORD_SHAPE.match(word) is not None


def shown_word(word: str, secret: bool = False) -> str:
    """``word`` as a reply or the GM's output may show it: masked when it could be the
    password, cut to :data:`SHOWN_LIMIT` characters, control characters dropped."""
    if secret or looks_like_password(word):
        return MASK
    word = "".join(c for c in word if c.isprintable())
    return word if len(word) <= SHOWN_LIMIT else word[:SHOWN_LIMIT - 1] + "\u2026"


#: The recipients word meaning every other seat (``PRESS TO ALL``).
ALL = "ALL"


@dataclass(frozen=True)
class Press:
    """One ``PRESS TO ...`` ... ``END`` message inside a block.

    ``to`` holds the recipient words as written (``("blue", "red")``, or ``("ALL",)``);
    ``text`` the message lines between the PRESS line and its END (quoted lines dropped,
    blank lines at the start and end removed). ``line`` is the PRESS line of the mail.
    """

    to: tuple[str, ...]
    text: str
    line: int
    end_line: int | None

    @property
    def to_all(self) -> bool:
        """True for ``PRESS TO ALL``."""
        return [w.upper() for w in self.to] == [ALL]


@dataclass(frozen=True)
class Block:
    """One ``GAME ... END`` block.

    ``body`` holds the lines between the GAME line and the END line (or the end of the
    readable text), ignored lines (quoted) blanked so that line ``k`` of ``body`` is line
    ``first_line + k - 1`` of the mail. ``end_line`` is ``None`` when END is missing.
    ``problems`` are the envelope problems of this block (line numbers of the mail).
    """

    game: str
    seat: str
    password: str = field(repr=False)
    body: str
    first_line: int
    end_line: int | None
    problems: list[LineProblem] = field(default_factory=list)
    press: tuple[Press, ...] = ()

    @property
    def has_orders(self) -> bool:
        """True when ``body`` holds a line other than blanks, comments and a ``TURN`` line
        (a block with only press needs no orders)."""
        lines = [line.split("#", 1)[0].strip() for line in self.body.split("\n")]
        return any(line and line.split()[0].upper() != "TURN" for line in lines)

    @property
    def game_line(self) -> int:
        """The line number of the block's GAME line."""
        return self.first_line - 1

    @property
    def ok(self) -> bool:
        """True when the envelope of this block has no problem."""
        return not self.problems

    @property
    def seat_may_be_secret(self) -> bool:
        """True when the seat word could be the password: the GAME line lacks a field (so
        the words may have slipped left: ``GAME w1 9emz-wk5a-v45t``), or the word is no
        seat name (``red:pw``), or it is shaped like a password."""
        return bool(self.seat) and (not self.password or not _SEAT_WORD.match(self.seat)
                                    or looks_like_password(self.seat))

    @property
    def shown_game(self) -> str:
        """The game id as it may be shown (see :func:`shown_word`)."""
        return shown_word(self.game)

    @property
    def shown_seat(self) -> str:
        """The seat as it may be shown: masked when it could be the password."""
        return shown_word(self.seat, self.seat_may_be_secret)

    @property
    def secrets(self) -> list[str]:
        """Every word of the GAME line that could be the password (to mask in any text)."""
        words = [self.password]
        words += [self.seat] if self.seat_may_be_secret else []
        words += [self.game] if looks_like_password(self.game) else []
        return [w for w in words if w]

    def header(self) -> str:
        """The GAME line with the password (and any word that could be it) masked."""
        return " ".join(["GAME", self.shown_game or "?", self.shown_seat or "?", MASK if self.password else "?"])

    def __str__(self) -> str:
        end = f"END on line {self.end_line}" if self.end_line else "no END"
        return f"{self.header()} (lines {self.game_line}-{self.end_line or '?'}, {end})"


@dataclass
class EnvelopeResult:
    """The blocks of a mail, in order, and the problems of the mail as a whole."""

    blocks: list[Block] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when neither the mail nor any block has an envelope problem."""
        return not self.problems and all(b.ok for b in self.blocks)


def clean_line(line: str) -> str:
    """A line with odd spaces (tabs, non-breaking, zero-width, BOM) made plain, right-stripped."""
    if line.isascii() and "\t" not in line:  # the only ASCII odd space is the tab
        return line.rstrip()
    return _SPACE_RE.sub(lambda m: _SPACES[m.group(0)], line).rstrip()


def is_quoted(line: str) -> bool:
    """True for a line quoted with ``>`` (any depth, with or without a space)."""
    return clean_line(line).lstrip().startswith(">")


def is_signature(line: str) -> bool:
    """True for a signature separator (``-- ``; also ``--`` whose space a client dropped)."""
    return clean_line(line).strip() == "--"


def is_original_separator(line: str) -> bool:
    """True for the line above the unquoted original of a reply (``-----Original Message-----``)."""
    return _ORIGINAL.match(clean_line(line)) is not None


def is_template(words: list[str]) -> bool:
    """True for a GAME line copied from instructions: a field is a ``<placeholder>``."""
    return any(_PLACEHOLDER.match(word) for word in words[1:4])


def _words(line: str) -> list[str]:
    """The words of a line before a ``#`` comment (a word starting with ``#``)."""
    return _clean_words(clean_line(line))


def _clean_words(clean: str) -> list[str]:
    """:func:`_words` of a line :func:`clean_line` has cleaned already."""
    words = clean.split()
    if "#" in clean:
        for i, word in enumerate(words):
            if word.startswith("#"):
                return words[:i]
    return words


def _keyword(line: str) -> str:
    words = _words(line)
    return words[0].rstrip(":").upper() if words else ""


def _opens_block(words: list[str], in_block: bool) -> bool:
    """Whether a line starting with the word GAME opens a block.

    ``GAME`` in capitals always does. In other spellings (``Game``, ``game``) it does only
    when a valid game id follows, so prose such as ``Game on, orders below`` is not taken
    for an order block.
    """
    if words[0].rstrip(":") == "GAME" or in_block:
        return True
    return len(words) > 1 and _GAME_ID.fullmatch(words[1]) is not None


def _header(words: list[str], line: int) -> tuple[str, str, str, list[LineProblem]]:
    """Game id, seat, password of a GAME line and its problems (the password masked)."""
    fields = words[1:4] + [""] * (3 - len(words[1:4]))
    game, seat, password = fields[0], fields[1], fields[2]
    shown = Block(game, seat, password, "", line + 1, None).header()
    problems: list[LineProblem] = []
    missing = [name for name, value in zip(_FIELDS, fields) if not value]
    if missing:
        problems.append(LineProblem(line, f"the GAME line lacks the {_and(missing)}; write "
                                    "GAME <game-id> <seat> <password>", text=shown))
    if game and not _GAME_ID.fullmatch(game):
        problems.append(LineProblem(line, f"game id {shown_word(game)!r} may contain only letters, "
                                    "digits and hyphens", text=shown))
    if len(words) > 4:
        problems.append(LineProblem(line, f"the GAME line has {len(words) - 4} word(s) after the "
                                    "password; put comments after '#'", text=shown))
    return game, seat, password, problems


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class _Open:
    """A block being read (a plain class, not a dataclass: the parser's private scratch,
    never compared or shown, and a mail hook's process need not build its methods)."""

    def __init__(self, game: str, seat: str, password: str, game_line: int, problems: list[LineProblem]) -> None:
        self.game = game
        self.seat = seat
        self.password = password
        self.game_line = game_line
        self.problems = problems
        self.body: list[str] = []
        self.press: list[Press] = []
        self.press_open: _OpenPress | None = None

    def close(self, end_line: int | None) -> Block:
        problems = list(self.problems)
        name = self.game or "?"
        if self.press_open is not None:
            problems.append(LineProblem(self.press_open.line, f"the PRESS block opened on line "
                                        f"{self.press_open.line} has no END line; end the press text with "
                                        "END on a line of its own, then the GAME block with another END"))
            self.press_open = None
        elif end_line is None and self.press:
            last = self.press[-1]
            problems.append(LineProblem(self.game_line, f"block for game {name} opened on line "
                                        f"{self.game_line} has no END line: the END on line {last.end_line} "
                                        f"closed the PRESS block of line {last.line}; end the press text with "
                                        "END, then the GAME block with another END"))
        elif end_line is None:
            problems.append(LineProblem(self.game_line, f"block for game {name} opened on line "
                                        f"{self.game_line} has no END line; write END on a line of its own "
                                        "right after your last order"))
        return Block(self.game, self.seat, self.password, "\n".join(self.body),
                     self.game_line + 1, end_line, problems, tuple(self.press))

    def read_press(self, number: int, raw: str, words: list[str]) -> bool:
        """Read a line of an open PRESS block (True), or False when it opens a new GAME
        block (which ends this one, the press without END). Only END alone ends the press,
        so prose such as "End of story" or "game on?" is press text."""
        assert self.press_open is not None
        self.body.append("")
        if [w.upper() for w in words] == ["END"]:
            self.press.append(self.press_open.close(number))
            self.press_open = None
            return True
        if words and words[0] == "GAME" and len(words) >= 4 and not is_template(words):
            self.body.pop()
            return False
        self.press_open.lines.append(clean_line(raw))
        return True


class _OpenPress:
    """A PRESS block being read (a plain class, as :class:`_Open`)."""

    def __init__(self, to: tuple[str, ...], line: int) -> None:
        self.to = to
        self.line = line
        self.lines: list[str] = []

    def close(self, end_line: int | None) -> Press:
        return Press(self.to, "\n".join(self.lines).strip("\n"), self.line, end_line)


def press_recipients(words: list[str]) -> tuple[str, ...]:
    """The recipient words of a ``PRESS TO blue, red`` line (``TO`` may be left out)."""
    names = [n for n in re.split(r"[,;\s]+", " ".join(words[1:])) if n]
    if names and names[0].upper().rstrip(":") == "TO":
        names = names[1:]
    return tuple(names)


def parse_blocks(text: str) -> EnvelopeResult:
    """Every ``GAME ... END`` block of a mail's text, with line-numbered problems.

    >>> r = parse_blocks("Hi!\\nGAME w-1 anna secret\\nTAX Burgund\\nEND\\n-- \\nAnna")
    >>> [(b.game, b.seat, b.body, b.first_line, b.end_line) for b in r.blocks]
    [('w-1', 'anna', 'TAX Burgund', 3, 4)]
    """
    result = EnvelopeResult()
    block: _Open | None = None
    quoted_games = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = clean_line(raw)  # once per line: the tests below are those of is_signature etc. on it
        if line.strip() == "--" or _ORIGINAL.match(line) is not None:  # a signature, a reply's original
            break
        quoted = line.lstrip().startswith(">")
        if quoted and block is not None and block.press_open is not None:
            block.body.append("")  # a quoted line in press text is dropped, as everywhere
            continue
        words = _clean_words(line)
        if block is not None and block.press_open is not None and block.read_press(number, line, words):
            continue
        if quoted:
            unquoted = line.lstrip().lstrip("> ")
            quoted_games += _keyword(unquoted) == "GAME" and not is_template(_words(unquoted))
            if block is not None:
                block.body.append("")
            continue
        keyword = words[0].rstrip(":").upper() if words else ""
        if keyword == "GAME" and is_template(words):
            if block is not None:
                block.body.append("")
            continue
        if keyword == "GAME" and _opens_block(words, block is not None):
            if block is not None:
                result.blocks.append(block.close(None))
            game, seat, password, problems = _header(words, number)
            block = _Open(game, seat, password, number, problems)
        elif block is not None and keyword == "END":
            result.blocks.append(block.close(number))
            block = None
        elif block is not None and keyword == "PRESS":
            block.body.append("")
            block.press_open = _OpenPress(press_recipients(words), number)
        elif block is not None:
            block.body.append(line.strip())
    if block is not None:
        result.blocks.append(block.close(None))
    if not result.blocks and quoted_games:
        result.problems.append(LineProblem(0, "the only GAME blocks in this mail are quoted (lines "
                                           "starting with '>'), and quoted text is ignored; write "
                                           "your orders without '>' in front of the lines"))
    return result


def find_games(text: str) -> list[str]:
    """The game ids of the mail's blocks, each once, in order of appearance."""
    games: list[str] = []
    for block in parse_blocks(text).blocks:
        if block.game and block.game not in games:
            games.append(block.game)
    return games
