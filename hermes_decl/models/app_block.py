"""The ``app`` block: one frozen ``AppDef`` per OS family (SPEC 3.1)."""

from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import Field, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from hermes_decl._text import choices, did_you_mean
from hermes_decl.models import text_rules
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import (
    OS_FAMILIES,
    PRESENCE_MEANINGS,
    Meanings,
    OsFamily,
    Presence,
    fail,
)
from hermes_decl.models.editor_schema import TYPED, add_rule, refusal
from hermes_decl.models.install import InstallHint, hint_list
from hermes_decl.models.kinds import kind_union
from hermes_decl.models.liveness_sources import (
    DEFAULT_ENDPOINT_PATH,
    DEFAULT_PID_KEY,
    DEFAULT_TOKEN_KEY,
    DEFAULT_URL_KEY,
    LIVENESS_VARIANTS,
    NO_LIVENESS,
    LivenessSpec,
    ServerJsonLiveness,
)
from hermes_decl.models.locations import LocationSpec, location_list
from hermes_decl.models.rule_object import (
    Derivation,
    InnerRule,
    Node,
    Renderer,
    RuleObject,
    TopRule,
    renders,
)
from hermes_decl.models.version import (
    NO_VERSION,
    VERSION_VARIANTS,
    UninstallRegistryVersion,
    VersionKind,
    VersionSpec,
)

APP_ID_CONTEXT_KEY = "app_id"
"""The validation-context key that carries the declaration's name into each ``AppDef``."""


class OneOf(InnerRule):
    """A check that a value is one of a few strings, worded for authors; the ``Literal`` it
    guards says the same to JSON Schema and to the fast schema."""

    options: tuple[str, ...]

    def check(self, value: Any) -> Any:
        """The value, when it is one of the options."""
        if value not in self.options if isinstance(value, str) else True:
            code = "invalid_choice" if isinstance(value, str) else "wrong_type"
            suggestion = did_you_mean(value, self.options)
            hint = f"did you mean {suggestion!r}?" if suggestion else None
            fail(code, f"must be {choices(self.options)}", value, hint=hint)
        return value


def one_of(options: tuple[str, ...]) -> OneOf:
    """A check that a value is one of a few strings, worded for authors."""
    return OneOf(options)


LOCATION_HELP = (
    "Where to look, in order: a path, a location-kind mapping, or a non-empty list of them; "
    "the first place where the application is present wins."
)
NO_OS_BLOCK = f"must declare at least one of {choices(OS_FAMILIES)}"
"""What is said of an ``app`` block without any OS block."""
VERSION_HELP = "Where to read the installed version; kind 'none' (the default) reads none."
LIVENESS_HELP = "Where the running application publishes its MCP endpoint; default none."
MIN_OS_VERSION_HELP = (
    "The lowest OS version the application runs on, dotted numeric ('13.0' on macOS, "
    "'10.0.19041' on Windows); an older OS is unsupported_os_version. Language 1.1."
)
INSTALL_HELP = (
    "How a person installs the application here: one hint or a list, such as "
    "{winget: Vendor.Studio} or {url: https://...}; the first is shown when the application "
    "is missing or too old. Text for people, never executed. Language 1.1."
)
DISPLAY_NAME_HELP = (
    "The application's name as people know it ('Vendor Studio'), used by every sentence when "
    "the caller gives no name: plain text, 1-80 characters. Language 1.1."
)
LINUX_MIN_OS_VERSION_HELP = (
    "Not accepted under app.linux: Linux distributions share no OS version to compare against."
)

MinOsVersion = Annotated[str, text_rules.MIN_OS_VERSION]


MIN_OS_VERSION_LINUX = (
    "is not accepted under app.linux: Linux distributions share no OS version to compare "
    "against; set it under app.win32 or app.darwin"
)
"""What is said of a ``min_os_version`` under ``linux``."""


class _NoOsVersionOnLinux(RuleObject):
    """``min_os_version`` under ``linux``: any value is refused, saying why (only null, which
    means absent, passes)."""

    def check(self, value: Any) -> Any:
        """Refuse any value."""
        fail("min_os_version_linux", MIN_OS_VERSION_LINUX, value)

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        return {TYPED: True, "allOf": [refusal(MIN_OS_VERSION_LINUX)]}

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        """Refused here, explained by the explaining schema."""
        return core_schema.str_schema(pattern="^$", min_length=1)


BUNDLE_ON_LINUX = (
    "must be 'executable' under app.linux: a bundle is a macOS application folder "
    "(Something.app), which Linux does not have"
)
"""What is said of ``presence: bundle`` under ``linux``."""

BUNDLE_ON_WIN32 = (
    "must be 'executable' under app.win32: a bundle is a macOS application folder "
    "(Something.app), which Windows does not have"
)
"""What is said of ``presence: bundle`` under ``win32``."""


class _NoBundle(RuleObject):
    """``presence`` under an OS without bundles: ``bundle`` is refused, saying why (after the
    choice itself is checked, so a misspelt presence is still told its choices)."""

    code: str
    message: str

    MODE = "after"

    def check(self, value: Any) -> Any:
        """The presence, unless it is ``bundle``."""
        if value == "bundle":
            fail(self.code, self.message, value)
        return value

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        generated = renderer.generate_inner(schema["schema"])
        add_rule(
            generated,
            {"$comment": self.code, "if": {"const": "bundle"}, "then": refusal(self.message)},
        )
        return generated

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        """The block's bundle variant is refused here, explained by the explaining schema."""
        if presence == "bundle":
            return core_schema.str_schema(pattern="^$", min_length=1)
        return derivation.node(schema["schema"], presence)


LinuxPresence = Annotated[
    Presence,
    one_of(("executable", "bundle")),
    Meanings(PRESENCE_MEANINGS),
    _NoBundle("bundle_on_linux", BUNDLE_ON_LINUX),
]
Win32Presence = Annotated[
    Presence,
    one_of(("executable", "bundle")),
    Meanings(PRESENCE_MEANINGS),
    _NoBundle("bundle_on_windows", BUNDLE_ON_WIN32),
]
_NO_BUNDLE_PRESENCES: dict[OsFamily, Any] = {"win32": Win32Presence, "linux": LinuxPresence}
"""The ``presence`` of each OS block that has no bundles."""


class AppDef(FrozenModel):
    """How to find, version and reach the application on one OS family."""

    os_family: ClassVar[OsFamily]
    presence: Annotated[Presence, one_of(("executable", "bundle")), Meanings(PRESENCE_MEANINGS)] = (
        Field(description="What the application is on disk: a regular file or a bundle folder.")
    )
    locations: tuple[LocationSpec, ...] = Field(alias="location", description=LOCATION_HELP)
    version: VersionSpec = Field(default=NO_VERSION, description=VERSION_HELP)
    liveness: LivenessSpec = Field(default=NO_LIVENESS, description=LIVENESS_HELP)
    min_os_version: MinOsVersion | None = Field(
        default=None, description=MIN_OS_VERSION_HELP, examples=["13.0"]
    )
    install: tuple[InstallHint, ...] | None = Field(default=None, description=INSTALL_HELP)

    def model_post_init(self, context: Any) -> None:
        # The name is not input: it rides in the validation context and is kept beside the
        # fields, where pydantic keeps private state (declaring a PrivateAttr costs far more).
        app_id = context.get(APP_ID_CONTEXT_KEY) if type(context) is dict else None
        object.__setattr__(self, "__pydantic_private__", {"app_id": app_id or ""})

    @property
    def app_id(self) -> str:
        """The declaration's name (the configured server name)."""
        private = self.__pydantic_private__
        return str(private.get("app_id", "")) if private else ""

    @property
    def version_kind(self) -> VersionKind:
        """The version source's kind: none, pe_resource, plist or uninstall_registry."""
        return self.version.kind

    @property
    def version_display_name_prefix(self) -> str | None:
        """The uninstall-entry prefix for ``uninstall_registry`` versions, else None."""
        if isinstance(self.version, UninstallRegistryVersion):
            return self.version.display_name_prefix
        return None

    @property
    def version_arg(self) -> str | None:
        """``version_display_name_prefix`` by the name SPEC gives it."""
        return self.version_display_name_prefix

    @property
    def liveness_kind(self) -> str:
        """The liveness source's kind: none, static, interactive_session or server_json."""
        return self.liveness.kind

    @property
    def liveness_path(self) -> str | None:
        """The runtime file's path (unexpanded), or None without a liveness source."""
        return self.liveness.path if isinstance(self.liveness, ServerJsonLiveness) else None

    @property
    def liveness_pid_key(self) -> str:
        """The runtime file's key for the process id."""
        live = self.liveness
        return live.pid_key if isinstance(live, ServerJsonLiveness) else DEFAULT_PID_KEY

    @property
    def liveness_url_key(self) -> str:
        """The runtime file's key for the server URL."""
        live = self.liveness
        return live.url_key if isinstance(live, ServerJsonLiveness) else DEFAULT_URL_KEY

    @property
    def liveness_token_key(self) -> str:
        """The runtime file's key for the token."""
        live = self.liveness
        return live.token_key if isinstance(live, ServerJsonLiveness) else DEFAULT_TOKEN_KEY

    @property
    def endpoint_path(self) -> str:
        """The path used for MCP ``initialize``."""
        live = self.liveness
        return live.endpoint_path if isinstance(live, ServerJsonLiveness) else DEFAULT_ENDPOINT_PATH


def _version(os_family: OsFamily) -> Any:
    return kind_union(os_family, VERSION_VARIANTS, default_kind="none", wrong_os_at_kind=True)


def _liveness(os_family: OsFamily) -> Any:
    return kind_union(
        os_family, LIVENESS_VARIANTS[os_family], default_kind="none", wrong_os_at_kind=True
    )


_OS_NAMES: dict[OsFamily, str] = {"win32": "Windows", "darwin": "macOS", "linux": "Linux"}


def _app_def_for(os_family: OsFamily) -> type[AppDef]:
    """The ``AppDef`` of one OS block: its location kinds, version and liveness sources and
    install hints are those valid under ``os_family``; under ``linux`` no ``min_os_version``."""

    class OsAppDef(AppDef):
        locations: location_list(os_family) = Field(  # type: ignore[valid-type]
            alias="location", description=LOCATION_HELP
        )
        version: _version(os_family) = Field(  # type: ignore[valid-type]
            default=NO_VERSION, description=VERSION_HELP
        )
        liveness: _liveness(os_family) = Field(  # type: ignore[valid-type]
            default=NO_LIVENESS, description=LIVENESS_HELP
        )
        if os_family != "darwin":
            presence: _NO_BUNDLE_PRESENCES[os_family] = Field(  # type: ignore[valid-type]
                description="What the application is on disk: a regular file (a bundle is macOS's)."
            )
        if os_family == "linux":
            min_os_version: Annotated[None, _NoOsVersionOnLinux()] = Field(
                default=None, description=LINUX_MIN_OS_VERSION_HELP
            )
        install: hint_list(os_family) | None = Field(  # type: ignore[valid-type]
            default=None, description=INSTALL_HELP
        )

    OsAppDef.os_family = os_family
    OsAppDef.__name__ = OsAppDef.__qualname__ = f"{os_family.capitalize()}AppDef"
    OsAppDef.__doc__ = f"The application on {_OS_NAMES[os_family]}."
    return OsAppDef


if TYPE_CHECKING:
    Win32AppDef = AppDef
    DarwinAppDef = AppDef
    LinuxAppDef = AppDef
else:
    Win32AppDef = _app_def_for("win32")
    DarwinAppDef = _app_def_for("darwin")
    LinuxAppDef = _app_def_for("linux")


class _AtLeastOneOs(TopRule):
    """``AppBlock``'s check that some OS block is present and not null (in the fast schema, with
    the cross-field rules)."""

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        generated = renderer.generate_inner(schema["schema"])
        # Known keys only, each OS key absent or null: the parser's verdict when the block is
        # otherwise valid (an unknown key is its own problem, and stops this check).
        known = AppBlock.accepted_keys()
        nothing = {
            "properties": {key: {"type": "null"} if key in OS_FAMILIES else True for key in known},
            "additionalProperties": False,
        }
        add_rule(
            generated, {"$comment": "no_os_block", "if": nothing, "then": refusal(NO_OS_BLOCK)}
        )
        return generated


class AppBlock(FrozenModel):
    """The ``app`` block: one or more of ``win32``, ``darwin`` and ``linux``; a display name."""

    win32: Win32AppDef | None = Field(default=None, description="The application on Windows.")
    darwin: DarwinAppDef | None = Field(default=None, description="The application on macOS.")
    linux: LinuxAppDef | None = Field(default=None, description="The application on Linux.")
    display_name: Annotated[str, text_rules.DISPLAY_NAME] | None = Field(
        default=None, description=DISPLAY_NAME_HELP, examples=["Vendor Studio"]
    )

    @model_validator(mode="after")
    @renders(_AtLeastOneOs())
    def _at_least_one(self) -> "AppBlock":
        if self.win32 is None and self.darwin is None and self.linux is None:
            fail("no_os_block", NO_OS_BLOCK)
        return self

    @property
    def os_families(self) -> tuple[OsFamily, ...]:
        """The OS families this block declares, in the order win32, darwin, linux."""
        return tuple(os_family for os_family in OS_FAMILIES if self.for_os(os_family) is not None)

    def for_os(self, os_family: str) -> AppDef | None:
        """The application's definition for one OS family, or None when it has none."""
        if os_family == "win32":
            return self.win32
        if os_family == "darwin":
            return self.darwin
        if os_family == "linux":
            return self.linux
        return None
