"""Tests written for the survivors of mutation testing of ``resolver/template.py``."""

from __future__ import annotations

import pytest

from hermes_decl.models import OsFamily
from hermes_decl.resolver.expand import Expansion, expand
from hermes_decl.resolver.template import read_template
from hermes_decl.testing import FakeHost


@pytest.mark.parametrize("os_family", ["linux", "darwin"])
def test_a_percent_sign_is_no_variable_outside_windows(os_family: OsFamily) -> None:
    # Without a variable the path is looked at as written, not checked again after expansion:
    # a '%' read as one would send it through the automounter check.
    host = FakeHost(os_family)
    assert read_template("/net/h/50%", os_family).as_written == "/net/h/50%"
    assert expand("/net/h/50%", os_family, host) == Expansion("/net/h/50%")
    assert not host.calls
