"""The GM's command line: ``pbem [--db PATH] COMMAND ...`` (:mod:`pbem.cli.main`), the
application object it works on, and one module of commands per concern
(``pbem/cli/commands/``), each a thin adapter over the rooms below.

The top room: it may import every other room of pbem/; none of them imports it.
"""
