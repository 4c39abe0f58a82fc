"""The archivist guide's stand-alone derivation gives exactly what pbem's chance module gives."""

import contextlib
import io
import re
from pathlib import Path

from adjudicator.chance import Chance, commitment

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "archivist-guide.md"


def test_guide_snippet_matches_the_engine():
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(), re.S).group(1)
    out = io.StringIO()
    namespace: dict = {}
    with contextlib.redirect_stdout(out):
        exec(code, namespace)  # noqa: S102 - our own documentation
    lines = out.getvalue().splitlines()
    assert lines[0] == commitment("pbem-test-seed")
    stream = Chance("pbem-test-seed").stream("x")
    assert lines[1] == str([stream.below(6) for _ in range(10)])
    stream = namespace["stream"]("seed-2", "wallenstein/1618/spring/actions")
    mine = Chance("seed-2").stream("wallenstein/1618/spring/actions")
    assert namespace["shuffled"](stream, range(10)) == mine.shuffled(range(10))
    assert [namespace["below"](stream, 37) for _ in range(50)] == [mine.below(37) for _ in range(50)]
