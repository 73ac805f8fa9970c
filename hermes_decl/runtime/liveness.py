"""Reading where a running application serves MCP: its ``server_json`` runtime file (SPEC 3.1).

``read_endpoint(app_def)`` expands the declaration's ``liveness.path`` like a location path (SPEC
6.2), reads at most ``MAX_RUNTIME_FILE_BYTES`` of it through the host (regular files only, so a
FIFO or device never blocks), parses it as strict JSON and answers either an ``Endpoint`` (the URL
to ``initialize`` and the token) or a ``NoEndpoint`` saying why there is none. It trusts nothing
in the file:

- the process id must be an ``int`` (not a bool) in ``1..MAX_PID`` naming a live process, asked
  through the host seam (``Host.process_alive``), owned by the host's own user and, on Windows,
  in the host's own session (``Host.process_info``, ``Host.own_process``; a zombie is not
  live); and the file must not be older than that process (its modification time from the
  ``fstat`` of the descriptor it was read from, ``Host.read_file_facts``, with
  ``START_TIME_SLACK_S`` for clocks and file systems that round): a stale file whose process id
  was reused by another program is refused, and so is a file whose process cannot be checked
  (its owner, session or start time unreadable), with a code of its own, as nothing then says
  the application is not running;
- the file must be this user's and writable by no one else, and no folder above it writable by
  others unless sticky, nor another user's (``runtime.publisher``): anyone can write a file
  naming this user's live process and a port of their own;
- the URL must be plain ``http`` with no userinfo, a loopback host (``127.0.0.1``, ``localhost``
  or ``[::1]``) and a numeric port; its path, query and fragment are ignored, and the URL used is
  ``http://host:port`` + the declaration's ``endpoint_path``, split again and checked to still
  name that host and port;
- the token, when present, is a string of visible ASCII, held as a ``BearerToken``: it never
  appears in a ``repr``, ``str``, copy, pickle, ``dataclasses.asdict``, reason, log record or
  exception, and only ``Endpoint.token.reveal()`` gives its text; the file's bytes and parsed
  document live only in the call that parses them and wraps the token, so no frame local holds
  its text once the host is asked anything else. No value read from the file is ever echoed,
  only the process id once it is known to be a number.

A missing token (absent or ``null``) or an empty one gives ``Endpoint.token is None``: servers
that run without authentication write it that way. A block for another OS family than the host's,
or one whose token key is also its pid or URL key, is refused without asking the host anything.

Availability (SPEC 8) never calls this reader; it is for a host about to connect to a running
application.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import SplitResult, urlsplit

from hermes_decl._logging import get_logger
from hermes_decl._text_enum import TextEnum
from hermes_decl.hosts.default import default_host
from hermes_decl.hosts.protocol import MAX_PID, FileRead, Host
from hermes_decl.models import AppDef
from hermes_decl.resolver.expand import expand
from hermes_decl.runtime.bearer_token import BearerToken
from hermes_decl.runtime.publisher import publisher_problem

__all__ = [
    "LOOPBACK_HOSTS",
    "MAX_INT_DIGITS",
    "MAX_PID",
    "MAX_RUNTIME_FILE_BYTES",
    "MAX_TOKEN_CHARS",
    "MAX_URL_CHARS",
    "START_TIME_SLACK_S",
    "BearerToken",
    "Endpoint",
    "NoEndpoint",
    "NoEndpointCode",
    "endpoint_target",
    "read_endpoint",
    "usable_token",
]

logger = get_logger("hermes_decl.resolver.liveness")  # the name hosts configure, kept

MAX_RUNTIME_FILE_BYTES = 64 * 1024
"""A runtime file longer than this is refused (one byte more is read to tell)."""

MAX_URL_CHARS = 2048
"""A URL longer than this is refused before it is parsed."""

MAX_TOKEN_CHARS = 4096
"""A token longer than this is refused."""

MAX_INT_DIGITS = 64
"""A JSON integer with more digits than this makes the file unreadable (parsing stays linear)."""

START_TIME_SLACK_S = 2.0
"""A runtime file may look this many seconds older than its process and still be its own: process
start times and file times are rounded (whole seconds on some file systems, clock ticks in
``/proc``), and a reused process id starts long after the stale file was written."""

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""The only hosts an endpoint may name: nothing read from a file may point off this machine."""

_VISIBLE_ASCII = frozenset(chr(code) for code in range(0x21, 0x7F))
"""Characters a URL or token may contain: no space, control, or non-ASCII character."""

_HIDDEN = "<hidden>"


class NoEndpointCode(TextEnum):
    """Why there is no endpoint, as a stable code (a ``str``, so ``code == "dead_process"``)."""

    NO_LIVENESS = "no_liveness"
    """The declaration has no ``server_json`` liveness source."""
    PATH_REFUSED = "path_refused"
    """The runtime file's path could not be expanded safely; nothing was touched."""
    MISSING_FILE = "missing_file"
    """There is no regular file at the path (absent, a directory, a FIFO, unreadable)."""
    FILE_TOO_LARGE = "file_too_large"
    """The file is longer than ``MAX_RUNTIME_FILE_BYTES``."""
    BAD_JSON = "bad_json"
    """The file is not one strict JSON object."""
    OTHER_OS = "other_os"
    """The declaration's block is for another OS family than the host's."""
    KEYS_OVERLAP = "keys_overlap"
    """The declaration reads the token from the same key as the pid or URL."""
    BAD_PID = "bad_pid"
    """The process id is missing, not an integer, or out of range."""
    BAD_URL = "bad_url"
    """The URL is missing or not plain ``http`` to a loopback host and numeric port."""
    BAD_TOKEN = "bad_token"
    """The token is not a string of visible ASCII of bounded length."""
    DEAD_PROCESS = "dead_process"
    """The process that wrote the file is not running (a stale file)."""
    OTHER_USER = "other_user"
    """The process belongs to another user, or runs in another session."""
    STALE_FILE = "stale_file"
    """The file is older than the process it names: an earlier process wrote it, the id was
    reused."""
    UNTRUSTED_FILE = "untrusted_file"
    """The file, or a folder above it, belongs to another user or can be written by one (or its
    owner cannot be read): another user may have published it, naming this user's process."""
    UNCHECKED_PROCESS = "unchecked_process"
    """The process is alive, but its owner, session or start (or this host's own user) could not
    be read, or the file cannot be dated: the file is not trusted, yet nothing shows that the
    application is not running."""


@dataclass(frozen=True, init=False)
class Endpoint:
    """A running application's MCP endpoint: the loopback URL to use and its token (never shown)."""

    url: str
    """``http://<loopback host>:<port><endpoint_path>``, built from checked parts."""
    token: BearerToken | None
    """The token from the runtime file (a ``str`` given is wrapped), or None when it has none;
    only ``token.reveal()`` gives its text."""
    pid: int | None = field(default=None, compare=False)
    """The process that published the endpoint, when it came from a runtime file."""
    path: str | None = field(default=None, compare=False)
    """The runtime file it came from."""

    def __init__(
        self,
        url: str,
        token: BearerToken | str | None,
        pid: int | None = None,
        path: str | None = None,
    ) -> None:
        wrapped = BearerToken(token) if isinstance(token, str) else token
        object.__setattr__(self, "url", url)
        object.__setattr__(self, "token", wrapped)
        object.__setattr__(self, "pid", pid)
        object.__setattr__(self, "path", path)

    def __repr__(self) -> str:
        token = None if self.token is None else _HIDDEN
        return f"Endpoint(url={self.url!r}, token={token})"

    __str__ = __repr__


@dataclass(frozen=True)
class NoEndpoint:
    """Why a declaration yields no endpoint now; ``reason`` is a sentence, ``code`` is stable."""

    reason: str
    code: NoEndpointCode
    path: str | None = None
    """The expanded runtime file path, when expansion succeeded."""


class _BadJson(ValueError):
    """Raised inside parsing for what strict JSON refuses (never leaves this module)."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build a JSON object, refusing a key that appears twice (which value wins is ambiguous)."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _BadJson("duplicate key")
        result[key] = value
    return result


def _no_constant(_name: str) -> Any:
    """Refuse ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON."""
    raise _BadJson("not a JSON constant")


def _bounded_int(text: str) -> int:
    """A JSON integer, refusing one longer than ``MAX_INT_DIGITS`` digits."""
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _BadJson("integer too long")
    return int(text)


def _parse_object(data: bytes) -> dict[str, Any] | None:
    """The runtime file as a JSON object, or None when it is not strict JSON or not an object.

    Strict: UTF-8 (a BOM allowed), UTF-16 or UTF-32 as JSON detects it, no duplicate key in any
    object, no ``NaN``/``Infinity``, integers of at most ``MAX_INT_DIGITS`` digits, nothing after
    the value. Nesting depth is bounded by the file size and Python's recursion limit.
    """
    try:
        text = data.decode(json.detect_encoding(data))
        value = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constant,
            parse_int=_bounded_int,
        )
    except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError, _BadJson …
        return None
    return value if isinstance(value, dict) else None


def _checked_pid(value: object) -> int | None:
    """The process id when it is an ``int`` (not a bool) in ``1..MAX_PID``, else None."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PID:
        return None
    return value


def _visible_ascii(text: str) -> bool:
    """Whether ``text`` has only visible ASCII characters (so nothing can hide or split it)."""
    return all(char in _VISIBLE_ASCII for char in text)


def _loopback_host_port(parts: SplitResult) -> tuple[str, int] | None:
    """The loopback host and port a split ``http`` URL names exactly, or None."""
    if parts.scheme != "http" or "@" in parts.netloc:
        return None
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is not a number in 0..65535
        return None
    if host not in LOOPBACK_HOSTS or port is None or not 1 <= port <= 65535:
        return None
    # The netloc must be exactly host:port: no unbracketed IPv6, zone id, leading zeros or '+'.
    if parts.netloc.lower() != f"{_url_host(host)}:{port}":
        return None
    return host, port


def _url_host(host: str) -> str:
    """A host as written in a URL: IPv6 addresses in brackets."""
    return f"[{host}]" if ":" in host else host


def _endpoint_url(raw: object, endpoint_path: str) -> str | None:
    """The URL to use, from the file's URL and the declared path, or None when it is unsafe."""
    if not isinstance(raw, str) or not raw or len(raw) > MAX_URL_CHARS:
        return None
    if not _visible_ascii(raw):
        return None  # urlsplit silently drops tabs and newlines; never let it
    try:
        found = _loopback_host_port(urlsplit(raw))
    except ValueError:  # e.g. an unbalanced '[' in the netloc
        return None
    if found is None:
        return None
    host, port = found
    url = f"http://{_url_host(host)}:{port}{endpoint_path}"
    if not _visible_ascii(url):
        return None
    try:
        rebuilt = urlsplit(url)
        still = _loopback_host_port(rebuilt)
    except ValueError:
        return None
    if still != (host, port) or rebuilt.path != endpoint_path or rebuilt.query or rebuilt.fragment:
        return None
    return url


def endpoint_target(url: str) -> tuple[str, int, str] | None:
    """The loopback host, port and path an endpoint URL names, or None when it is not one
    ``read_endpoint`` could have built (plain ``http``, a loopback host, a numeric port, a plain
    path without query or fragment)."""
    if not isinstance(url, str) or len(url) > MAX_URL_CHARS or not _visible_ascii(url):
        return None
    try:
        parts = urlsplit(url)
        found = _loopback_host_port(parts)
    except ValueError:
        return None
    if found is None or not parts.path.startswith("/") or parts.query or parts.fragment:
        return None
    if url != f"http://{_url_host(found[0])}:{found[1]}{parts.path}":
        return None
    return found[0], found[1], parts.path


def usable_token(token: object) -> bool:
    """Whether a token may go into a header: None, or visible ASCII of bounded length (a plain
    ``str`` or a ``BearerToken`` that was not withheld)."""
    if isinstance(token, BearerToken):
        return token.is_header_safe and len(token) <= MAX_TOKEN_CHARS
    return token is None or (
        isinstance(token, str) and 0 < len(token) <= MAX_TOKEN_CHARS and _visible_ascii(token)
    )


def _wrapped_token(raw: object) -> tuple[bool, BearerToken | None]:
    """Whether the token is acceptable, and the token wrapped (None when absent, null or empty),
    so the raw text lives no longer than this call."""
    if raw is None or raw == "":
        return True, None
    if not isinstance(raw, str) or len(raw) > MAX_TOKEN_CHARS or not _visible_ascii(raw):
        return False, None
    return True, BearerToken(raw)


@dataclass(frozen=True)
class _Published:
    """What a runtime file holds under the declared keys, its token already wrapped, and the
    facts of the descriptor it was read from without its bytes: no raw text of the token."""

    pid: object
    url: object
    token_ok: bool
    token: BearerToken | None
    facts: FileRead


def _published(host: Host, path: str, app_def: AppDef) -> _Published | tuple[NoEndpointCode, str]:
    """The runtime file at ``path`` read and parsed, or why it cannot be.

    The file's bytes and parsed document, which hold the token's text, live only in this call,
    and nothing but parsing runs while they do: every later host call, which a host may make
    fail, sees the token as a ``BearerToken`` only.
    """
    read = host.read_file_facts(path, MAX_RUNTIME_FILE_BYTES + 1)
    if read is None:
        return NoEndpointCode.MISSING_FILE, "does not exist or is not a regular file"
    if len(read.data) > MAX_RUNTIME_FILE_BYTES:
        return NoEndpointCode.FILE_TOO_LARGE, f"is larger than {MAX_RUNTIME_FILE_BYTES} bytes"
    document = _parse_object(read.data)
    if document is None:
        return (
            NoEndpointCode.BAD_JSON,
            "is not a JSON object (strict JSON: no duplicate keys, NaN or Infinity)",
        )
    token_ok, token = _wrapped_token(document.get(app_def.liveness_token_key))
    return _Published(
        document.get(app_def.liveness_pid_key),
        document.get(app_def.liveness_url_key),
        token_ok,
        token,
        replace(read, data=b""),
    )


def read_endpoint(app_def: AppDef, *, host: Host | None = None) -> Endpoint | NoEndpoint:
    """The endpoint a running application publishes in its runtime file, or why there is none.

    Never raises because of what it finds on the host, and never echoes a value from the file
    (see the module docstring for every rule).
    """
    result = _read(app_def, host if host is not None else default_host())
    if isinstance(result, NoEndpoint):
        logger.debug("%s: no endpoint (%s): %s", app_def.app_id, result.code, result.reason)
    else:
        logger.debug("%s: endpoint %s", app_def.app_id, result.url)
    return result


def _read(app_def: AppDef, host: Host) -> Endpoint | NoEndpoint:
    """``read_endpoint`` without the logging."""
    template = app_def.liveness_path
    if app_def.liveness_kind != "server_json" or template is None:
        return NoEndpoint(
            "the declaration has no server_json liveness source", NoEndpointCode.NO_LIVENESS
        )
    if app_def.os_family != host.os_family:
        host_os = host.os_family or "none of win32, darwin and linux"
        return NoEndpoint(
            f"the declaration's block is for {app_def.os_family} but the host is {host_os}",
            NoEndpointCode.OTHER_OS,
        )
    token_key = app_def.liveness_token_key
    if token_key in (app_def.liveness_pid_key, app_def.liveness_url_key):
        return NoEndpoint(
            f"the token key {token_key!r} is also the pid or URL key, so the token could leak",
            NoEndpointCode.KEYS_OVERLAP,
        )
    expansion = expand(template, app_def.os_family, host)
    path = expansion.path
    if path is None:
        return NoEndpoint(f"runtime file path {expansion.refused}", NoEndpointCode.PATH_REFUSED)

    def no(code: NoEndpointCode, what: str) -> NoEndpoint:
        return NoEndpoint(f"runtime file {path} {what}", code, path)

    published = _published(host, path, app_def)
    if isinstance(published, tuple):
        return no(*published)
    pid_key, url_key = app_def.liveness_pid_key, app_def.liveness_url_key
    pid = _checked_pid(published.pid)
    if pid is None:
        return no(
            NoEndpointCode.BAD_PID, f"has no process id under {pid_key!r} (an integer 1..{MAX_PID})"
        )
    url = _endpoint_url(published.url, app_def.endpoint_path)
    if url is None:
        return no(
            NoEndpointCode.BAD_URL,
            f"has no usable URL under {url_key!r} "
            "(plain http to 127.0.0.1, localhost or [::1] with a numeric port, no userinfo)",
        )
    if not published.token_ok:
        return no(
            NoEndpointCode.BAD_TOKEN,
            f"has an unusable token under {token_key!r} "
            f"(a string of at most {MAX_TOKEN_CHARS} visible ASCII characters)",
        )
    if not host.process_alive(pid):
        return no(NoEndpointCode.DEAD_PROCESS, f"names process {pid}, which is not running")
    problem = _process_problem(host, pid, path, published.facts)
    if problem is not None:
        return no(*problem)
    return Endpoint(url, published.token, pid=pid, path=path)


def _process_problem(
    host: Host, pid: int, path: str, read: FileRead
) -> tuple[NoEndpointCode, str] | None:
    """Why the live process ``pid`` and this host's user did not publish the runtime file at
    ``path``, which was ``read``."""
    info = host.process_info(pid)
    if info is None:
        return NoEndpointCode.DEAD_PROCESS, f"names process {pid}, which is not running"
    unchecked = NoEndpointCode.UNCHECKED_PROCESS
    if info.user is None:
        return unchecked, f"names process {pid}, whose owner could not be read"
    own = host.own_process()
    if own.user is None:
        return unchecked, f"names process {pid}, but this host's user is unknown"
    if info.user != own.user:
        return NoEndpointCode.OTHER_USER, f"names process {pid}, which belongs to another user"
    if own.session is not None and info.session is None:
        return unchecked, f"names process {pid}, whose session could not be read"
    if own.session is not None and info.session != own.session:
        return NoEndpointCode.OTHER_USER, f"names process {pid}, which runs in another session"
    written = read.mtime
    if info.started is None or written is None:
        return unchecked, f"names process {pid}, but the file or the process start cannot be dated"
    if written < info.started - START_TIME_SLACK_S:
        return (
            NoEndpointCode.STALE_FILE,
            f"is older than process {pid}, so an earlier process wrote it and the id was reused",
        )
    untrusted = publisher_problem(read, host.folders_above(path), own.user)
    if untrusted is not None:
        return NoEndpointCode.UNTRUSTED_FILE, untrusted
    return None
