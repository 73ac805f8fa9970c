"""On Windows the runtime file's owner SID must be this user's: a file an elevated program wrote,
owned by BUILTIN\\Administrators, is refused with a reason saying why, however the host runs."""

from __future__ import annotations

import json

import pytest

from hermes_decl.runtime.liveness import Endpoint, NoEndpoint, NoEndpointCode, read_endpoint
from hermes_decl.testing import FakeHost
from tests.server_json_app import server_json_app as app_def

PID = 4242
TOKEN = "windows-owner-token"
USER = "S-1-5-21-1004336348-1177238915-682003330-1001"
LOCAL = "C:\\Users\\dev\\AppData\\Local"
RUNTIME = f"{LOCAL}\\Vendor\\server.json"
ELEVATED = (
    "belongs to the Administrators group, which owns what an elevated program writes: any "
    "administrator may have written it, so it is not trusted as this user's (run the "
    "application without elevation)"
)


OWNERS: dict[str, tuple[str, NoEndpointCode | None, str | None]] = {
    "this-user": (USER, None, None),
    "administrators-group": ("S-1-5-32-544", NoEndpointCode.UNTRUSTED_FILE, ELEVATED),
    "another-user": (
        "S-1-5-21-1004336348-1177238915-682003330-1002",
        NoEndpointCode.UNTRUSTED_FILE,
        "belongs to another user, who may have written it",
    ),
    "local-system": (
        "S-1-5-18",
        NoEndpointCode.UNTRUSTED_FILE,
        "belongs to another user, who may have written it",
    ),
}


@pytest.mark.parametrize(("owner", "code", "reason"), OWNERS.values(), ids=list(OWNERS))
def test_only_this_users_sid_publishes(
    owner: str, code: NoEndpointCode | None, reason: str | None
) -> None:
    host = FakeHost("win32", env={"LOCALAPPDATA": LOCAL}, user=USER).add_process(PID)
    document = {"pid": PID, "http": "http://127.0.0.1:5000", "token": TOKEN}
    host.add_file(RUNTIME, json.dumps(document).encode(), owner=owner)
    result = read_endpoint(app_def("win32", "%LOCALAPPDATA%\\Vendor\\server.json"), host=host)
    if code is None:
        assert result == Endpoint("http://127.0.0.1:5000/mcp", TOKEN)
    else:
        assert isinstance(result, NoEndpoint)
        assert (result.code, result.reason, result.path) == (
            code,
            f"runtime file {RUNTIME} {reason}",
            RUNTIME,
        )
        assert TOKEN not in repr(result)
