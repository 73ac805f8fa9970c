"""The one evaluation every reader uses: can a declared server be offered on this host (SPEC 8)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hermes_decl._quick_init import quick_init
from hermes_decl._text_enum import TextEnum
from hermes_decl.hosts.default import default_host
from hermes_decl.hosts.protocol import Host
from hermes_decl.models import OS_FAMILIES, AppDef, Declaration, InstallHint, OsFamily
from hermes_decl.models.common import OS_NAMES
from hermes_decl.resolver.app import Candidate, Lookup, locate
from hermes_decl.resolver.budget import MAX_TRACE
from hermes_decl.resolver.evaluation_pass import EvaluationPass
from hermes_decl.resolver.found_version import read_version
from hermes_decl.resolver.gpu import GpuClass, gpu_class
from hermes_decl.resolver.overrides import user_overrides
from hermes_decl.versions import compare_versions, satisfies, version_key


class AvailabilityState(TextEnum):
    """What an evaluation concluded; a ``str`` so that ``state == "available"`` holds."""

    AVAILABLE = "available"
    INSTALLED_NOT_RUNNING = "installed_not_running"
    """Reserved vocabulary: this evaluator never produces it."""
    MISSING_APP = "missing_app"
    VERSION_TOO_OLD = "version_too_old"
    UNSUPPORTED_OS = "unsupported_os"
    UNSUPPORTED_GPU = "unsupported_gpu"
    UNSUPPORTED_ARCH = "unsupported_arch"
    UNSUPPORTED_OS_VERSION = "unsupported_os_version"
    NO_REQUIREMENTS = "no_requirements"


_OFFERABLE = frozenset({AvailabilityState.AVAILABLE, AvailabilityState.NO_REQUIREMENTS})


@quick_init
@dataclass(frozen=True)
class Availability:
    """The verdict on one declaration on one host, with what was examined to reach it."""

    state: AvailabilityState
    version: str | None = None
    """The version read, when one was."""
    path: str | None = None
    """Where the application was found, or the first place looked."""
    min_version: str | None = None
    """The declaration's ``requires.min_version``."""
    name: str = ""
    """The declaration's name, used in sentences when no display name is given."""
    os_family: OsFamily | None = None
    """The OS family evaluated; None when nothing needed it, or the OS is none of the three."""
    gpu: GpuClass | None = None
    """The host's GPU class, when the declaration required a GPU."""
    trace: tuple[Candidate, ...] = ()
    """The places examined, in order, with their outcome and the version read there: the first
    ``MAX_TRACE`` of them, and every ``incomplete`` one after (``untraced`` counts the rest)."""
    untraced: int = 0
    """How many places were examined past the first ``MAX_TRACE``, which the trace leaves out."""
    overrides_file: str | None = None
    """The user overrides file whose places for this server were tried first, when any were."""
    display_name: str | None = None
    """The declaration's ``app.display_name``: sentences use it when no name is given."""
    install: InstallHint | None = None
    """The first install hint of the OS block evaluated, which sentences tell a person to use."""
    arch: tuple[str, ...] | None = None
    """The declaration's ``requires.arch``."""
    machine: str | None = None
    """The host's native architecture, when ``requires.arch`` asked for it."""
    min_os_version: str | None = None
    """The OS block's ``min_os_version``."""
    os_version: str | None = None
    """The host's OS version, when ``min_os_version`` asked for it (None when unknown)."""
    version_checked: bool = False
    """Whether a copy's version was compared with ``min_version``: False without a minimum,
    without a present copy, and for a block with no version source (Linux's)."""

    @property
    def offerable(self) -> bool:
        """Whether the server may be offered: ``available`` or ``no_requirements``."""
        return self.state in _OFFERABLE

    def __bool__(self) -> bool:
        raise TypeError("an Availability has no truth value: read .offerable or .state")

    def sentence(self, app_name: str | None = None) -> str:
        """The sentence a user reads about this verdict: what holds, then what to do about it."""
        reason, action = self.sentence_parts(app_name)
        return f"{reason} {action}" if action else reason

    def sentence_parts(self, app_name: str | None = None) -> tuple[str, str | None]:
        """The sentence in two parts: what holds, and the one thing to do (None when nothing is).

        The application is called ``app_name``, else the declaration's display name, else the
        declaration's name. The runtime status (SPEC 11) builds its own sentences from these parts.
        """
        app = app_name or self.display_name or self.name
        state = self.state
        if state is AvailabilityState.MISSING_APP:
            how = self._how(install=True)
            return f"{app} is not installed.", f"Install {app}{how}, then try again."
        if state is AvailabilityState.VERSION_TOO_OLD:
            required = f"version {self.min_version} or newer is required."
            if self.version is None:
                # Updating may not help: nothing says the copy found is old.
                place = f" at {self.path}" if self.path else ""
                return (
                    f"{app} is installed{place}, but no version could be read from it; {required}",
                    f"Check that it is {app} {self.min_version} or newer, then try again.",
                )
            reason = f"{app} version {self.version} is too old; {required}"
            return reason, f"Update {app}{self._how(install=False)}, then try again."
        if state is AvailabilityState.UNSUPPORTED_OS:
            os_name = OS_NAMES[self.os_family] if self.os_family else "this operating system"
            return f"{app} is not available on {os_name}.", None
        if state is AvailabilityState.UNSUPPORTED_GPU:
            return (
                f"{app} needs an NVIDIA GPU; none was found on this machine.",
                f"Use {app} on a machine with an NVIDIA GPU.",
            )
        if state is AvailabilityState.UNSUPPORTED_ARCH:
            return f"{app} needs {self._processor()}; this machine has {self.machine}.", None
        if state is AvailabilityState.UNSUPPORTED_OS_VERSION:
            machine = _MACHINE_NAMES.get(self.os_family, "machine")
            floor = self._os_floor()
            return f"{app} needs {floor} or newer; this {machine} runs {self.os_version}.", None
        if state is AvailabilityState.AVAILABLE:
            version = f" {self.version}" if self.version else ""
            return f"{app}{version} is available.", None
        met = self._met_requirements()
        if met:
            # Each requirement that held says so; a second one is "It needs …".
            sentences = [
                f"{app if index == 0 else 'It'} {clause}" for index, clause in enumerate(met)
            ]
            return " ".join(sentences), None
        return f"{app} has no application or GPU requirements.", None

    def _met_requirements(self) -> list[str]:
        """What each hardware requirement asked and found, for a verdict they all allowed."""
        met: list[str] = []
        if self.gpu is GpuClass.UNKNOWN:
            met.append(
                "needs an NVIDIA GPU; this machine's GPU could not be read, "
                "so the requirement counts as met."
            )
        elif self.gpu is not None:
            met.append("needs an NVIDIA GPU, and this machine has one.")
        if self.arch is not None and self.machine is None:
            met.append(
                f"needs {self._processor()}; this machine's architecture could not be told, "
                "so the requirement counts as met."
            )
        elif self.arch is not None:
            met.append(f"needs {self._processor()}, and this machine has one.")
        return met

    def refusal(self, server_name: str | None = None) -> str:
        """One line saying why an install or offer was refused, e.g. for a host's log.

        Raises ``ValueError`` for an offerable verdict: there is no refusal to explain.
        """
        name = server_name or self.name
        if self.offerable:
            raise ValueError(
                f"refusal() explains a refused verdict; {name} is {self.state.value}, "
                "which is offered"
            )
        if self.state is AvailabilityState.UNSUPPORTED_GPU:
            return f"{name} is unavailable: unsupported_gpu, needs an NVIDIA GPU."
        if self.state is AvailabilityState.UNSUPPORTED_ARCH:
            return f"{name} is unavailable: unsupported_arch, needs {self._processor()}."
        if self.state is AvailabilityState.UNSUPPORTED_OS_VERSION:
            return f"{name} is unavailable: unsupported_os_version, needs {self._os_floor()}."
        return f"{name} is unavailable: {self.state.value}."

    def _how(self, *, install: bool) -> str:
        """How the install hint says to install or update: `` with `command``` or `` from URL``."""
        hint = self.install
        if hint is None:
            return ""
        command = hint.install_command if install else hint.update_command
        return f" with `{command}`" if command is not None else f" from {hint.target}"

    def _processor(self) -> str:
        return f"an {' or '.join(self.arch or ())} processor"

    def _os_floor(self) -> str:
        os_name = OS_NAMES[self.os_family] if self.os_family else "an operating system"
        return f"{os_name} {self.min_os_version}"


_MACHINE_NAMES: dict[OsFamily | None, str] = {"darwin": "Mac", "win32": "PC"}
"""What a sentence calls the machine of an OS whose version is too old."""


def availability(
    decl: Declaration, *, host: Host | None = None, os_family: OsFamily | None = None
) -> Availability:
    """Evaluate a declaration on a host (the live machine by default) in SPEC 8's decision order.

    The facts are gathered first and the verdict is built once, from all of them.
    """
    return _availability(decl, host, os_family, None)


def availability_of_all(
    decls: Iterable[Declaration], *, host: Host | None = None, os_family: OsFamily | None = None
) -> tuple[Availability, ...]:
    """Evaluate many declarations on one host in one pass: each verdict is ``availability``'s.

    The pass asks the host about each place, folder listing and the user overrides once and
    shares the answers among its declarations; the next call asks again.
    """
    if os_family is not None and os_family not in OS_FAMILIES:
        raise ValueError(f"os_family must be one of {', '.join(OS_FAMILIES)} (got {os_family!r})")
    on = default_host() if host is None else host
    shared = EvaluationPass(on)
    return tuple(_availability(decl, on, os_family, shared) for decl in decls)


def _availability(
    decl: Declaration,
    host: Host | None,
    os_family: OsFamily | None,
    shared: EvaluationPass | None,
) -> Availability:
    if os_family is not None and os_family not in OS_FAMILIES:
        raise ValueError(f"os_family must be one of {', '.join(OS_FAMILIES)} (got {os_family!r})")
    requires = decl.requires
    display_name = decl.app.display_name if decl.app is not None else None
    if not requires.app and requires.gpu is None and requires.arch is None:
        return Availability(
            AvailabilityState.NO_REQUIREMENTS,
            name=decl.name,
            min_version=requires.min_version,
            display_name=display_name,
        )
    if host is None:
        host = default_host()
    family = os_family or host.os_family
    # On an OS that is none of the three (family None) no block can apply.
    app_def = decl.app_for(family) if family is not None else None
    facts = _Facts(
        name=decl.name,
        min_version=requires.min_version,
        os_family=family,
        display_name=display_name,
        arch=requires.arch,
    )
    if app_def is not None:
        facts["install"] = app_def.install[0] if app_def.install else None
        facts["min_os_version"] = app_def.min_os_version
    if requires.app and app_def is None:
        return facts.verdict(AvailabilityState.UNSUPPORTED_OS)
    if requires.gpu is not None:
        found_gpu = facts["gpu"] = gpu_class(host)
        if found_gpu not in (requires.gpu, GpuClass.UNKNOWN):
            return facts.verdict(AvailabilityState.UNSUPPORTED_GPU)
    if requires.arch is not None:
        machine = host.native_machine()
        facts["machine"] = machine or None
        # A machine whose architecture cannot be told is not refused, as an unreadable GPU is not.
        if machine and machine not in requires.arch:
            return facts.verdict(AvailabilityState.UNSUPPORTED_ARCH)
    if app_def is None or not requires.app:
        return facts.verdict(AvailabilityState.NO_REQUIREMENTS)
    if app_def.min_os_version is not None and host.os_family == app_def.os_family:
        # Only the OS the host runs has a version to read: a forced os_family has none.
        found_os = facts["os_version"] = host.os_version()
        order = compare_versions(found_os, app_def.min_os_version) if found_os else None
        if order is not None and order < 0:
            return facts.verdict(AvailabilityState.UNSUPPORTED_OS_VERSION)
    return _locate_and_compare(facts, decl, app_def, host, shared)


class _Facts(dict[str, Any]):
    """What one evaluation has learnt so far, by ``Availability`` field name, turned into its
    ``Availability`` once, at the end (a ``dataclasses.replace`` per fact would cost more)."""

    def verdict(
        self,
        state: AvailabilityState,
        version: str | None = None,
        path: str | None = None,
        trace: tuple[Candidate, ...] = (),
    ) -> Availability:
        """The verdict ``state``, with every fact learnt on the way to it."""
        return Availability(state, version=version, path=path, trace=trace, **self)


def _locate_and_compare(
    facts: _Facts, decl: Declaration, app_def: AppDef, host: Host, shared: EvaluationPass | None
) -> Availability:
    os_family = app_def.os_family
    # A block without a version source (Linux beside other blocks) is gated on presence only.
    minimum = decl.requires.min_version if app_def.version_kind != "none" else None
    overrides = user_overrides(host, os_family) if shared is None else shared.overrides(os_family)
    extra = overrides.locations(decl.name, os_family)
    if extra:
        facts["overrides_file"] = overrides.path
    trace: list[Candidate] = []
    first_place: str | None = None
    first_present: Candidate | None = None
    best: Candidate | None = None
    lookup = Lookup(host, os_family, shared)
    reads_version = app_def.version_kind != "none"
    for candidate in locate(app_def, lookup, extra):
        path, outcome = candidate.path, candidate.outcome
        if first_place is None and path is not None:
            first_place = path
        if outcome == "present" and path is not None and reads_version:
            found = read_version(app_def, candidate, lookup)
            candidate = candidate.with_version(found.version, found.detail)
        if len(trace) < MAX_TRACE or outcome == "incomplete":
            trace.append(candidate)  # a bound hit is always said
        else:
            facts["untraced"] = facts.get("untraced", 0) + 1
        if outcome != "present" or path is None:
            continue
        if minimum is None or satisfies(candidate.version, minimum):
            facts["version_checked"] = minimum is not None
            return facts.verdict(
                AvailabilityState.AVAILABLE, candidate.version, candidate.path, tuple(trace)
            )
        first_present = first_present or candidate
        if _higher(candidate.version, best.version if best else None):
            best = candidate
    if first_present is None:
        return facts.verdict(AvailabilityState.MISSING_APP, None, first_place, tuple(trace))
    chosen = best or first_present
    facts["version_checked"] = True
    return facts.verdict(
        AvailabilityState.VERSION_TOO_OLD, chosen.version, chosen.path, tuple(trace)
    )


def _higher(version: str | None, than: str | None) -> bool:
    key = version_key(version) if version is not None else None
    if key is None:
        return False
    other = version_key(than) if than is not None else None
    return other is None or key > other
