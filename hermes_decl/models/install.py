"""How a person installs the application on one OS: ``app.<os>.install`` (language 1.1).

A hint names one package manager by its key (``{winget: Vendor.Studio}``), or a download page
(``{url: https://…}``). It is text shown to a person, never executed: a hint renders the command
a person would type (``install_command``, ``update_command``), and the sentence of a missing or
too old application says it. Each package name is checked by its package manager's own syntax
(``text_rules``), which also keeps it to characters a shell reads literally, so a command shown
can be copied as it is. A hint of a package manager that does not run on the block's OS is an
error at the list item, as a location kind of another OS is.
"""

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Union

from pydantic import BeforeValidator, Discriminator, Field, Tag

from hermes_decl._text import choices, did_you_mean
from hermes_decl.models import text_rules
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import OS_FAMILIES, OsFamily, fail, fail_at, problem

DEFAULT_FLATPAK_REMOTE = "flathub"


class InstallHint(FrozenModel):
    """One way to install the application; subclasses set the ``KEY`` that names them."""

    KEY: ClassVar[str]
    VALID_OS: ClassVar[tuple[OsFamily, ...]]
    INSTALL: ClassVar[str | None] = None
    """The install command, with the hint's keys as ``{placeholders}``; None for a web page."""
    UPDATE: ClassVar[str | None] = None
    """The update command, with the hint's keys as ``{placeholders}``; None for a web page."""

    @property
    def target(self) -> str:
        """The value of the hint's key: the package id, token, name or URL."""
        value: str = getattr(self, self.KEY)
        return value

    @property
    def install_command(self) -> str | None:
        """The command a person types to install the application; None for a download page."""
        return self._command(self.INSTALL)

    @property
    def update_command(self) -> str | None:
        """The command a person types to update the application; None for a download page."""
        return self._command(self.UPDATE)

    def _command(self, template: str | None) -> str | None:
        if template is None:
            return None
        return template.format_map({name: getattr(self, name) for name in type(self).model_fields})


class WingetHint(InstallHint):
    """A package of the Windows Package Manager."""

    KEY: ClassVar[str] = "winget"
    INSTALL: ClassVar[str | None] = "winget install --exact --id {winget}"
    UPDATE: ClassVar[str | None] = "winget upgrade --exact --id {winget}"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("win32",)
    winget: Annotated[str, text_rules.WINGET_ID] = Field(
        description="The winget package identifier (Publisher.Package).",
        examples=["Vendor.Studio"],
    )


class BrewCaskHint(InstallHint):
    """A Homebrew cask: a macOS application."""

    KEY: ClassVar[str] = "brew_cask"
    INSTALL: ClassVar[str | None] = "brew install --cask {brew_cask}"
    UPDATE: ClassVar[str | None] = "brew upgrade --cask {brew_cask}"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("darwin",)
    brew_cask: Annotated[str, text_rules.CASK_TOKEN] = Field(
        description="The cask token, optionally after 'user/tap/'.",
        examples=["vendor-studio"],
    )


class BrewHint(InstallHint):
    """A Homebrew formula, on macOS or Linux."""

    KEY: ClassVar[str] = "brew"
    INSTALL: ClassVar[str | None] = "brew install {brew}"
    UPDATE: ClassVar[str | None] = "brew upgrade {brew}"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("darwin", "linux")
    brew: Annotated[str, text_rules.FORMULA] = Field(
        description="The formula name, optionally after 'user/tap/'.",
        examples=["vendor-cli"],
    )


class FlatpakHint(InstallHint):
    """A Flatpak application from a remote (Flathub unless another is named)."""

    KEY: ClassVar[str] = "flatpak"
    INSTALL: ClassVar[str | None] = "flatpak install {remote} {flatpak}"
    UPDATE: ClassVar[str | None] = "flatpak update {flatpak}"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("linux",)
    flatpak: Annotated[str, text_rules.FLATPAK_APP_ID] = Field(
        description="The Flatpak application id (reverse DNS).",
        examples=["com.vendor.Studio"],
    )
    remote: Annotated[str, text_rules.FLATPAK_REMOTE] = Field(
        default=DEFAULT_FLATPAK_REMOTE,
        description="The remote that serves the application; default flathub.",
        examples=["flathub"],
    )


class SnapHint(InstallHint):
    """A Snap package."""

    KEY: ClassVar[str] = "snap"
    INSTALL: ClassVar[str | None] = "snap install {snap}"
    UPDATE: ClassVar[str | None] = "snap refresh {snap}"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("linux",)
    snap: Annotated[str, text_rules.SNAP_NAME] = Field(
        description="The Snap name.", examples=["vendor-studio"]
    )


class UrlHint(InstallHint):
    """A web page to download the application from."""

    KEY: ClassVar[str] = "url"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = OS_FAMILIES
    url: Annotated[str, text_rules.HTTPS_URL] = Field(
        description="The download page: an https URL without a user name or password.",
        examples=["https://vendor.example/studio/download"],
    )


INSTALL_HINTS: tuple[type[InstallHint], ...] = (
    WingetHint,
    BrewCaskHint,
    BrewHint,
    FlatpakHint,
    SnapHint,
    UrlHint,
)
"""Every install hint, in the order the schema and the messages list them."""

HINT_KEYS: tuple[str, ...] = tuple(hint.KEY for hint in INSTALL_HINTS)


def wrong_os_message(hint: type[InstallHint]) -> str:
    """The message for a package manager that belongs to another OS block."""
    where = " or ".join(f"app.{os_family}" for os_family in hint.VALID_OS)
    return f"{hint.KEY!r} is only valid under {where}"


def key_of(value: Any) -> str | None:
    """The tag an install hint's union dispatches ``value`` by: the first package manager key
    it sets to something other than null (a validated hint's own ``KEY``); None when none."""
    if isinstance(value, InstallHint):  # serialising a validated model
        return value.KEY
    if isinstance(value, Mapping):
        return next((key for key in HINT_KEYS if value.get(key) is not None), None)
    return None


def hint_item(os_family: OsFamily) -> Any:
    """The type of one item of ``install`` under an OS block: a union keyed by the hint's key."""
    here = [hint for hint in INSTALL_HINTS if os_family in hint.VALID_OS]
    keys_here = [hint.KEY for hint in here]
    by_key = {hint.KEY: hint for hint in INSTALL_HINTS}
    shape = f"a mapping naming one package manager: {choices(keys_here)}"

    def check_hint(value: Any) -> Any:
        if type(value) is not dict and not isinstance(value, Mapping):
            fail("wrong_type", f"must be {shape}", value)
        named = [key for key in HINT_KEYS if value.get(key) is not None]
        if len(named) > 1:
            names = " and ".join(repr(key) for key in named)
            fail("hint_ambiguous", f"must name one package manager (got {names})")
        if not named:
            close = [
                (key, suggestion)
                for key in value
                if isinstance(key, str)
                and key not in HINT_KEYS
                and (suggestion := did_you_mean(key, keys_here))
            ]
            if close:
                fail_at(
                    "install",
                    [
                        (
                            (key,),
                            problem("unknown_key", "unknown key", hint=f"did you mean {hint!r}?"),
                            value[key],
                        )
                        for key, hint in close
                    ],
                )
            fail("missing_key", f"must be {shape}", value)
        hint = by_key[named[0]]
        if os_family not in hint.VALID_OS:
            fail("hint_wrong_os", wrong_os_message(hint))
        return value

    members = tuple(Annotated[hint, Tag(hint.KEY)] for hint in here)
    union = Annotated[Union[members], Discriminator(key_of)]  # type: ignore[valid-type]  # noqa: UP007
    return Annotated[union, BeforeValidator(check_hint)]


EMPTY_HINTS = "must not be empty: give a hint or a list of them"
"""What is said of an empty ``install`` list."""


def as_hint_list(value: Any) -> Any:
    """Accept one hint as a list of one; a list must not be empty."""
    if isinstance(value, (list, tuple)):
        if not value:
            fail("empty", EMPTY_HINTS)
        return tuple(value)
    return (value,)


def hint_list(os_family: OsFamily) -> Any:
    """The type of ``install`` under an OS block: one hint or a non-empty list, as a tuple."""
    item = hint_item(os_family)
    return Annotated[tuple[item, ...], BeforeValidator(as_hint_list)]  # type: ignore[valid-type]
