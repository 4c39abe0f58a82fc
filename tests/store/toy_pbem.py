"""``python -m tests.store.toy_pbem``: the pbem command line with the toy engine registered
(the campaign runs it as separate processes, to kill them or run them side by side)."""

import tests.toy  # noqa: F401  (registers the toy engine and grammar)
from pbem.cli.main import main

main()
