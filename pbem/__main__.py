"""``python -m pbem``: the same as the ``pbem`` console script."""

from pbem.cli.main import main

main()
