"""The library's loggers, all under the ``hermes_decl`` logger, which has a ``NullHandler``.

A library's logger should have one: what it logs (an invalid overrides file, a failing connection
check) reaches the handlers the host configures, and a host without any logging configuration
gets no stray lines on stderr. It is added here, when the first module that logs asks for its
logger, rather than by ``import hermes_decl``: parsing and checking declarations log nothing, so
they need not import ``logging``.
"""

from __future__ import annotations

import logging

PACKAGE = "hermes_decl"

logging.getLogger(PACKAGE).addHandler(logging.NullHandler())


def get_logger(name: str = PACKAGE) -> logging.Logger:
    """The logger ``name``: ``hermes_decl`` or one below it, whose records reach its handler."""
    return logging.getLogger(name)
