"""``python -m hermes_decl``: the ``hermes-decl`` command."""

import sys

from hermes_decl.cli import main

sys.exit(main())
