"""The example asyncio host (examples/host) end to end, on the live host and the real MCP SDK.

The application's executable appears and disappears during the test and the tool list follows
within ``max_age``; its runtime file appears and the status goes from ``app_not_running`` to
``connected``; a second plugin claiming the same server is refused.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from examples.host.host import PluginHost
from hermes_decl.declaration import RegistrationConflict, clear, owner_of
from hermes_decl.gates import refresh
from tests.listener_proof import live_listener_proof  # noqa: F401  (a fixture)
from tests.servers.loopback import sdk_server

TOKEN = "SENTINEL-EXAMPLE-HOST-TOKEN-5e1f"
MAX_AGE = 0.2
SKILLS = {
    "storyboard": {"requires_apps": ["vendor-studio"]},
    "notes": {},
}


@pytest.fixture(autouse=True)
def empty_registry() -> Iterator[None]:
    clear()
    refresh()
    yield
    clear()
    refresh()


def os_block(app_dir: Path) -> tuple[str, dict[str, object]]:
    """This machine's OS block: the executable and the runtime file in ``app_dir``."""
    family = (
        "win32" if sys.platform == "win32" else "darwin" if sys.platform == "darwin" else "linux"
    )
    executable = "studio.exe" if family == "win32" else "studio"
    return family, {
        "presence": "executable",
        "location": str(app_dir / "bin" / executable),
        "liveness": {"kind": "server_json", "path": str(app_dir / "run" / "server.json")},
    }


def write_plugin(folder: Path, app_dir: Path) -> None:
    family, block = os_block(app_dir)
    folder.mkdir()
    manifest = {
        "schema": "plugin.v1",
        "name": folder.name,
        "extensions": {
            "com.nousresearch.hermes": {
                "servers": {
                    "vendor-studio": {
                        "app": {"display_name": "Vendor Studio", family: block},
                        "requires": {"app": True},
                    }
                }
            }
        },
    }
    (folder / "plugin.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "declarations.yaml").write_text("notes-server: {}\n", encoding="utf-8")


def executable(app_dir: Path) -> Path:
    return Path(str(os_block(app_dir)[1]["location"]))


def install(app_dir: Path) -> None:
    path = executable(app_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"#!/bin/sh\n")


async def wait_for(condition: object, seconds: float = 5.0) -> None:
    """Poll an async predicate until it holds (the gates re-evaluate after ``MAX_AGE``)."""
    assert callable(condition)
    ends = time.monotonic() + seconds
    while not await condition():
        assert time.monotonic() < ends, "the host did not follow the machine in time"
        await asyncio.sleep(MAX_AGE / 4)


@pytest.mark.usefixtures("live_listener_proof")
def test_the_example_host_follows_the_application(tmp_path: Path) -> None:
    app_dir = tmp_path / "app"
    write_plugin(tmp_path / "vendor-plugin", app_dir)
    write_plugin(tmp_path / "copycat-plugin", app_dir)
    host = PluginHost(max_age=MAX_AGE, probe=True)

    async def scenario() -> None:
        assert host.load_plugin(tmp_path / "vendor-plugin") == ("vendor-studio", "notes-server")
        assert owner_of("vendor-studio") == "vendor-plugin"
        with pytest.raises(RegistrationConflict) as refused:
            host.load_plugin(tmp_path / "copycat-plugin")
        assert str(refused.value) == (
            "server 'vendor-studio' is already registered by owner 'vendor-plugin'; "
            "owner 'copycat-plugin' cannot register it (unregister it first)"
        )
        assert owner_of("notes-server") == "vendor-plugin"  # the refused plugin changed nothing

        assert await host.status_lines() == (
            "notes-server: endpoint_unavailable: This host is not connected to notes-server. "
            "Reconnect notes-server, then try again.",
            "vendor-studio: missing_app: Vendor Studio is not installed. "
            "Install Vendor Studio, then try again.",
        )
        assert host.skills(SKILLS) == ("notes",)

        install(app_dir)
        assert (await host.status_lines())[1] == (
            "vendor-studio: app_not_running: Vendor Studio is not running. "
            "Start Vendor Studio, then try again."
        )
        with sdk_server(TOKEN, lifetime=120) as sdk:
            runtime = app_dir / "run" / "server.json"
            runtime.parent.mkdir()
            runtime.write_text(
                json.dumps(
                    {"pid": os.getpid(), "http": f"http://127.0.0.1:{sdk.port}", "token": TOKEN}
                ),
                encoding="utf-8",
            )
            assert (await host.status_lines())[1] == (
                "vendor-studio: endpoint_unavailable: Vendor Studio is running, but this host "
                "is not connected to it. Reconnect Vendor Studio, then try again."
            )
            await host.refresh_connections()
            try:
                assert (await host.status_lines())[1] == (
                    "vendor-studio: connected: Vendor Studio is connected."
                )

                async def tools_offered() -> bool:
                    return await host.tools() == {"vendor-studio": ("render_scene",)}

                await wait_for(tools_offered)
                assert host.skills(SKILLS) == ("storyboard", "notes")

                executable(app_dir).unlink()

                async def tools_withdrawn() -> bool:
                    return await host.tools() == {}

                await wait_for(tools_withdrawn)
                assert host.skills(SKILLS) == ("notes",)
                install(app_dir)
                await wait_for(tools_offered)
            finally:
                await host.close()
        assert await host.unload_plugin("vendor-plugin") == ("vendor-studio", "notes-server")
        assert host.load_plugin(tmp_path / "copycat-plugin") == ("vendor-studio", "notes-server")
        assert TOKEN not in "\n".join(await host.status_lines())

    asyncio.run(scenario())
