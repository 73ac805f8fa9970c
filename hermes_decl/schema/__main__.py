"""``python -m hermes_decl.schema``: print a schema, or write or check the committed files."""

import sys

from hermes_decl.schema.writer import main

sys.exit(main())
