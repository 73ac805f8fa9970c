"""A small asyncio agent host, built on the official MCP Python SDK's client and hermes_decl.

It is what an integrator can copy: plugins are folders holding a portable manifest
(``plugin.json`` or ``plugin.yaml``) and declarations files (``*declarations.yaml``, ``.json``);
each plugin owns the servers it declares; a server is connected once its application has
published a live endpoint; its tools are offered through ``make_check_fn`` and skills through
``skill_matches_apps``, both reusing their availability verdict for ``max_age`` seconds; and the
Plugins tab shows ``astatus`` sentences, probed on the caller's event loop, no thread.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from hermes_decl.declaration import register_many, registered, unregister_owner
from hermes_decl.gates import make_astatus_fn, make_check_fn, skill_matches_apps
from hermes_decl.loader import load_declarations_file, load_plugin_manifest
from hermes_decl.models import Declaration
from hermes_decl.resolver.liveness import BearerToken
from hermes_decl.runtime.status import Status

MANIFEST_NAMES = ("plugin.json", "plugin.yaml")
DECLARATIONS_PATTERNS = ("*declarations.yaml", "*declarations.yml", "*declarations.json")


def plugin_declarations(folder: Path) -> dict[str, Declaration]:
    """Every server a plugin folder declares: its manifest's, then its declarations files'."""
    decls: dict[str, Declaration] = {}
    for name in MANIFEST_NAMES:
        if (folder / name).is_file():
            decls.update(load_plugin_manifest(folder / name))
    for pattern in DECLARATIONS_PATTERNS:
        for path in sorted(folder.glob(pattern)):
            decls.update(load_declarations_file(path))
    return decls


@dataclass
class _Connection:
    client: Client
    stack: AsyncExitStack


@dataclass
class PluginHost:
    """Plugins, their servers' MCP connections, and the gates over both."""

    max_age: float = 1.0
    """How long a gate may reuse an availability verdict, in seconds."""
    probe: bool = True
    """Whether a status sends MCP ``initialize`` to a running application's endpoint."""
    _connections: dict[str, _Connection] = field(default_factory=dict)
    _checks: dict[str, Callable[[], bool]] = field(default_factory=dict)
    _statuses: dict[str, Callable[[], Coroutine[Any, Any, Status]]] = field(default_factory=dict)

    def load_plugin(self, folder: Path) -> tuple[str, ...]:
        """Register a plugin's servers under its folder's name, all at once.

        A server another plugin already registered raises ``RegistrationConflict`` and
        registers nothing.
        """
        decls = plugin_declarations(folder)
        register_many(decls, owner=folder.name)
        for name in decls:
            self._checks[name] = make_check_fn(
                name, self._connection_check(name), max_age=self.max_age
            )
            self._statuses[name] = make_astatus_fn(
                name, self._connection_check(name), probe=self.probe
            )
        return tuple(decls)

    async def unload_plugin(self, owner: str) -> tuple[str, ...]:
        """Unregister a plugin's servers and close their connections."""
        names = unregister_owner(owner)
        for name in names:
            await self._disconnect(name)
            self._checks.pop(name, None)
            self._statuses.pop(name, None)
        return names

    def _connection_check(self, name: str) -> Callable[[], bool]:
        return lambda: name in self._connections

    async def refresh_connections(self) -> None:
        """Connect each server whose application publishes an endpoint; drop the others."""
        for name, current_status in self._statuses.items():
            now = await current_status()
            endpoint = now.endpoint
            if endpoint is not None and name not in self._connections:
                await self._connect(name, endpoint.url, endpoint.token)
            elif endpoint is None and name in self._connections:
                await self._disconnect(name)

    async def _connect(self, name: str, url: str, token: BearerToken | None) -> None:
        stack = AsyncExitStack()
        headers = {"Authorization": f"Bearer {token.reveal()}"} if token is not None else {}
        http = await stack.enter_async_context(httpx2.AsyncClient(headers=headers))
        client = Client(streamable_http_client(url, http_client=http), mode="legacy")
        try:
            await stack.enter_async_context(client)
        except BaseException:
            await stack.aclose()
            raise
        self._connections[name] = _Connection(client, stack)

    async def _disconnect(self, name: str) -> None:
        connection = self._connections.pop(name, None)
        if connection is not None:
            await connection.stack.aclose()

    async def tools(self) -> dict[str, tuple[str, ...]]:
        """The tools offered now, by server: only servers whose gate passes."""
        offered: dict[str, tuple[str, ...]] = {}
        for name, connection in self._connections.items():
            check = self._checks.get(name)
            if check is not None and check():
                listing = await connection.client.list_tools()
                offered[name] = tuple(tool.name for tool in listing.tools)
        return offered

    def skills(self, frontmatters: Mapping[str, Mapping[str, object]]) -> tuple[str, ...]:
        """The skills offered now: those whose ``requires_apps`` are all offerable."""
        return tuple(
            skill
            for skill, frontmatter in frontmatters.items()
            if skill_matches_apps(frontmatter, max_age=self.max_age)
        )

    async def status_lines(self) -> tuple[str, ...]:
        """One Plugins-tab line per registered server: its UI state and its sentence."""
        lines = []
        for name in sorted(registered()):
            current_status = self._statuses.get(name)
            if current_status is not None:
                now = await current_status()
                lines.append(f"{name}: {now.ui_state}: {now.sentence()}")
        return tuple(lines)

    async def close(self) -> None:
        """Close every connection."""
        for name in list(self._connections):
            await self._disconnect(name)
