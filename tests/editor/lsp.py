"""A minimal Language Server Protocol client over stdio, to drive yaml-language-server in tests.

It speaks JSON-RPC with ``Content-Length`` framing, answers the server's own requests (settings
come from ``settings``; anything else gets ``null``), and never waits without a deadline: every
wait raises ``TimeoutError`` after ``timeout`` seconds.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from tests.process_starts import popen_started

Message = dict[str, Any]


@dataclass(frozen=True)
class Diagnostic:
    """One published diagnostic: 1-based line and column of its start, and its message."""

    line: int
    column: int
    message: str


class LanguageServer:
    """A language server process and the messages it sends, read by a background thread."""

    def __init__(
        self, command: Sequence[str], settings: Mapping[str, Any], *, timeout: float = 30.0
    ) -> None:
        self.settings = settings
        self.timeout = timeout
        self._process = popen_started(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._inbox: queue.Queue[Message | None] = queue.Queue()
        self._next_id = 0
        self._versions: dict[str, int] = {}
        assert self._process.stdout is not None
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()

    # --- framing -------------------------------------------------------------------------------

    def _read(self, stream: BinaryIO) -> None:
        try:
            while True:
                length = -1
                while True:
                    header = stream.readline()
                    if not header:
                        return
                    header = header.strip()
                    if not header:
                        break
                    name, _, value = header.decode("ascii").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                self._inbox.put(json.loads(stream.read(length)))
        finally:
            self._inbox.put(None)

    def _send(self, message: Message) -> None:
        body = json.dumps(message).encode("utf-8")
        stdin = self._process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        stdin.flush()

    def _answer(self, request: Message) -> None:
        result: object = None
        if request["method"] == "workspace/configuration":
            result = [
                self.settings.get(item.get("section", "")) for item in request["params"]["items"]
            ]
        self._send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def _wait(self, wanted: Callable[[Message], bool]) -> Message:
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer from the language server in {self.timeout} s")
            try:
                message = self._inbox.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise EOFError("the language server exited")
            if "method" in message and "id" in message:
                self._answer(message)
            elif wanted(message):
                return message

    def request(self, method: str, params: object) -> Any:
        """Send a request and return its result."""
        self._next_id += 1
        identity = self._next_id
        self._send({"jsonrpc": "2.0", "id": identity, "method": method, "params": params})
        reply = self._wait(
            lambda message: message.get("id") == identity and "method" not in message
        )
        if "error" in reply:
            raise RuntimeError(f"{method} failed: {reply['error']}")
        return reply.get("result")

    def notify(self, method: str, params: object) -> None:
        """Send a notification (no answer expected)."""
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    # --- the calls a test makes ----------------------------------------------------------------

    def initialize(self, root: Path) -> Any:
        """The LSP handshake, then the settings, as an editor sends them."""
        capabilities = {
            "textDocument": {
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "completion": {
                    "completionItem": {
                        "snippetSupport": True,
                        "documentationFormat": ["markdown", "plaintext"],
                    }
                },
                "publishDiagnostics": {"versionSupport": True},
            },
            "workspace": {"configuration": True, "didChangeConfiguration": {}},
        }
        result = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "capabilities": capabilities,
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            },
        )
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": self.settings})
        return result

    def open(self, uri: str, text: str) -> list[Diagnostic]:
        """Open a document and wait for the diagnostics published for this version of it."""
        version = self._versions.get(uri, 0) + 1
        self._versions[uri] = version
        if version == 1:
            document = {"uri": uri, "languageId": "yaml", "version": version, "text": text}
            self.notify("textDocument/didOpen", {"textDocument": document})
        else:
            self.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": text}],
                },
            )

        def published(message: Message) -> bool:
            params = message.get("params") or {}
            return (
                message.get("method") == "textDocument/publishDiagnostics"
                and params.get("uri") == uri
                and params.get("version", version) == version
            )

        params = self._wait(published)["params"]
        return [
            Diagnostic(
                item["range"]["start"]["line"] + 1,
                item["range"]["start"]["character"] + 1,
                item["message"],
            )
            for item in params["diagnostics"]
        ]

    def hover(self, uri: str, line: int, column: int) -> str:
        """The hover text at a 1-based position ('' when there is none)."""
        position = {"line": line - 1, "character": column - 1}
        result = self.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": position}
        )
        if not result:
            return ""
        contents = result["contents"]
        return str(contents["value"] if isinstance(contents, dict) else contents)

    def completion(self, uri: str, line: int, column: int) -> list[Message]:
        """The completion items offered at a 1-based position."""
        position = {"line": line - 1, "character": column - 1}
        result = self.request(
            "textDocument/completion", {"textDocument": {"uri": uri}, "position": position}
        )
        if result is None:
            return []
        items = result["items"] if isinstance(result, dict) else result
        return list(items)

    def close(self) -> None:
        """Shut the server down politely, then make sure the process is gone."""
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self._process.wait(timeout=5)
        except (TimeoutError, EOFError, OSError, RuntimeError, subprocess.TimeoutExpired):
            pass
        finally:
            if self._process.poll() is None:
                self._process.kill()
                self._process.wait(timeout=5)
            for stream in (self._process.stdin, self._process.stdout):
                if stream is not None:
                    stream.close()
