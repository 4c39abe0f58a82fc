"""The text of an HTML mail, for finding order lines in it (:func:`pbem.mailin.parse.html_to_text`)."""

from __future__ import annotations

import re
from html.parser import HTMLParser


class HtmlText(HTMLParser):
    """Text of an HTML mail: block elements become lines; quotes, scripts, styles dropped."""

    BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
    SKIP = {"script", "style", "head", "title", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.pre = 0
        self.tight: list[bool] = []

    def _break(self, tag: str) -> None:
        """A line break for a block element: ``<br>`` always ends a line; the edges of
        other blocks (``<div>``, ``<p>``...) end the current line only when it has text, so
        that ``<div>a</div><div>b</div>`` is two lines, as a mail client shows it, and the
        line numbers of a reply match what the player sees (``<div><br></div>`` is the
        blank line of Gmail and ``<p>&nbsp;</p>`` that of Outlook)."""
        if tag == "br" or not self._at_line_start():
            self.parts.append("\n")

    def _at_line_start(self) -> bool:
        for part in reversed(self.parts):
            if part.strip(" "):
                return part.endswith("\n")
        return True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skip += 1
        elif tag in self.BLOCK and not self.skip:
            self._break(tag)
        if tag == "p":  # a paragraph is followed by a blank line unless styled without margin
            found = dict(attrs)
            style = re.sub(r"\s", "", (found.get("style") or "").lower())
            self.tight.append("msonormal" in (found.get("class") or "").lower()
                              or "margin:0" in style or "margin-bottom:0" in style)
        self.pre += tag == "pre"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCK and not self.skip:
            self._break(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCK and not self.skip:
            self._break(tag)
            if tag == "p" and not (self.tight.pop() if self.tight else False):
                self.parts.append("\n")
        if tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data if self.pre else re.sub(r"[ \t\r\n]+", " ", data))
