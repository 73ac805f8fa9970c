"""A token the server echoes back is never shown: a server-chosen string is made printable and
shortened first, then hidden whole when it holds 8 consecutive characters of the token after
casefold and NFKC, in the ``ProbeResult``, ``--json`` and the human ``probe:`` line."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import yaml

from hermes_decl.resolver.liveness import Endpoint
from hermes_decl.resolver.probe import ECHO_WINDOW_CHARS, MAX_SHOWN_CHARS, probe
from tests.servers.loopback import answer_json, initialize_result, serve
from tests.test_cli import run

TOKEN = "tok?en?SENTINEL?ECHO-42a1"
"""A token with ``?`` in it, which the old filter could rebuild from what a server sent."""


def full_width(text: str) -> str:
    """``text`` in Unicode's full-width forms, which NFKC turns back into ASCII."""
    return "".join(chr(ord(char) + 0xFEE0) for char in text)


ECHOES: dict[str, tuple[str, str]] = {
    "zero-width-in-place-of-each-question-mark": (TOKEN.replace("?", "\u200b"), "<hidden>"),
    "the-token-itself": (TOKEN, "<hidden>"),
    "eight-characters-inside-other-text": (f"Studio {TOKEN[7:15]} edition", "<hidden>"),
    "upper-case": (f"Studio {TOKEN[7:19].upper()}", "<hidden>"),
    "full-width-forms": (f"Studio {full_width(TOKEN[8:20])}", "<hidden>"),
    "a-control-between-each-character": ("\x01".join(TOKEN[7:17]), "<hidden>"),
    "seven-characters-are-shown": (f"Studio {TOKEN[7:14]}", "Studio SENTINE"),
    "a-name-without-it-is-shown": ("Vendor Studio\x1b[2J", "Vendor Studio?[2J"),
    "past-what-is-shown": ("x" * MAX_SHOWN_CHARS + TOKEN, "x" * (MAX_SHOWN_CHARS - 1) + "…"),
}


@pytest.mark.parametrize(("name", "shown"), list(ECHOES.values()), ids=list(ECHOES))
def test_a_server_name_echoing_the_token_is_hidden_whole(name: str, shown: str) -> None:
    assert ECHO_WINDOW_CHARS == 8
    with serve(answer_json(initialize_result(name, f"v-{TOKEN.upper()}", TOKEN))) as server:
        result = probe(Endpoint(server.url, TOKEN))
    assert result.answering
    assert (result.server_name, result.server_version) == (shown, "<hidden>")
    assert result.protocol_version == "<hidden>"
    assert TOKEN not in repr(result)


def test_a_token_shorter_than_the_window_is_hidden_where_it_is_whole() -> None:
    answer = initialize_result("Studio abc?de", "abc?d", "2025-06-18")
    with serve(answer_json(answer)) as server:
        result = probe(Endpoint(server.url, "abc?de"))
    assert (result.server_name, result.server_version) == ("<hidden>", "abc?d")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
def test_the_command_line_hides_an_echoed_token_in_both_outputs(tmp_path: Path) -> None:
    block = {
        "presence": "executable",
        "location": str(tmp_path / "studio"),
        "liveness": {"kind": "server_json", "path": str(tmp_path / "server.json")},
    }
    (tmp_path / "studio").write_bytes(b"")
    os_family = "darwin" if sys.platform == "darwin" else "linux"
    servers = tmp_path / "servers.yaml"
    servers.write_text(
        yaml.safe_dump({"studio": {"app": {os_family: block}, "requires": {"app": True}}})
    )
    echoed = initialize_result(TOKEN.replace("?", "\u200b"), full_width(TOKEN[8:20]))
    with serve(answer_json(echoed)) as server:
        published = {"pid": os.getpid(), "http": f"http://127.0.0.1:{server.port}", "token": TOKEN}
        (tmp_path / "server.json").write_text(json.dumps(published))
        human = run("explain", str(servers), "--live", "--probe")
        as_json = run("explain", str(servers), "--live", "--probe", "--json")
    assert human.returncode == 0, human.stderr
    assert as_json.returncode == 0, as_json.stderr
    probe_lines = [line for line in human.stdout.splitlines() if line.startswith("  probe:")]
    assert probe_lines == [
        "  probe:    answering: <hidden> <hidden>, protocol 2025-06-18; session none opened"
    ]
    (entry,) = json.loads(as_json.stdout)
    answer = entry["live"]["probe"]
    assert (answer["outcome"], answer["server_name"], answer["server_version"]) == (
        "answering",
        "<hidden>",
        "<hidden>",
    )
    for output in (human.stdout, human.stderr, as_json.stdout, as_json.stderr):
        assert TOKEN not in output
        assert TOKEN.replace("?", "\u200b") not in output
        assert TOKEN[7:15] not in output
