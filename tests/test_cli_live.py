"""``hermes-decl explain --live [--probe]``: the runtime status on a snapshot and this machine."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import yaml

from tests.servers.loopback import free_port, sdk_server
from tests.test_cli import run

TOKEN = "SENTINEL-CLI-TOKEN-0b7d"
needs_posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")


def declarations_file(directory: Path) -> Path:
    """A declarations file whose Linux (or macOS) application and runtime file are in
    ``directory``."""
    os_family = "darwin" if sys.platform == "darwin" else "linux"
    (directory / "studio").write_bytes(b"#!/bin/sh\n")
    path = directory / "servers.yaml"
    block = {
        "presence": "executable",
        "location": str(directory / "studio"),
        "liveness": {"kind": "server_json", "path": str(directory / "server.json")},
    }
    path.write_text(
        yaml.safe_dump({"studio": {"app": {os_family: block}, "requires": {"app": True}}})
    )
    return path


def publish(directory: Path, port: int, token: str = TOKEN) -> None:
    """This test process publishes an endpoint, as a running application would."""
    data = {"pid": os.getpid(), "http": f"http://127.0.0.1:{port}", "token": token}
    (directory / "server.json").write_text(json.dumps(data))


@needs_posix
def test_live_probe_against_a_real_server(tmp_path: Path) -> None:
    servers = declarations_file(tmp_path)
    with sdk_server(TOKEN) as server:
        publish(tmp_path, server.port)
        text = run("explain", str(servers), "--live", "--probe")
        report = run("explain", str(servers), "--live", "--probe", "--json")
    assert text.returncode == report.returncode == 0
    lines = text.stdout.splitlines()
    assert lines[-6:] == [
        "  live:     hermes_not_connected (this command holds no MCP connection)",
        "            studio is running, but this host is not connected to it. "
        "Reconnect studio, then try again.",
        f"  runtime:  {tmp_path / 'server.json'}",
        f"  process:  {os.getpid()}, this user's, started before the file was written",
        f"  endpoint: http://127.0.0.1:{server.port}/mcp",
        "  probe:    answering: Vendor Studio 2.4.0, protocol 2025-11-25; session ended",
    ]
    (entry,) = json.loads(report.stdout)
    assert entry["live"] == {
        "state": "hermes_not_connected",
        "usable": False,
        "retry": "after_user_action",
        "user_action": "Reconnect studio, then try again.",
        "sentence": "studio is running, but this host is not connected to it. "
        "Reconnect studio, then try again.",
        "runtime_file": str(tmp_path / "server.json"),
        "process": os.getpid(),
        "runtime_problem": None,
        "endpoint": f"http://127.0.0.1:{server.port}/mcp",
        "probe": {
            "outcome": "answering",
            "http_status": 200,
            "server_name": "Vendor Studio",
            "server_version": "2.4.0",
            "protocol_version": "2025-11-25",
            "session_ended": True,
            "detail": "",
        },
    }
    assert TOKEN not in text.stdout + text.stderr + report.stdout + report.stderr


@needs_posix
def test_probe_implies_live_and_says_why_an_endpoint_does_not_answer(tmp_path: Path) -> None:
    servers = declarations_file(tmp_path)
    publish(tmp_path, free_port())
    result = run("explain", str(servers), "--probe")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[-6] == "  live:     endpoint_unavailable"
    assert lines[-5] == (
        "            studio is running, but nothing accepts connections at its MCP endpoint. "
        "Restart studio, then try again."
    )
    assert lines[-1] == "  probe:    refused: the connection was refused"
    assert TOKEN not in result.stdout + result.stderr


@needs_posix
def test_a_runtime_problem_is_shown(tmp_path: Path) -> None:
    servers = declarations_file(tmp_path)
    result = run("explain", str(servers), "--live")
    assert result.returncode == 0
    assert result.stdout.splitlines()[-3:] == [
        "  live:     app_not_running",
        "            studio is not running. Start studio, then try again.",
        f"  runtime:  missing_file: runtime file {tmp_path / 'server.json'} does not exist "
        "or is not a regular file",
    ]


def test_without_live_nothing_runtime_is_shown() -> None:
    result = run(
        "explain",
        "examples/vendor-studio.yaml",
        "--host",
        "examples/hosts/windows-studio-running.yaml",
        "--json",
    )
    (entry,) = json.loads(result.stdout)
    assert "live" not in entry
    assert "example-token-never-shown" not in result.stdout


def test_a_snapshot_never_shows_its_token() -> None:
    for extra in ([], ["--json"]):
        result = run(
            "explain",
            "examples/vendor-studio.yaml",
            "--host",
            "examples/hosts/windows-studio-running.yaml",
            "--live",
            *extra,
        )
        assert result.returncode == 0
        assert "http://127.0.0.1:51234/mcp" in result.stdout
        assert "example-token-never-shown" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--probe", "--host", "examples/hosts/windows-studio-running.yaml"], "--probe contacts"),
        (["--live", "--os", "win32"], "--live evaluates this machine as it is"),
        (["--probe", "--os", "linux"], "--live evaluates this machine as it is"),
    ],
    ids=["probe-with-host", "live-with-os", "probe-with-os"],
)
def test_flags_that_do_not_go_together(flags: list[str], message: str) -> None:
    result = run("explain", "examples/vendor-studio.yaml", *flags)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
