"""A logger for the mail path that imports :mod:`logging` only when a message can go somewhere.

A mail hook runs ``pbem ingest FILE`` once per mail, and the logging package is a fair share
of such a process's start. Until something has imported :mod:`logging`, nothing can have
configured it, so a message below WARNING would be dropped by the logger anyway (the root's
level is WARNING and there is no handler); :class:`LazyLogger` drops it without importing the
package. A warning or worse, or any message once logging is imported (a GM's ``logging``
configuration, pytest's ``caplog``), goes to ``logging.getLogger(name)`` as before.
"""

from __future__ import annotations

import sys
from typing import Any


class LazyLogger:
    """``logging.getLogger(name)``, imported when first needed (see the module's docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _logger(self) -> Any:
        import logging

        return logging.getLogger(self.name)

    def debug(self, msg: str, *args: Any, **kwargs: Any) -> None:
        """As :meth:`logging.Logger.debug` (dropped while logging is not imported)."""
        if "logging" in sys.modules:
            self._logger().debug(msg, *args, **kwargs)

    def info(self, msg: str, *args: Any, **kwargs: Any) -> None:
        """As :meth:`logging.Logger.info` (dropped while logging is not imported)."""
        if "logging" in sys.modules:
            self._logger().info(msg, *args, **kwargs)

    def warning(self, msg: str, *args: Any, **kwargs: Any) -> None:
        """As :meth:`logging.Logger.warning`."""
        self._logger().warning(msg, *args, **kwargs)
