"""The old address of the probe, kept: every name of ``hermes_decl.runtime.probe``."""

from hermes_decl.runtime.probe import *  # noqa: F403
from hermes_decl.runtime.probe import __all__ as __all__
