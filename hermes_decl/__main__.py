"""``python -m hermes_decl``: the ``hermes-decl`` command."""

import sys

from hermes_decl.cli import program

if __name__ == "__main__":  # not in a worker process that imports this module
    sys.exit(program())
