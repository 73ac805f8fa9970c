"""The portable plugin manifest: its servers, a server-level liveness, ``fields``, and errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import DeclarationError
from hermes_decl.loader import load_declarations_text, load_plugin_manifest

EXTENSION = "com.nousresearch.hermes"
LINUX = {"presence": "executable", "location": "/opt/vendor/studio"}
WIN32 = {"presence": "executable", "location": "C:/Vendor/studio.exe"}
RUNTIME = {"kind": "server_json", "path": "~/.vendor/server.json"}


def manifest(servers: object, **top: Any) -> str:
    return json.dumps(
        {
            "schema": "plugin.v1",
            "name": "vendor",
            **top,
            "extensions": {EXTENSION: {"servers": servers}},
        },
        indent=2,
    )


def problems(text: str, where: str = "plugin.json") -> list[str]:
    with pytest.raises(DeclarationError) as raised:
        load_plugin_manifest(text, where=where)
    return str(raised.value).splitlines()


def test_a_server_level_liveness_is_every_os_block_s_without_one() -> None:
    text = manifest(
        {
            "vendor-studio": {
                "app": {"linux": LINUX, "win32": {**WIN32, "liveness": {"kind": "static"}}},
                "requires": {"app": True},
                "liveness": RUNTIME,
            }
        }
    )
    decls = load_plugin_manifest(text, where="plugin.json")
    app = decls["vendor-studio"].app
    assert app is not None and app.linux is not None and app.win32 is not None
    assert app.linux.liveness_kind == "server_json"
    assert app.linux.liveness_path == "~/.vendor/server.json"
    assert app.win32.liveness_kind == "static"  # the OS block's own wins
    assert decls["vendor-studio"].requires.app is True


@pytest.mark.parametrize(
    ("fields", "keys"),
    [
        (
            {"url": "endpoint", "token": "secret", "pid": "process"},
            ("endpoint", "secret", "process"),
        ),
        ({"token": "secret"}, ("http", "secret", "pid")),
        ({}, ("http", "token", "pid")),
        (None, ("http", "token", "pid")),
    ],
    ids=["all-three", "partial", "empty", "null"],
)
def test_fields_spell_the_liveness_keys(fields: object, keys: tuple[str, str, str]) -> None:
    liveness = {**RUNTIME, "fields": fields}
    for server in (
        {"app": {"linux": LINUX}, "liveness": liveness},
        {"app": {"linux": {**LINUX, "liveness": liveness}}},
    ):
        linux = load_plugin_manifest(manifest({"s": server}))["s"].app.linux  # type: ignore[union-attr]
        assert linux is not None
        assert (linux.liveness_url_key, linux.liveness_token_key, linux.liveness_pid_key) == keys


def test_a_manifest_without_servers_declares_none() -> None:
    assert load_plugin_manifest('{"schema": "plugin.v1", "name": "x"}') == {}
    assert load_plugin_manifest(json.dumps({"extensions": {"other": {}}})) == {}
    assert load_plugin_manifest(json.dumps({"extensions": {EXTENSION: {"servers": None}}})) == {}


YAML_MANIFEST = """\
schema: plugin.v1
extensions:
  com.nousresearch.hermes:
    servers:
      s:
        app:
          linux: {presence: executable, location: /opt/v/v}
          darwin: {presence: executable, location: /opt/v/v}
        requires: {app: true}
        liveness:
          kind: server_json
          path: relative/server.json
          fields: {url: u, tokn: t}
          url_key: x
"""
SERVER = 'extensions["com.nousresearch.hermes"].servers.s'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            YAML_MANIFEST,
            [
                f"plugin.yaml:12:17: {SERVER}.liveness.path: must start with /, ~ or $VAR "
                "(got 'relative/server.json')",
                f"plugin.yaml:13:25: {SERVER}.liveness.fields.url: names the same key as "
                "'url_key' beside it: write one of them",
                f"plugin.yaml:13:28: {SERVER}.liveness.fields.tokn: unknown key (did you mean "
                "'token'?)",
            ],
        ),
        (
            "extensions:\n  com.nousresearch.hermes:\n    servers:\n      s:\n"
            "        liveness: {kind: static}\n        apps: {}\n",
            [
                f"plugin.yaml:5:19: {SERVER}.liveness: applies to the OS blocks of 'app', and "
                "this server has no 'app' block",
                f"plugin.yaml:6:9: {SERVER}.apps: unknown key (did you mean 'app'?)",
            ],
        ),
        (
            "extensions:\n  com.nousresearch.hermes:\n    servers:\n      s:\n"
            "        app: {linux: {presence: executable, location: /x}}\n"
            "        liveness: {kind: server_json, path: /r.json, fields: [url]}\n",
            [
                f"plugin.yaml:6:62: {SERVER}.liveness.fields: must be a mapping with 'url', "
                "'token' or 'pid' (got ['url'])",
            ],
        ),
        (
            "extensions:\n  com.nousresearch.hermes:\n    servers:\n      s:\n"
            "        app: {linux: {presence: executable, location: /x, "
            "liveness: {kind: static, fields: {url: u}}}}\n",
            [
                f"plugin.yaml:5:84: {SERVER}.app.linux.liveness.fields: unknown key "
                "(expected 'kind')",
            ],
        ),
        (
            "extensions:\n  com.nousresearch.hermes:\n    servers: [a, b]\n",
            [
                'plugin.yaml:3:14: extensions["com.nousresearch.hermes"].servers: must be a '
                "mapping of server name to {app, requires} (got ['a', 'b'])",
            ],
        ),
    ],
    ids=[
        "shared-liveness",
        "liveness-without-app",
        "fields-not-a-mapping",
        "fields-on-static",
        "servers-not-a-mapping",
    ],
)
def test_problems_are_reported_where_the_author_wrote_them(text: str, expected: list[str]) -> None:
    assert problems(text, where="plugin.yaml") == expected


def test_a_shared_liveness_problem_is_reported_once() -> None:
    text = manifest(
        {"s": {"app": {"linux": LINUX, "darwin": LINUX}, "liveness": {"kind": "server_json"}}}
    )
    assert problems(text) == [f"plugin.json:18:11: {SERVER}.liveness.path: is required"]


def test_plain_declarations_files_stay_strict() -> None:
    text = json.dumps(
        {
            "s": {
                "app": {"linux": {**LINUX, "liveness": {**RUNTIME, "fields": {"url": "u"}}}},
                "liveness": RUNTIME,
            }
        }
    )
    with pytest.raises(DeclarationError) as raised:
        load_declarations_text(text, where="d.json")
    codes = [(issue.loc, issue.code) for issue in raised.value.issues]
    assert codes == [("s.app.linux.liveness.fields", "unknown_key"), ("s.liveness", "unknown_key")]


def test_a_manifest_is_read_from_a_path_or_text(tmp_path: Path) -> None:
    text = manifest({"s": {"app": {"linux": LINUX}, "requires": {"app": True}}})
    json_file = tmp_path / "plugin.json"
    json_file.write_text(text, encoding="utf-8")
    yaml_file = tmp_path / "plugin.yaml"
    yaml_file.write_text(text, encoding="utf-8")  # JSON is YAML too
    from_text = load_plugin_manifest(text)
    assert load_plugin_manifest(json_file) == from_text
    assert load_plugin_manifest(str(yaml_file)) == from_text
    assert load_plugin_manifest(text.encode()) == from_text
    with pytest.raises(DeclarationError) as raised:
        load_plugin_manifest(str(tmp_path / "missing.json"))
    assert raised.value.issues[0].code == "unreadable_file"
