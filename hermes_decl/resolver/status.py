"""The old address of the runtime status, kept: every name of ``hermes_decl.runtime.status``."""

from hermes_decl.runtime.status import *  # noqa: F403
from hermes_decl.runtime.status import __all__ as __all__
