"""No public object holds the token's text: every way a host serialises, copies or inspects a
``Status``, ``Availability``, ``ProbeResult`` or ``Endpoint`` leaves it out, and only
``BearerToken.reveal()`` gives it."""

from __future__ import annotations

import copy
import dataclasses
import json
import logging
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from hermes_decl.resolver.liveness import MAX_TOKEN_CHARS, BearerToken, Endpoint, usable_token
from hermes_decl.resolver.probe import probe
from hermes_decl.resolver.status import Status, status
from hermes_decl.runtime.bearer_token import WithheldTokenError
from hermes_decl.testing import FakeHost
from tests.servers.loopback import answer_json, free_port, initialize_result, serve
from tests.test_token_sentinel import DECL, RUNTIME  # the same application and runtime file

SENTINEL = "SENTINEL-WRAPPED-TOKEN-61c4-NEVER-SHOWN"


def host_for(port: int) -> FakeHost:
    """A machine where the application runs, listens on ``port`` and published the sentinel
    token for it."""
    host = FakeHost("linux", home="/home/dev").add_executable("/opt/vendor/studio")
    data = {"pid": 4242, "http": f"http://127.0.0.1:{port}", "token": SENTINEL}
    host.add_listener(port, pid=4242)
    return host.add_file(RUNTIME, json.dumps(data).encode()).add_process(4242)


class _Keep(logging.Handler):
    """Keeps every record it is given."""

    def __init__(self, level: int) -> None:
        super().__init__(level)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def probed() -> tuple[Status, tuple[logging.LogRecord, ...]]:
    """A probed status of a server that opened a session, and every log record it wrote."""
    handler = _Keep(logging.DEBUG)
    package = logging.getLogger("hermes_decl")
    level = package.level
    package.addHandler(handler)
    package.setLevel(logging.DEBUG)
    answer = answer_json(initialize_result("Studio", "2.4"), {"Mcp-Session-Id": "s-1"})
    try:
        with serve(answer) as server:
            found = status(DECL, host=host_for(server.port), is_connected=lambda: True, probe=True)
    finally:
        package.removeHandler(handler)
        package.setLevel(level)
    assert found.endpoint is not None and found.probe is not None
    assert server.requests and SENTINEL.encode() in server.requests[0]  # it was sent
    return found, tuple(handler.records)


def _fields(value: Any) -> dict[str, object]:
    """``vars(value)``, or its fields when it has slots and so no ``__dict__``."""
    if hasattr(value, "__dict__"):
        return dict(vars(value))
    return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}


WAYS: dict[str, Callable[[Any], str]] = {
    "repr": repr,
    "str": str,
    "format": lambda value: f"{value}",
    "asdict": lambda value: repr(dataclasses.asdict(value)),
    "asdict-json": lambda value: json.dumps(dataclasses.asdict(value), default=str),
    "astuple": lambda value: repr(dataclasses.astuple(value)),
    "json-default-str": lambda value: json.dumps(value, default=str),
    "vars": lambda value: repr(_fields(value)),
    "vars-json": lambda value: json.dumps(_fields(value), default=str),
    "copy": lambda value: repr(_fields(copy.copy(value))),
    "deepcopy": lambda value: json.dumps(dataclasses.asdict(copy.deepcopy(value)), default=str),
    "pickle": lambda value: pickle.dumps(value).decode("latin-1"),
    "unpickled": lambda value: json.dumps(
        dataclasses.asdict(pickle.loads(pickle.dumps(value))), default=str
    ),
}
PARTS: dict[str, Callable[[Status], object]] = {
    "Status": lambda found: found,
    "Availability": lambda found: found.availability,
    "ProbeResult": lambda found: found.probe,
    "Endpoint": lambda found: found.endpoint,
}


@pytest.mark.parametrize("way", list(WAYS.values()), ids=list(WAYS))
@pytest.mark.parametrize("part", list(PARTS.values()), ids=list(PARTS))
def test_no_way_of_serialising_a_public_object_shows_the_token(
    probed: tuple[Status, tuple[logging.LogRecord, ...]],
    part: Callable[[Status], object],
    way: Callable[[Any], str],
) -> None:
    assert SENTINEL not in way(part(probed[0]))


def test_asdict_and_copies_keep_the_wrapper_and_only_reveal_gives_the_text(
    probed: tuple[Status, tuple[logging.LogRecord, ...]],
) -> None:
    found = probed[0]
    assert found.endpoint is not None
    token = found.endpoint.token
    assert isinstance(token, BearerToken)
    assert token.reveal() == SENTINEL
    assert dataclasses.asdict(found)["endpoint"]["token"] is token
    assert copy.deepcopy(found.endpoint).token is token
    assert copy.copy(found.endpoint).token is token
    assert json.dumps(dataclasses.asdict(found.endpoint), default=str).count('"<hidden>"') == 1


def test_an_unpickled_endpoint_has_a_withheld_token_that_cannot_be_sent(
    probed: tuple[Status, tuple[logging.LogRecord, ...]],
) -> None:
    endpoint = probed[0].endpoint
    assert endpoint is not None
    again: Endpoint = pickle.loads(pickle.dumps(endpoint))
    assert again.token is not None and again.token.is_withheld
    assert repr(again.token) == "BearerToken(<withheld>)"
    assert (again.url, again.pid, again.path) == (endpoint.url, 4242, RUNTIME)
    assert again != endpoint
    with pytest.raises(WithheldTokenError, match=r"^the token was withheld when its endpoint"):
        again.token.reveal()
    with pytest.raises(ValueError, match=r"^the endpoint's token was withheld") as caught:
        probe(again)
    assert str(caught.value) == (
        "the endpoint's token was withheld when the endpoint was pickled: "
        "read the endpoint again in this process"
    )


LOG_WAYS: dict[str, Callable[[logging.LogRecord], str]] = {
    "message": logging.LogRecord.getMessage,
    "args": lambda record: repr(record.args),
    "vars": lambda record: repr(vars(record)),
    "vars-json": lambda record: json.dumps(vars(record), default=str),
    "pickle": lambda record: pickle.dumps(record).decode("latin-1"),
    "formatted": logging.Formatter("%(name)s %(levelname)s %(message)s").format,
}


@pytest.mark.parametrize("way", list(LOG_WAYS.values()), ids=list(LOG_WAYS))
def test_no_log_record_of_a_probe_holds_the_token(
    probed: tuple[Status, tuple[logging.LogRecord, ...]],
    way: Callable[[logging.LogRecord], str],
) -> None:
    records = probed[1]
    assert any(record.name == "hermes_decl.resolver.probe" for record in records)
    for record in records:
        assert SENTINEL not in way(record)


def test_the_wrapper_hides_itself_everywhere_but_reveal() -> None:
    token = BearerToken(SENTINEL)
    assert (repr(token), str(token), f"{token}", f"{token:>10}") == (
        "BearerToken(<hidden>)",
        "<hidden>",
        "<hidden>",
        "  <hidden>",
    )
    assert token == BearerToken(SENTINEL) and token != BearerToken(SENTINEL + "x")
    assert token != SENTINEL
    assert hash(token) == hash(BearerToken("another"))
    assert copy.copy(token) is token and copy.deepcopy(token) is token
    assert SENTINEL.encode() not in pickle.dumps(token)
    with pytest.raises(TypeError):
        vars(token)
    with pytest.raises(AttributeError, match=r"^a BearerToken cannot be changed$"):
        token._value = "x"
    with pytest.raises(TypeError, match=r"^a BearerToken holds a str$"):
        BearerToken(b"bytes")  # type: ignore[arg-type]
    assert token.reveal() == SENTINEL


@pytest.mark.parametrize(
    ("token", "usable"),
    [
        (BearerToken("abc"), True),
        (BearerToken("x" * MAX_TOKEN_CHARS), True),
        (BearerToken("x" * (MAX_TOKEN_CHARS + 1)), False),
        (BearerToken(""), False),
        (BearerToken("a b"), False),
        (BearerToken("caf\u00e9"), False),
        (BearerToken.withheld(), False),
        (None, True),
    ],
    ids=["plain", "longest", "too-long", "empty", "space", "non-ascii", "withheld", "none"],
)
def test_a_wrapped_token_is_usable_by_the_rules_of_a_plain_one(
    token: BearerToken | None, usable: bool
) -> None:
    assert usable_token(token) is usable
    if token is not None and not token.is_withheld:
        assert usable_token(token.reveal()) is usable  # the rule of the plain text


def test_an_endpoint_wraps_a_str_token_and_keeps_a_wrapped_one() -> None:
    url = "http://127.0.0.1:5000/mcp"
    wrapped = BearerToken(SENTINEL)
    assert Endpoint(url, SENTINEL) == Endpoint(url, wrapped)
    assert Endpoint(url, wrapped).token is wrapped
    assert Endpoint(url, None).token is None
    changed = dataclasses.replace(Endpoint(url, SENTINEL, pid=7), token=BearerToken("other"))
    assert changed.token == BearerToken("other") and changed.pid == 7
    assert repr(changed) == "Endpoint(url='http://127.0.0.1:5000/mcp', token=<hidden>)"


def test_a_probe_with_a_wrapped_token_is_a_probe_with_its_text() -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    assert probe(Endpoint(url, BearerToken(SENTINEL))) == probe(Endpoint(url, SENTINEL))
