"""The one-block declaration the runtime-file tests read: an executable whose running copy
publishes its endpoint in a ``server_json`` runtime file at ``path``."""

from __future__ import annotations

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import AppDef, OsFamily

LOCATIONS: dict[OsFamily, str] = {
    "win32": "C:\\Vendor\\studio.exe",
    "darwin": "/opt/vendor/studio",
    "linux": "/opt/vendor/studio",
}


def server_json_app(os_family: OsFamily = "linux", path: str = "~/.vendor/server.json") -> AppDef:
    """The ``os_family`` block of ``vendor-studio``, its liveness read from ``path``."""
    decl = parse_declaration(
        "vendor-studio",
        raw_app={
            os_family: {
                "presence": "executable",
                "location": LOCATIONS[os_family],
                "liveness": {"kind": "server_json", "path": path},
            }
        },
        raw_requires={"app": True},
        where="test",
    )
    found = decl.app_for(os_family)
    assert found is not None
    return found
