"""The old address of the endpoint reader, kept: every name of ``hermes_decl.runtime.liveness``."""

from hermes_decl.runtime.liveness import *  # noqa: F403
from hermes_decl.runtime.liveness import __all__ as __all__
