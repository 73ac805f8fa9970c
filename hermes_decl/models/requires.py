"""The ``requires`` block: what must hold before the server is offered (SPEC 3.3)."""

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, model_validator
from pydantic_core import PydanticCustomError

from hermes_decl._text import choices, did_you_mean
from hermes_decl.models.app_block import AppBlock, one_of
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import Loc, Meanings, fail, fail_at, problem
from hermes_decl.models.path_rules import MIN_VERSION

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


def no_version_source_message(lacking: Sequence[str]) -> str:
    """What is said of ``min_version`` when OS blocks have no version source."""
    blocks = " and ".join(f"app.{os_family}" for os_family in lacking)
    return f"needs a version source: set version.kind in {blocks}"


def _minimum_needs_app(value: str, info: ValidationInfo) -> str:
    """``min_version`` needs ``app: true``, judged per field so other errors cannot hide it."""
    if info.data.get("app", True) is False:  # an invalid ``app`` is not in info.data: no verdict
        fail("min_version_needs_app", MIN_VERSION_NEEDS_APP)
    return value


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


def as_arch_list(value: Any) -> Any:
    """One architecture or a non-empty list of them, each named once; every problem at once."""
    if not isinstance(value, (list, tuple)):
        items: tuple[object, ...] = (value,)
    elif not value:
        fail("empty", EMPTY_ARCHES)
    else:
        items = tuple(value)
    problems: list[tuple[Loc, PydanticCustomError, object]] = []
    for index, item in enumerate(items):
        wrong = _arch_problem(item)
        if wrong is None and item in items[:index]:
            wrong = problem("duplicate", "is listed twice")
        if wrong is not None:
            problems.append(((index,), wrong, item))
    if problems:
        fail_at("arch", problems)
    return items


ArchName = Annotated[Arch, Meanings(ARCH_MEANINGS)]


class Requires(FrozenModel):
    """Policy: the application, a minimum version, a GPU vendor, the processor architecture."""

    app: bool = Field(
        default=False, description="Offer the server only where the application is present."
    )
    min_version: Annotated[str, MIN_VERSION, AfterValidator(_minimum_needs_app)] | None = Field(
        default=None,
        description="The lowest acceptable version, dotted numeric such as '2.3.0'.",
        examples=["2.3.0"],
    )
    gpu: Annotated[GpuVendor, one_of(("nvidia",)), Meanings(GPU_MEANINGS)] | None = Field(
        default=None, description="Offer the server only on a machine with this GPU vendor."
    )
    arch: Annotated[tuple[ArchName, ...], BeforeValidator(as_arch_list)] | None = Field(
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


class RequiresWithApp(FrozenModel):
    """A ``requires`` block judged against its ``app`` block: the cross-field rules of SPEC 3.3."""

    app: AppBlock | None = Field(
        default=None, description="How to find the application on each OS."
    )
    requires: Requires = Field(
        default=NO_REQUIREMENTS, description="What the server needs before it is offered."
    )

    @model_validator(mode="after")
    def _cross_check(self) -> Any:
        requires, app = self.requires, self.app
        if requires.app and app is None:
            fail_at(
                "requires",
                [
                    (
                        ("requires", "app"),
                        problem("app_block_required", APP_BLOCK_REQUIRED),
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
            error = problem("min_version_linux_only", MIN_VERSION_LINUX_ONLY)
        elif lacking := [
            app_def.os_family for app_def in sourced if app_def.version_kind == "none"
        ]:
            error = problem("min_version_no_version_source", no_version_source_message(lacking))
        if error is not None:
            fail_at("requires", [(("requires", "min_version"), error, requires.min_version)])
        return self
