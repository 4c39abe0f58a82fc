"""Babel extraction of the texts the game data files show to players (``babel.cfg``).

Reports show some texts straight from the engines' data files: event cards, the stand-in
favour cards' names, the reasons of provisional figures. Their English is the
message id; this extractor hands them to ``pybabel extract`` (and to the catalogue test) so
they are translated like the code's texts. Files may be gzipped (``data/released/*.json.gz``).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from typing import IO, Any

Extracted = tuple[int, str | None, str, list[str]]


def extract_json(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]) -> Iterator[Extracted]:
    """Babel extraction method: every string under a key named in ``options["keys"]`` (space
    separated), and with ``provisional = <key>`` that key's text in every object marked
    provisional (``"provisional": true`` or ``"status": "provisional"``; a data file says why
    in the key babel.cfg names: ``reason`` or ``source``)."""
    raw = fileobj.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw.decode("utf-8"))
    keys = set(str(options.get("keys", "")).split())
    reason = str(options.get("provisional", "")).strip() or None
    seen: set[str] = set()
    for text in _walk(doc, keys, reason):
        if text and text not in seen and not text.startswith("Same as ") and not _cites_a_work_folder(text):
            seen.add(text)
            yield 0, None, text, ["data file text"]


def _cites_a_work_folder(text: str) -> bool:
    """A reason of rules 1.0's frozen data files that names a research file of the team (a
    path in parentheses) rather than a public source: not offered for translation, so no
    catalogue repeats the path (the file's bytes are pinned by its release, so its English
    stays as recorded)."""
    import re

    return re.search(r"\(\w+/data/\w+/\w+\.json\)", text) is not None


def extract_order_help(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                       options: dict[str, Any]) -> Iterator[Extracted]:
    """Babel extraction method: the lines of a grammar module's ``ORDER_HELP`` (the order
    reminder the reports show, :mod:`turns`), each line a message; with ``descriptions = true``
    only the description after a line's order syntax (a run of three spaces parts them). The
    texts of its ``MISSED_HELP`` (what the missed-orders default did, in the late notice) are
    messages too, each whole."""
    import ast
    import re

    tree = ast.parse(fileobj.read().decode("utf-8"))
    only_descriptions = str(options.get("descriptions", "")).lower() in ("1", "true", "yes")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "ORDER_HELP" for t in node.targets)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            for n, raw in enumerate(node.value.value.splitlines()):
                line = raw.strip()
                if only_descriptions:
                    parts = re.split(r"\s{3,}", line, maxsplit=1)
                    line = parts[1] if len(parts) == 2 else ""
                if line:
                    yield node.lineno + n, None, line, ["order reminder: keep the order words and <...> shapes"]
        if (isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "MISSED_HELP" for t in node.targets)
                and isinstance(node.value, ast.Dict)):
            for value in node.value.values:  # what the missed-orders default played, in the player's words
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield value.lineno, None, value.value, ["what the missed-orders default played for a seat"]


def _provisional(value: dict[str, Any]) -> bool:
    return value.get("provisional") is True or value.get("status") == "provisional"


def _walk(value: Any, keys: set[str], reason: str | None) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and (key in keys or (key == reason and _provisional(value))):
                yield item
            elif isinstance(item, (dict, list)):
                yield from _walk(item, keys, reason)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, keys, reason)


def messages(root: str) -> dict[tuple[str | None, str], tuple[str, ...]]:
    """Every message the project's code, templates and data files use, as ``babel.cfg`` (in
    ``root``) extracts them: ``(context, id) -> (id, plural id...)``. What the catalogue test
    checks every catalogue against (and what ``make messages`` writes to the template)."""
    import os

    from babel.messages import frontend
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

    parse = getattr(frontend, "parse_mapping_cfg", None) or frontend.parse_mapping
    with open(os.path.join(root, "babel.cfg"), encoding="utf-8") as fh:
        method_map, options_map = parse(fh)
    found: dict[tuple[str | None, str], tuple[str, ...]] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
            root, method_map, options_map, keywords=DEFAULT_KEYWORDS, comment_tags=("TRANSLATORS:",)):
        ids = message if isinstance(message, tuple) else (message,)
        found[(context, ids[0])] = ids
    return found
