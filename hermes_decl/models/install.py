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

from pydantic import Discriminator, Field, Tag
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from hermes_decl._text import choices, did_you_mean
from hermes_decl.models import text_rules
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import OS_FAMILIES, OsFamily, fail, fail_at, problem
from hermes_decl.models.editor_schema import (
    TYPED,
    doc_of,
    present_with,
    refusal,
    required_examples,
    snippet_of,
    type_check,
)
from hermes_decl.models.one_or_list import OneOrListRule
from hermes_decl.models.rule_object import (
    Derivation,
    Node,
    Renderer,
    RuleObject,
)

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


class HintUnion(RuleObject):
    """The check that runs before the install-hint union of one OS block, keyed by the package
    manager a hint names; in JSON Schema, as a ``kind`` union: ``if key K is present then hint
    K``, no ``oneOf``, and a package manager of another OS named as such at its key."""

    os_family: OsFamily

    @property
    def keys_here(self) -> list[str]:
        """The keys of the hints valid under this OS block, in table order."""
        return [hint.KEY for hint in INSTALL_HINTS if self.os_family in hint.VALID_OS]

    @property
    def shape(self) -> str:
        """What a hint must be, as the messages say it."""
        return f"a mapping naming one package manager: {choices(self.keys_here)}"

    def check(self, value: Any) -> Any:
        """The hint, when it names exactly one package manager of this OS block."""
        if type(value) is not dict and not isinstance(value, Mapping):
            fail("wrong_type", f"must be {self.shape}", value)
        named = [key for key in HINT_KEYS if value.get(key) is not None]
        if len(named) > 1:
            names = " and ".join(repr(key) for key in named)
            fail("hint_ambiguous", f"must name one package manager (got {names})")
        if not named:
            keys_here = self.keys_here
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
            fail("missing_key", f"must be {self.shape}", value)
        hint = _BY_KEY[named[0]]
        if self.os_family not in hint.VALID_OS:
            fail("hint_wrong_os", wrong_os_message(hint))
        return value

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        shape = self.shape
        choices_by_key: dict[str, CoreSchema] = dict(schema["schema"]["choices"])
        rules: list[JsonSchemaValue] = [type_check(["object"], f"must be {shape}")]
        snippets: list[JsonSchemaValue] = []
        for hint in INSTALL_HINTS:
            names = present_with(hint.KEY, {"not": {"type": "null"}})
            if self.os_family not in hint.VALID_OS:
                then = {"properties": {hint.KEY: refusal(wrong_os_message(hint))}}
                rules.append({"if": {"type": "object", **names}, "then": then})
                continue
            body = renderer.generate_inner(choices_by_key[hint.KEY])
            rules.append({"if": {"type": "object", **names}, "then": body})
            snippets.append(snippet_of(hint.KEY, doc_of(hint), required_examples(hint)))
        nothing = {"properties": {hint.KEY: {"type": "null"} for hint in INSTALL_HINTS}}
        rules.append({"if": {"type": "object", **nothing}, "then": refusal(f"must be {shape}")})
        return {TYPED: True, "allOf": rules, "defaultSnippets": snippets}

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        """The variant whose key a hint names; each variant forbids the others' keys."""
        union = schema["schema"]
        variants = [derivation.node(choice, presence) for choice in dict(union["choices"]).values()]
        return core_schema.union_schema(variants, mode="left_to_right")


_BY_KEY = {hint.KEY: hint for hint in INSTALL_HINTS}


def hint_item(os_family: OsFamily) -> Any:
    """The type of one item of ``install`` under an OS block: a union keyed by the hint's key."""
    here = [hint for hint in INSTALL_HINTS if os_family in hint.VALID_OS]
    members = tuple(Annotated[hint, Tag(hint.KEY)] for hint in here)
    union = Annotated[Union[members], Discriminator(key_of)]  # type: ignore[valid-type]  # noqa: UP007
    return Annotated[union, HintUnion(os_family)]


EMPTY_HINTS = "must not be empty: give a hint or a list of them"
"""What is said of an empty ``install`` list."""


_HINT_LIST = OneOrListRule(
    "install", EMPTY_HINTS, "One way to install the application", "InstallHint"
)


def hint_list(os_family: OsFamily) -> Any:
    """The type of ``install`` under an OS block: one hint or a non-empty list, as a tuple."""
    item = hint_item(os_family)
    return Annotated[tuple[item, ...], _HINT_LIST]  # type: ignore[valid-type]
