"""A deadline is a finite number of seconds in (0, 600] wherever it enters, else a ``ValueError``
that names the rule and what was found: never an ``OverflowError``, never a probe that waits on."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable

import pytest

from hermes_decl.gates import make_astatus_fn, make_status_fn
from hermes_decl.resolver.liveness import Endpoint
from hermes_decl.resolver.probe import MAX_DEADLINE_S, aprobe, probe
from hermes_decl.resolver.status import astatus, status
from hermes_decl.testing import FakeHost
from tests.servers.loopback import free_port
from tests.test_token_sentinel import DECL  # the same application and runtime file

TOKEN = "SENTINEL-DEADLINE-TOKEN-0b7e"


def running_host() -> FakeHost:
    """A machine whose application published an endpoint where nothing listens."""
    host = FakeHost("linux", home="/home/dev").add_executable("/opt/vendor/studio")
    data = {"pid": 4242, "http": f"http://127.0.0.1:{free_port()}", "token": TOKEN}
    return host.add_file("/home/dev/.vendor/server.json", json.dumps(data).encode()).add_process(
        4242
    )


def endpoint() -> Endpoint:
    return Endpoint(f"http://127.0.0.1:{free_port()}/mcp", TOKEN)


ENTRY_POINTS: dict[str, Callable[[float], object]] = {
    "probe": lambda deadline: probe(endpoint(), deadline=deadline),
    "aprobe": lambda deadline: asyncio.run(aprobe(endpoint(), deadline=deadline)),
    "status-probing": lambda deadline: status(
        DECL, host=running_host(), probe=True, deadline=deadline
    ),
    "status-not-probing": lambda deadline: status(DECL, host=running_host(), deadline=deadline),
    "astatus": lambda deadline: asyncio.run(
        astatus(DECL, host=running_host(), probe=True, deadline=deadline)
    ),
    "make_status_fn": lambda deadline: make_status_fn(
        "vendor-studio", lambda: True, host=running_host(), probe=True, deadline=deadline
    ),
    "make_astatus_fn": lambda deadline: make_astatus_fn(
        "vendor-studio", lambda: True, host=running_host(), probe=True, deadline=deadline
    ),
}
REFUSED: dict[str, tuple[object, str]] = {
    "infinity": (math.inf, "inf"),
    "minus-infinity": (-math.inf, "-inf"),
    "nan": (math.nan, "nan"),
    "zero": (0, "0"),
    "negative": (-1.0, "-1.0"),
    "just-over-600": (600.001, "600.001"),
    "an-hour": (3600, "3600"),
    "too-large-for-a-float": (10**400, "an int of 1329 bits"),
    "bool": (True, "True"),
    "text": ("3", "a str"),
    "none": (None, "None"),
}


@pytest.mark.parametrize(("value", "found"), list(REFUSED.values()), ids=list(REFUSED))
@pytest.mark.parametrize("entry", list(ENTRY_POINTS.values()), ids=list(ENTRY_POINTS))
def test_a_deadline_out_of_bounds_is_refused_where_it_enters(
    entry: Callable[[object], object], value: object, found: str
) -> None:
    with pytest.raises(ValueError, match=r"^the deadline must be") as caught:
        entry(value)
    assert str(caught.value) == (
        f"the deadline must be a positive number of seconds, finite and at most 600 (got {found})"
    )
    assert type(caught.value) is ValueError


@pytest.mark.parametrize("value", [MAX_DEADLINE_S, 600, 0.001], ids=["600.0", "600", "a-ms"])
def test_a_deadline_within_bounds_is_taken(value: float) -> None:
    assert MAX_DEADLINE_S == 600.0
    assert probe(endpoint(), deadline=value).reason == "refused"
    made = make_status_fn("vendor-studio", lambda: True, host=running_host(), deadline=value)
    assert made().state == "no_requirements"  # not registered: judged by its connection
    assert status(DECL, host=running_host(), probe=True, deadline=value).state == (
        "endpoint_unavailable"
    )
