"""Finding and reading the user's overrides file through the host (SPEC 6.3).

The file is the one ``HERMES_DECL_OVERRIDES`` names (an absolute path), else ``overrides.yaml``
in this library's folder of the user's config folder (``known_dirs.config_dir``). It is read
through the host like everything else: bounded, regular files only. Its locations for a server
are tried before the declaration's own. An invalid file never breaks a declaration: it is
ignored, and reported once per content as a warning on the ``hermes_decl`` logger.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from hermes_decl._logging import get_logger
from hermes_decl.errors import DeclarationError, Issue
from hermes_decl.hosts.protocol import Host
from hermes_decl.models import LocationSpec, OsFamily
from hermes_decl.models.override_locations import ServerOverrides
from hermes_decl.resolver.expand import expand, host_refusal, join, normalise
from hermes_decl.resolver.expand import unsafe_reason as unsafe_reason
from hermes_decl.resolver.known_dirs import config_dir

logger = get_logger(__name__)

OVERRIDES_FILE_NAME = "overrides.yaml"
"""The overrides file's name in this library's folder of the user's config folder."""

OVERRIDES_ENV = "HERMES_DECL_OVERRIDES"
"""The environment variable that names another overrides file, by its absolute path."""

MAX_OVERRIDES_BYTES = 1 << 20
"""A larger overrides file is refused (one byte more is read to tell)."""

MAX_CACHED_FILES = 16
"""Parsed overrides are kept for this many distinct file contents."""

MAX_REPORTED = 1024
"""At most this many invalid contents are remembered as already reported."""

_NAMED_MISSING = f"is not a readable regular file (named by {OVERRIDES_ENV})"

_NONE: Mapping[str, ServerOverrides] = MappingProxyType({})


@dataclass(frozen=True)
class UserOverrides:
    """The overrides that apply on a host: the file consulted, its entries, or why it is ignored."""

    path: str | None
    """The overrides file looked for; None when no place could be told (no home, say)."""
    servers: Mapping[str, ServerOverrides] = field(default_factory=lambda: _NONE)
    """Each server's extra locations; empty when the file is absent or invalid."""
    error: DeclarationError | None = None
    """Why the file was ignored (with line:column), or None."""
    refused: str | None = None
    """Why no file could be looked for, when ``path`` is None."""

    def locations(self, server: str, os_family: OsFamily) -> tuple[LocationSpec, ...]:
        """The extra places for ``server`` on ``os_family``, in order; empty when none."""
        entry = self.servers.get(server)
        return entry.for_os(os_family) if entry is not None else ()


def overrides_path(host: Host, os_family: OsFamily) -> tuple[str | None, str | None]:
    """The overrides file's path on the host and None, or None and why it cannot be told."""
    path, refused, _named = _find(host, os_family)
    return path, refused


def _find(host: Host, os_family: OsFamily) -> tuple[str | None, str | None, bool]:
    """``overrides_path``, and whether the file is the one ``HERMES_DECL_OVERRIDES`` names."""
    named = host.getenv(OVERRIDES_ENV)
    if named is not None and named.strip():
        path = named.strip()
        reason = host_refusal(path, os_family, host)
        if reason is not None:
            return None, f"{OVERRIDES_ENV}={path} {reason}", True
        return normalise(os_family, path), None, True
    folder = expand(config_dir(os_family, host.getenv), os_family, host)
    if folder.path is None:
        return None, f"the config folder {folder.refused}", False
    return join(os_family, folder.path, OVERRIDES_FILE_NAME), None, False


def user_overrides(host: Host, os_family: OsFamily) -> UserOverrides:
    """The overrides on ``host`` for ``os_family``: read, parsed (once per content) and checked."""
    path, refused, named = _find(host, os_family)
    if path is None:
        return UserOverrides(None, refused=refused)
    data = host.read_file(path, MAX_OVERRIDES_BYTES + 1)
    if data is None:
        if not named:
            return UserOverrides(path)  # no file in the usual place: nothing to apply
        return UserOverrides(path, error=_refuse(path, b"", "unreadable_file", _NAMED_MISSING))
    if len(data) > MAX_OVERRIDES_BYTES:
        message = f"is too large to read (more than {MAX_OVERRIDES_BYTES} bytes)"
        return UserOverrides(path, error=_refuse(path, data, "too_large", message))
    servers, error = _parsed(path, data)
    return UserOverrides(path, servers if error is None else _NONE, error)


class _ParsedCache:
    """Parsed overrides by (path, content digest), the most recent ``MAX_CACHED_FILES``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[
            tuple[str, bytes], tuple[Mapping[str, ServerOverrides], DeclarationError | None]
        ] = OrderedDict()
        self._reported: OrderedDict[tuple[str, bytes], None] = OrderedDict()

    def get(
        self, key: tuple[str, bytes]
    ) -> tuple[Mapping[str, ServerOverrides], DeclarationError | None] | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(
        self,
        key: tuple[str, bytes],
        value: tuple[Mapping[str, ServerOverrides], DeclarationError | None],
    ) -> None:
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > MAX_CACHED_FILES:
                self._entries.popitem(last=False)

    def first_report(self, key: tuple[str, bytes]) -> bool:
        """Whether this content of this file has not been reported yet (and now counts as so)."""
        with self._lock:
            if key in self._reported:
                return False
            self._reported[key] = None
            while len(self._reported) > MAX_REPORTED:
                self._reported.popitem(last=False)
            return True

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._reported.clear()


_CACHE = _ParsedCache()


def clear_overrides_cache() -> None:
    """Forget parsed files and which invalid ones were reported (between tests, say)."""
    _CACHE.clear()


def _parsed(
    path: str, data: bytes
) -> tuple[Mapping[str, ServerOverrides], DeclarationError | None]:
    key = (path, hashlib.sha256(data).digest())
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    # The YAML reader, only once there is text.
    from hermes_decl.overrides_text import parse_overrides

    try:
        result: tuple[Mapping[str, ServerOverrides], DeclarationError | None] = (
            MappingProxyType(parse_overrides(data, where=path)),
            None,
        )
    except DeclarationError as error:
        result = (_NONE, error)
        _report_once(path, data, error)
    _CACHE.put(key, result)
    return result


def _refuse(path: str, data: bytes, code: str, message: str) -> DeclarationError:
    error = DeclarationError(path, [Issue("", code, message)])
    _report_once(path, data, error)
    return error


def _report_once(path: str, data: bytes, error: DeclarationError) -> None:
    if _CACHE.first_report((path, hashlib.sha256(data).digest())):
        logger.warning("the overrides file %s is ignored:\n%s", path, error)
