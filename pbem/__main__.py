"""``python -m pbem``: the same as the ``pbem`` console script."""

from pbem.cli import main

main()
