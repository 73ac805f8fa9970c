"""``gpu_class()``: which GPU vendor a host has, read from host facts only (SPEC 7).

Linux reads ``/proc/driver/nvidia/version`` and sysfs (PCI display-class devices and DRM cards),
Windows the display adapters' ``MatchingDeviceId``, macOS the machine's native architecture (so an
x86_64 Python under Rosetta still sees Apple silicon); an OS that is none of the three is
``unknown`` without a question asked. It never starts a subprocess and never loads a driver
library: every fact comes through the ``Host``. The answer is cached per host object.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable

from hermes_decl._text_enum import TextEnum
from hermes_decl.hosts.default import host_or_default
from hermes_decl.hosts.machine import normalise_machine
from hermes_decl.hosts.protocol import Host
from hermes_decl.resolver.listing import listed_names

MAX_DEVICES = 16_384
"""At most this many PCI functions, DRM cards or Windows adapters are examined.

Generous: servers list hundreds of PCI functions (thousands with SR-IOV), and the GPU may be
the last (``0000:ff:00.0``). A survey cut at this bound, or by a host's own listing bound, is
partial: it answers ``unknown`` unless an NVIDIA GPU was seen, never ``none``."""

MAX_ID_BYTES = 64
"""At most this many bytes of a sysfs ``vendor`` or ``class`` file are read."""

MAX_DEVICE_ID_CHARS = 512
"""A Windows ``MatchingDeviceId`` longer than this is ignored."""

NVIDIA_PROC_FILE = "/proc/driver/nvidia/version"
PCI_DEVICES_DIR = "/sys/bus/pci/devices"
DRM_DIR = "/sys/class/drm"


class GpuClass(TextEnum):
    """The GPU class of a host; a ``str`` so ``gpu_class() == "nvidia"`` holds."""

    NVIDIA = "nvidia"
    AMD = "amd"
    INTEL = "intel"
    APPLE_SILICON = "apple_silicon"
    NONE = "none"
    UNKNOWN = "unknown"


PCI_VENDORS: dict[int, GpuClass] = {
    0x10DE: GpuClass.NVIDIA,
    0x1002: GpuClass.AMD,
    0x8086: GpuClass.INTEL,
}
"""The PCI vendor ids that name a GPU class."""

VENDOR_PRIORITY: tuple[GpuClass, ...] = (GpuClass.NVIDIA, GpuClass.AMD, GpuClass.INTEL)
"""When several vendors are present, the first of these wins."""

_DRM_CARD = re.compile(r"card[0-9]{1,4}")
_WINDOWS_VENDOR = re.compile(r"VEN_([0-9A-F]{4})(?![0-9A-F])", re.IGNORECASE)
_HEX_ID = re.compile(r"(?:0x)?([0-9a-f]{1,8})", re.IGNORECASE)


def gpu_class(host: Host | None = None) -> GpuClass:
    """The host's GPU class: nvidia, amd, intel, apple_silicon, none or unknown.

    ``host=None`` means the live host (``hosts.default.default_host()``, one per process). The
    answer is cached per host object; ``clear_gpu_cache()`` forgets every cached answer.
    """
    host = host_or_default(host)
    cached = _CACHE.get(host)
    if cached is not None:
        return cached
    answer = _read_gpu_class(host)
    _CACHE.put(host, answer)
    return answer


def clear_gpu_cache() -> None:
    """Forget every cached answer (for example after a GPU was hot-plugged, or between tests)."""
    _CACHE.clear()


def best_vendor(found: set[GpuClass]) -> GpuClass | None:
    """The highest-priority vendor among ``found`` (nvidia > amd > intel), or None."""
    return next((vendor for vendor in VENDOR_PRIORITY if vendor in found), None)


def _read_gpu_class(host: Host) -> GpuClass:
    """The uncached answer for the host's OS (darwin: an arm64 machine means apple_silicon)."""
    os_family = host.os_family
    if os_family == "linux":
        return _linux_gpu_class(host)
    if os_family == "win32":
        return _windows_gpu_class(host)
    if os_family == "darwin":
        apple_silicon = normalise_machine(host.native_machine()) == "arm64"
        return GpuClass.APPLE_SILICON if apple_silicon else GpuClass.UNKNOWN
    return GpuClass.UNKNOWN


def _windows_gpu_class(host: Host) -> GpuClass:
    """From the display adapters' ``VEN_xxxx``.

    No adapter id at all means the registry could not be read (Windows always lists at least the
    basic display adapter): ``unknown``. Adapters read, every one naming a vendor, none of them
    a known one: ``none``. An adapter whose id names no vendor (``ROOT\\BasicDisplay``: a GPU
    driven by Windows' basic display driver, which may be an NVIDIA one) is unreadable, and a
    list the host cut (``truncated``) or longer than ``MAX_DEVICES`` is partial: either way the
    answer is ``unknown`` unless an NVIDIA adapter was seen.
    """
    all_ids = host.display_device_ids()
    partial = len(all_ids) > MAX_DEVICES or getattr(all_ids, "truncated", False) is True
    device_ids = all_ids[:MAX_DEVICES]
    if not device_ids:
        return GpuClass.UNKNOWN
    found: set[GpuClass] = set()
    unreadable = False
    for device_id in device_ids:
        match = _WINDOWS_VENDOR.search(device_id[:MAX_DEVICE_ID_CHARS])
        if match is None:
            unreadable = True
            continue
        vendor = PCI_VENDORS.get(int(match.group(1), 16))
        if vendor is not None:
            found.add(vendor)
    best = best_vendor(found)
    if (partial or unreadable) and best is not GpuClass.NVIDIA:
        return GpuClass.UNKNOWN  # an adapter not examined, or not readable, may be an NVIDIA one
    return best or GpuClass.NONE


def _linux_gpu_class(host: Host) -> GpuClass:
    """From the NVIDIA driver's proc file, else sysfs PCI display devices and DRM cards.

    ``none`` only when sysfs was readable and every display device found is of another vendor
    (or there is no display device at all); ``unknown`` when nothing could be read, or when a
    display device's vendor could not be read, or some devices were never examined, and no
    NVIDIA GPU was found.
    """
    if host.is_file(NVIDIA_PROC_FILE):
        return GpuClass.NVIDIA
    survey = _SysfsSurvey()
    for slot in survey.names(host, PCI_DEVICES_DIR, lambda name: not name.startswith(".")):
        survey.add(host, f"{PCI_DEVICES_DIR}/{slot}", drm_card=False)
    for card in survey.names(host, DRM_DIR, _DRM_CARD.fullmatch):
        survey.add(host, f"{DRM_DIR}/{card}/device", drm_card=True)
    return survey.answer()


class _SysfsSurvey:
    """What the sysfs devices examined so far say about the GPU."""

    def __init__(self) -> None:
        self.vendors: set[GpuClass] = set()
        self.anything_read = False
        self.other_vendor_display = False
        self.unreadable_display = False
        self.partial = False
        """Some devices went unexamined: a listing was cut, held odd names, or passed the bound."""

    def names(self, host: Host, directory: str, keep: Callable[[str], object]) -> list[str]:
        """The directory's names that ``keep`` accepts, at most ``MAX_DEVICES`` of them."""
        listing = listed_names(host, directory, "linux")
        kept = [name for name in listing.names if keep(name)]
        if listing.truncated or listing.ignored or len(kept) > MAX_DEVICES:
            self.partial = True
        return kept[:MAX_DEVICES]

    def add(self, host: Host, device_dir: str, *, drm_card: bool) -> None:
        """Examine one device directory (a PCI device, or a DRM card's ``device``)."""
        device_class = _read_hex(host, f"{device_dir}/class")
        if device_class is not None:
            self.anything_read = True
            if not _is_display_class(device_class):
                return
        elif not drm_card:
            return  # a PCI device of unknown class tells nothing
        vendor_id = _read_hex(host, f"{device_dir}/vendor")
        if vendor_id is None:
            self.unreadable_display = True
            return
        self.anything_read = True
        vendor = PCI_VENDORS.get(vendor_id)
        if vendor is None:
            self.other_vendor_display = True
        else:
            self.vendors.add(vendor)

    def answer(self) -> GpuClass:
        """The class the survey supports."""
        best = best_vendor(self.vendors)
        if best is GpuClass.NVIDIA:
            return best
        if self.unreadable_display or self.partial:
            # A display device that could not be read, or was never examined, may be an NVIDIA
            # one: a failed or partial read must not lock out a machine that has the GPU (SPEC 7).
            return GpuClass.UNKNOWN
        if best is not None:
            return best
        return GpuClass.UNKNOWN if not self.anything_read else GpuClass.NONE


def _read_hex(host: Host, path: str) -> int | None:
    """A sysfs hex id (``0x10de``), or None when missing, blank or malformed."""
    data = host.read_file(path, MAX_ID_BYTES)
    if data is None:
        return None
    text = data.decode("ascii", "replace").strip()
    match = _HEX_ID.fullmatch(text)
    return int(match.group(1), 16) if match is not None else None


def _is_display_class(device_class: int) -> bool:
    """Whether a PCI class code (``0xCCSSPP``) is the display controller class (0x03)."""
    return device_class >> 16 == 0x03


class _PerHostCache:
    """Answers keyed by host identity; entries go when their host is garbage-collected.

    A host that cannot be weakly referenced is held strongly, in a small FIFO so such hosts
    cannot pile up.
    """

    STRONG_LIMIT = 64

    def __init__(self) -> None:
        self._lock = threading.RLock()  # re-entrant: a weakref callback may run inside a lock
        self._weak: dict[int, tuple[weakref.ref[Host], GpuClass]] = {}
        self._strong: OrderedDict[int, tuple[Host, GpuClass]] = OrderedDict()

    def get(self, host: Host) -> GpuClass | None:
        """The cached answer for this very host object, or None."""
        key = id(host)
        with self._lock:
            weak = self._weak.get(key)
            if weak is not None and weak[0]() is host:
                return weak[1]
            strong = self._strong.get(key)
            if strong is not None and strong[0] is host:
                return strong[1]
        return None

    def put(self, host: Host, answer: GpuClass) -> None:
        """Remember the answer for this host object."""
        key = id(host)
        try:
            ref = weakref.ref(host, self._forgetter(key))
        except TypeError:
            with self._lock:
                self._strong[key] = (host, answer)
                while len(self._strong) > self.STRONG_LIMIT:
                    self._strong.popitem(last=False)
            return
        with self._lock:
            self._weak[key] = (ref, answer)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._weak.clear()
            self._strong.clear()

    def _forgetter(self, key: int) -> Callable[[weakref.ref[Host]], None]:
        """The weakref callback that drops ``key``'s entry once its host is garbage-collected."""

        def forget(ref: weakref.ref[Host]) -> None:
            with self._lock:
                entry = self._weak.get(key)
                if entry is not None and entry[0] is ref:
                    del self._weak[key]

        return forget


_CACHE = _PerHostCache()
