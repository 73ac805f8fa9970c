"""Where a running application publishes its MCP endpoint (SPEC 3.1, ``liveness``)."""

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from hermes_decl.models.common import OS_FAMILIES, OsFamily
from hermes_decl.models.kinds import KindVariant
from hermes_decl.models.path_rules import ENDPOINT_PATH, KEY_NAME, RUNTIME_FILES

KeyName = Annotated[str, KEY_NAME]

DEFAULT_PID_KEY = "pid"
DEFAULT_URL_KEY = "http"
DEFAULT_TOKEN_KEY = "token"
DEFAULT_ENDPOINT_PATH = "/mcp"
RUNTIME_FILE_HELP = "The runtime file: the rules of a location path under this OS, without '*'."


class NoLiveness(KindVariant):
    """No runtime file: the server is not told where a running application listens."""

    KIND: ClassVar[str] = "none"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = OS_FAMILIES
    kind: Literal["none"] = Field(default="none", description="No runtime endpoint file.")


class StaticLiveness(KindVariant):
    """The application serves MCP without a runtime file: a fixed endpoint or a stdio server.

    There is nothing to observe, so a down connection is never blamed on the application.
    """

    KIND: ClassVar[str] = "static"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = OS_FAMILIES
    kind: Literal["static"] = Field(
        description="MCP is served without a runtime file; nothing to observe."
    )


class InteractiveSessionLiveness(KindVariant):
    """The application only works inside a logged-in desktop session (GUI automation)."""

    KIND: ClassVar[str] = "interactive_session"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = OS_FAMILIES
    kind: Literal["interactive_session"] = Field(
        description="Usable only inside a logged-in desktop session."
    )


class ServerJsonLiveness(KindVariant):
    """A JSON runtime file with the process id, URL and token of the running application."""

    KIND: ClassVar[str] = "server_json"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = OS_FAMILIES
    kind: Literal["server_json"] = Field(description="Read the endpoint from a JSON runtime file.")
    path: str = Field(description=RUNTIME_FILE_HELP)
    pid_key: KeyName = Field(default=DEFAULT_PID_KEY, description="The key holding the process id.")
    url_key: KeyName = Field(default=DEFAULT_URL_KEY, description="The key holding the server URL.")
    token_key: KeyName = Field(default=DEFAULT_TOKEN_KEY, description="The key holding the token.")
    endpoint_path: Annotated[str, ENDPOINT_PATH] = Field(
        default=DEFAULT_ENDPOINT_PATH,
        description="The path used for MCP initialize; the runtime file's own path is ignored.",
    )


class Win32ServerJsonLiveness(ServerJsonLiveness):
    """A runtime file under ``app.win32``."""

    path: Annotated[str, RUNTIME_FILES["win32"]] = Field(
        description=RUNTIME_FILE_HELP, examples=["%LOCALAPPDATA%/Vendor/McpServer/server.json"]
    )


class DarwinServerJsonLiveness(ServerJsonLiveness):
    """A runtime file under ``app.darwin``."""

    path: Annotated[str, RUNTIME_FILES["darwin"]] = Field(
        description=RUNTIME_FILE_HELP,
        examples=["~/Library/Application Support/Vendor/server.json"],
    )


class LinuxServerJsonLiveness(ServerJsonLiveness):
    """A runtime file under ``app.linux``."""

    path: Annotated[str, RUNTIME_FILES["linux"]] = Field(
        description=RUNTIME_FILE_HELP, examples=["$XDG_RUNTIME_DIR/vendor/server.json"]
    )


NO_LIVENESS = NoLiveness.model_construct()
"""The default liveness source, made without validating (see ``version.NO_VERSION``)."""

_OBSERVING_NOTHING = (NoLiveness, StaticLiveness, InteractiveSessionLiveness)

LIVENESS_VARIANTS: dict[OsFamily, tuple[type[KindVariant], ...]] = {
    "win32": (*_OBSERVING_NOTHING, Win32ServerJsonLiveness),
    "darwin": (*_OBSERVING_NOTHING, DarwinServerJsonLiveness),
    "linux": (*_OBSERVING_NOTHING, LinuxServerJsonLiveness),
}

LivenessSpec = NoLiveness | StaticLiveness | InteractiveSessionLiveness | ServerJsonLiveness
"""Any liveness source."""
