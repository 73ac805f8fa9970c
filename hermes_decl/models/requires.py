"""The ``requires`` block: what must hold before the server is offered (SPEC 3.3)."""

import itertools
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from hermes_decl._text import choices, did_you_mean
from hermes_decl.models.app_block import AppBlock, one_of
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import OS_FAMILIES, Loc, Meanings, fail, fail_at, problem
from hermes_decl.models.editor_schema import (
    TYPED,
    add_rule,
    one_or_list,
    present_with,
    refusal,
    type_check,
)
from hermes_decl.models.path_rules import MIN_VERSION
from hermes_decl.models.rule_object import (
    Derivation,
    Node,
    Renderer,
    RuleObject,
    TopRule,
    renders,
)
from hermes_decl.models.rule_object import one_or_list as fast_one_or_value
from hermes_decl.models.version import VERSION_VARIANTS, NoVersion

Arch = Literal["x86_64", "arm64"]
ARCHES: tuple[Arch, ...] = ("x86_64", "arm64")
ARCH_MEANINGS: tuple[tuple[Arch, str], ...] = (
    ("x86_64", "A 64-bit Intel or AMD processor (x86-64, also called amd64 or x64)."),
    ("arm64", "A 64-bit ARM processor (AArch64), such as Apple silicon."),
)
_ARCH_SPELLINGS: dict[str, Arch] = {
    "amd64": "x86_64",
    "x64": "x86_64",
    "x86-64": "x86_64",
    "x86_64h": "x86_64",
    "intel": "x86_64",
    "aarch64": "arm64",
    "arm64e": "arm64",
    "armv8": "arm64",
    "apple_silicon": "arm64",
}
"""Other names of the two architectures, which the parser refuses but names the right one for."""

_OTHER_ARCHES = frozenset(
    {"arm", "armhf", "armel", "armv6l", "armv7", "armv7l", "x86", "i386", "i686"}
)
"""32-bit architectures: neither of the two, so no close spelling of one is suggested for them."""

GpuVendor = Literal["nvidia"]
GPU_MEANINGS: tuple[tuple[GpuVendor, str], ...] = (
    ("nvidia", "An NVIDIA GPU (PCI vendor id 10de); a GPU that cannot be read counts as met."),
)


MIN_VERSION_NEEDS_APP = "needs app: true"
APP_BLOCK_REQUIRED = "is true, but there is no app block"
MIN_VERSION_LINUX_ONLY = (
    "cannot be checked: Linux has no version source and app declares only linux"
)
APP_BLOCK_REQUIRED_HINT = "add an app block beside requires, or write app: false"
MIN_VERSION_LINUX_ONLY_HINT = (
    "remove min_version, or add a win32 or darwin block that reads a version"
)


def no_version_source_message(lacking: Sequence[str]) -> str:
    """What is said of ``min_version`` when OS blocks have no version source."""
    blocks = " and ".join(f"app.{os_family}" for os_family in lacking)
    return f"needs a version source: set version.kind in {blocks}"


class _MinimumNeedsApp(TopRule):
    """``min_version`` needs ``app: true``, judged per field so other errors cannot hide it; in
    JSON Schema, a rule on the enclosing ``requires``; in the fast schema, with the cross-field
    rules."""

    MODE = "after"

    def check(self, value: str, info: ValidationInfo) -> str:
        """The version, unless ``app`` is false."""
        if info.data.get("app", True) is False:  # an invalid ``app`` is not in info.data
            fail("min_version_needs_app", MIN_VERSION_NEEDS_APP)
        return value

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        renderer.model_frame()[1].append(
            {
                "$comment": "min_version_needs_app",
                "if": {
                    "required": ["min_version"],
                    "properties": {
                        "min_version": {"type": "string"},
                        # false or null, said without an enum that hover would list
                        "app": {"type": ["boolean", "null"], "not": {"const": True}},
                    },
                },
                "then": {"properties": {"min_version": refusal(MIN_VERSION_NEEDS_APP)}},
            }
        )
        return renderer.generate_inner(schema["schema"])


def _arch_problem(value: object) -> PydanticCustomError | None:
    """What is wrong with one architecture name; other spellings are pointed at the right one."""
    if not isinstance(value, str):
        return problem("wrong_type", f"must be {choices(ARCHES)}", value)
    if value in ARCHES:
        return None
    lowered = value.strip().lower()
    spelled = lowered if lowered in ARCHES else _ARCH_SPELLINGS.get(lowered)
    hint = f"write {spelled!r}" if spelled else None
    if hint is None and lowered in _OTHER_ARCHES:
        hint = "a 32-bit processor is neither"
    elif hint is None and (suggestion := did_you_mean(value, ARCHES)):
        hint = f"did you mean {suggestion!r}?"
    return problem("invalid_choice", f"must be {choices(ARCHES)}", value, hint=hint)


EMPTY_ARCHES = f"must not be empty: give {choices(ARCHES)}, or a list of them"
"""What is said of an empty ``arch`` list."""


class _ArchList(RuleObject):
    """``arch``: one architecture or a non-empty list of them, each named once."""

    def check(self, value: Any) -> Any:
        """The architectures, as a tuple; every problem at once."""
        if not isinstance(value, (list, tuple)):
            items: tuple[object, ...] = (value,)
        elif not value:
            fail("empty", EMPTY_ARCHES)
        else:
            items = tuple(value)
        problems: list[tuple[Loc, PydanticCustomError, object]] = []
        seen: set[str] = set()
        for index, item in enumerate(items):
            wrong = _arch_problem(item)
            if wrong is None and item in seen:
                wrong = problem("duplicate", "is listed twice")
            elif isinstance(item, str):
                seen.add(item)
            if wrong is not None:
                problems.append(((index,), wrong, item))
        if problems:
            fail_at("arch", problems)
        return items

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        item = renderer.generate_inner(schema["schema"])["items"]
        item["type"] = ["string"]
        item["errorMessage"] = f"must be {choices(ARCHES)}"
        item = {TYPED: True, "allOf": [type_check(["string"], item["errorMessage"]), item]}
        return one_or_list(item, EMPTY_ARCHES, unique=True)

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        """Every order of every choice of architectures."""
        shapes: list[CoreSchema | tuple[CoreSchema, str]] = [
            core_schema.tuple_schema(
                [core_schema.literal_schema([arch]) for arch in chosen], strict=False
            )
            for size in range(1, len(ARCHES) + 1)
            for chosen in itertools.permutations(ARCHES, size)
        ]
        return core_schema.no_info_before_validator_function(
            fast_one_or_value, core_schema.union_schema(shapes, mode="left_to_right")
        )


ArchName = Annotated[Arch, Meanings(ARCH_MEANINGS)]


class Requires(FrozenModel):
    """Policy: the application, a minimum version, a GPU vendor, the processor architecture."""

    app: bool = Field(
        default=False, description="Offer the server only where the application is present."
    )
    min_version: Annotated[str, MIN_VERSION, _MinimumNeedsApp()] | None = Field(
        default=None,
        description="The lowest acceptable version, dotted numeric such as '2.3.0'.",
        examples=["2.3.0"],
    )
    gpu: Annotated[GpuVendor, one_of(("nvidia",)), Meanings(GPU_MEANINGS)] | None = Field(
        default=None, description="Offer the server only on a machine with this GPU vendor."
    )
    arch: Annotated[tuple[ArchName, ...], _ArchList()] | None = Field(
        default=None,
        description=(
            "Offer the server only on a machine whose native processor architecture is this "
            "one, or one of this list; an emulated one (Rosetta, WOW64) does not count. "
            "Language 1.1."
        ),
        examples=["arm64", ["x86_64", "arm64"]],
    )


NO_REQUIREMENTS = Requires.model_construct()
"""The default ``requires`` block, made without validating (see ``version.NO_VERSION``)."""


class _CrossCheck(RuleObject):
    """``requires`` judged against the ``app`` block.

    In JSON Schema each rule is ``if`` (the rule is broken) ``then`` (refuse the value the parser
    reports at), so an editor shows the parser's message at the parser's place. Conditions use
    no ``anyOf``: an editor would show its branches' (absent) descriptions on hover.
    """

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        generated = renderer.generate_inner(schema["schema"])

        def at_requires(key: str, message: str) -> JsonSchemaValue:
            return {"properties": {"requires": {"properties": {key: refusal(message)}}}}

        app_true = {"type": "object", **present_with("app", {"const": True})}
        add_rule(
            generated,
            {
                "$comment": "app_block_required",
                "if": {
                    "required": ["requires"],
                    "properties": {"requires": app_true, "app": {"type": "null"}},
                },
                "then": at_requires("app", APP_BLOCK_REQUIRED),
            },
        )
        minimum = {
            "type": "object",
            "required": ["app", "min_version"],
            "properties": {"app": {"const": True}, "min_version": {"type": "string"}},
        }
        sourced = [
            os_family
            for os_family in OS_FAMILIES
            if any(
                os_family in variant.VALID_OS
                for variant in VERSION_VARIANTS
                if variant.KIND != NoVersion.KIND
            )
        ]
        unsourced = [os_family for os_family in OS_FAMILIES if os_family not in sourced]

        def when(app: JsonSchemaValue) -> JsonSchemaValue:
            return {
                "required": ["requires", "app"],
                "properties": {"requires": minimum, "app": {"type": "object", **app}},
            }

        add_rule(
            generated,
            {
                "$comment": "min_version_linux_only",
                "if": when(
                    {
                        "properties": {os_family: {"type": "null"} for os_family in sourced},
                        "not": {"properties": {os: {"type": "null"} for os in unsourced}},
                    }
                ),
                "then": at_requires("min_version", MIN_VERSION_LINUX_ONLY),
            },
        )
        with_source = present_with(
            "version",
            {
                "type": "object",
                **present_with("kind", {"type": "string", "not": {"const": NoVersion.KIND}}),
            },
        )

        def lacking(os_family: str) -> JsonSchemaValue:
            return present_with(os_family, {"type": "object", "not": with_source})

        for size in range(1, len(sourced) + 1):
            for blocks in itertools.combinations(sourced, size):
                conditions = [
                    lacking(os) if os in blocks else {"not": lacking(os)} for os in sourced
                ]
                add_rule(
                    generated,
                    {
                        "$comment": "min_version_no_version_source",
                        "if": when({"allOf": conditions}),
                        "then": at_requires("min_version", no_version_source_message(blocks)),
                    },
                )
        return generated

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        """The shape alone: the parser checks every rule only Python can say on what the fast
        validator built (``fast_rules.rules_hold``)."""
        derivation.checked_after()
        return derivation.node(schema["schema"], presence)


class RequiresWithApp(FrozenModel):
    """A ``requires`` block judged against its ``app`` block: the cross-field rules of SPEC 3.3."""

    app: AppBlock | None = Field(
        default=None, description="How to find the application on each OS."
    )
    requires: Requires = Field(
        default=NO_REQUIREMENTS, description="What the server needs before it is offered."
    )

    @model_validator(mode="after")
    @renders(_CrossCheck())
    def _cross_check(self) -> Any:
        requires, app = self.requires, self.app
        if requires.app and app is None:
            fail_at(
                "requires",
                [
                    (
                        ("requires", "app"),
                        problem(
                            "app_block_required", APP_BLOCK_REQUIRED, hint=APP_BLOCK_REQUIRED_HINT
                        ),
                        True,
                    )
                ],
            )
        if requires.min_version is None or app is None:
            return self
        # Linux has no version source: only the win32 and darwin blocks need one.
        sourced = [app_def for app_def in (app.win32, app.darwin) if app_def is not None]
        error: PydanticCustomError | None = None
        if not sourced and app.linux is not None:
            error = problem(
                "min_version_linux_only", MIN_VERSION_LINUX_ONLY, hint=MIN_VERSION_LINUX_ONLY_HINT
            )
        elif lacking := [
            app_def.os_family for app_def in sourced if app_def.version_kind == "none"
        ]:
            error = problem("min_version_no_version_source", no_version_source_message(lacking))
        if error is not None:
            fail_at("requires", [(("requires", "min_version"), error, requires.min_version)])
        return self
