"""Never the network: the automounter's network roots and Windows network drives are refused at
parse, after expansion, in a ``*`` match and before anything touches them."""

from __future__ import annotations

import pytest

from hermes_decl.declaration import DeclarationError
from hermes_decl.hosts.live.windows import DRIVE_REMOTE, drive_root, remote_drive
from hermes_decl.models import OsFamily, path_atoms, path_rules
from hermes_decl.models.rules import network_root
from hermes_decl.overrides_text import parse_overrides
from hermes_decl.resolver.expand import Expansion, expand
from hermes_decl.resolver.matching import search_pattern
from hermes_decl.resolver.overrides import user_overrides
from hermes_decl.testing import FakeHost
from tests.rules_helpers import one_os, only_issue, parse
from tests.test_rule_patterns import assert_agree

LINUX_MESSAGE = (
    "must not be under /net, where the automounter mounts the host the next folder names: "
    "looking there would contact that host; name a local folder"
)
DARWIN_MESSAGE = LINUX_MESSAGE.replace("/net,", "/net or /Network/Servers,")

REFUSED_AT_PARSE = {
    "linux-net-host": ("linux", "/net/evil.example/app", LINUX_MESSAGE),
    "linux-net-alone": ("linux", "/net", LINUX_MESSAGE),
    "linux-net-slash": ("linux", "/net/", LINUX_MESSAGE),
    "linux-dot-segments": ("linux", "/./net//evil.example/app", LINUX_MESSAGE),
    "linux-surrounding-space": ("linux", "  /net/evil.example/app  ", LINUX_MESSAGE),
    "darwin-net-host": ("darwin", "/net/evil.example/Vendor.app", DARWIN_MESSAGE),
    "darwin-net-any-case": ("darwin", "/NET/evil.example/Vendor.app", DARWIN_MESSAGE),
    "darwin-servers": ("darwin", "/Network/Servers/evil.example/Vendor.app", DARWIN_MESSAGE),
    "darwin-servers-case": ("darwin", "/network/SERVERS/evil/Vendor.app", DARWIN_MESSAGE),
    "darwin-servers-long-s": ("darwin", "/Network/\u017fervers/evil/Vendor.app", DARWIN_MESSAGE),
    "darwin-servers-dots": ("darwin", "/Network/./Servers/evil/Vendor.app", DARWIN_MESSAGE),
}


@pytest.mark.parametrize(
    ("os_family", "raw", "message"), REFUSED_AT_PARSE.values(), ids=list(REFUSED_AT_PARSE)
)
def test_a_network_root_is_refused_at_parse(os_family: str, raw: str, message: str) -> None:
    issue = only_issue(one_os(os_family, raw))
    assert (issue.loc, issue.code) == (f"app.{os_family}.location", "path_network_root")
    assert issue.message == f"{message} (got {raw.strip()!r})"


@pytest.mark.parametrize("os_family", ["linux", "darwin"])
def test_a_runtime_file_under_a_network_root_is_refused(os_family: str) -> None:
    liveness = {"kind": "server_json", "path": "/net/evil.example/server.json"}
    issue = only_issue(one_os(os_family, liveness=liveness))
    assert (issue.loc, issue.code) == (f"app.{os_family}.liveness.path", "path_network_root")


HONEST_PLACES = {
    "linux-netx": ("linux", "/netx/app"),
    "linux-net-deeper": ("linux", "/opt/net/app"),
    "linux-net-capital": ("linux", "/Net/app"),
    "linux-network-servers": ("linux", "/Network/Servers/app"),
    "linux-misc": ("linux", "/misc/app"),
    "darwin-volumes": ("darwin", "/Volumes/Vendor/Vendor.app"),
    "darwin-network-library": ("darwin", "/Network/Library/Vendor.app"),
    "darwin-network-alone": ("darwin", "/Network"),
    "darwin-servers-elsewhere": ("darwin", "/Servers/Vendor.app"),
    "darwin-netboot": ("darwin", "/netboot/Vendor.app"),
    "darwin-home-net": ("darwin", "~/net/Vendor.app"),
    "darwin-star-first": ("darwin", "/*/Vendor.app"),
}


@pytest.mark.parametrize(("os_family", "raw"), HONEST_PLACES.values(), ids=list(HONEST_PLACES))
def test_honest_places_stay_valid(os_family: str, raw: str) -> None:
    decl = parse(one_os(os_family, raw))
    assert decl.app is not None


NETWORK_VALUES = (
    [raw for _os, raw, _message in REFUSED_AT_PARSE.values()]
    + [raw for _os, raw in HONEST_PLACES.values()]
    + ["/./x", "/.", "/. ", "/n", "/N*", "/\u212a"]
)


@pytest.mark.parametrize("os_family", ["linux", "darwin", "win32"])
def test_the_patterns_and_the_check_agree_on_network_roots(os_family: OsFamily) -> None:
    for rule in (path_rules.LOCATION_PATHS[os_family], path_rules.RUNTIME_FILES[os_family]):
        for value in NETWORK_VALUES:
            assert_agree(rule, value)


def test_the_case_folds_are_every_character_folding_to_a_roots_letter() -> None:
    letters = {
        c for os_roots in path_atoms.NETWORK_ROOTS.values() for r in os_roots for c in "".join(r)
    }
    for letter in sorted(letters):
        folding = {chr(code) for code in range(0x110000) if chr(code).casefold() == letter.lower()}
        assert folding == set(path_atoms.spellings(letter, ignore_case=True)), letter


# --- after expansion ---------------------------------------------------------------------------

CONTACT = "where the automounter would contact the host it names"

EXPANDED = {
    "linux-variable": (
        "linux",
        "$SHARE/app",
        {"SHARE": "/net/evil.example"},
        f"/net/evil.example/app is under /net, {CONTACT}",
    ),
    "linux-home": (
        "linux",
        "~/app",
        {"HOME": "/net/evil.example/home"},
        f"/net/evil.example/home/app is under /net, {CONTACT}",
    ),
    "darwin-variable-case": (
        "darwin",
        "${X}/Vendor.app",
        {"X": "/Network/servers/h"},
        f"/Network/servers/h/Vendor.app is under /Network/Servers, {CONTACT}",
    ),
}


@pytest.mark.parametrize(
    ("os_family", "template", "env", "refused"), EXPANDED.values(), ids=list(EXPANDED)
)
def test_a_network_root_is_refused_after_expansion(
    os_family: str, template: str, env: dict[str, str], refused: str
) -> None:
    host = FakeHost(os_family, env=env)  # type: ignore[arg-type]
    assert expand(template, os_family, host) == Expansion(None, refused)  # type: ignore[arg-type]
    assert [method for method, _ in host.call_log if method not in ("getenv", "home")] == []


def test_a_star_never_reaches_into_a_network_root() -> None:
    host = FakeHost("linux").add_executable("/net/evil.example/app").add_dir("/nut")
    search = search_pattern("/n*t/evil.example/app", "linux", host)
    assert search.paths == ("/nut/evil.example/app",)
    assert search.refused == ("/net is under /net, where the automounter would contact a host",)
    assert host.call_log == [("list_dir", ("/",))]


@pytest.mark.parametrize("os_family", ["linux", "darwin"])
def test_network_root_agrees_with_the_pattern_whatever_the_first_character(
    os_family: OsFamily,
) -> None:
    """The check skips a path whose first character starts no root; the pattern reads it all."""
    rule = path_rules._network_roots(os_family)
    assert rule is not None
    for code in range(0x3000):
        first = chr(code)
        for tail in ("et/x", "etwork/Servers/x", "", "/net/x", "./net"):
            path = f"/{first}{tail}"
            assert (network_root(path, os_family) is None) == bool(rule.compiled.match(path)), path


def test_network_root_reads_no_further_than_its_roots() -> None:
    assert network_root("/net" + "/x" * 100_000, "linux") == "/net"
    assert network_root("/" + "./" * 100_000 + "opt", "darwin") is None
    assert network_root("/net/x", "win32") is None


# --- Windows network drives --------------------------------------------------------------------

REMOTE = {
    "declared": (r"Z:\Vendor\vendor.exe", {}, r"Z:\Vendor\vendor.exe is on Z:, a network drive"),
    "lower-case": ("z:/Vendor/vendor.exe", {}, r"z:\Vendor\vendor.exe is on Z:, a network drive"),
    "variable": (
        r"%APPDATA%\Vendor\vendor.exe",
        {"APPDATA": r"Z:\Users\me"},
        r"Z:\Users\me\Vendor\vendor.exe is on Z:, a network drive",
    ),
}


@pytest.mark.parametrize(("template", "env", "refused"), REMOTE.values(), ids=list(REMOTE))
def test_a_path_on_a_network_drive_is_refused_before_it_is_touched(
    template: str, env: dict[str, str], refused: str
) -> None:
    host = FakeHost("win32", env=env).add_remote_drive("Z")
    assert expand(template, "win32", host) == Expansion(None, refused)
    touched = [method for method, _ in host.call_log if method not in ("getenv", "home")]
    assert touched == ["drive_is_remote"]
    assert host.call_log[-1] == ("drive_is_remote", (refused[:3],))


def test_a_local_drive_is_looked_at() -> None:
    host = FakeHost("win32").add_remote_drive("Z:")
    assert expand(r"C:\Vendor\vendor.exe", "win32", host) == Expansion(r"C:\Vendor\vendor.exe")


@pytest.mark.parametrize(
    ("path", "answer", "remote"),
    [
        (r"Z:\Vendor", DRIVE_REMOTE, True),
        ("z:/Vendor", DRIVE_REMOTE, True),
        (r"C:\Vendor", 3, False),
        (r"C:\Vendor", None, False),
        (r"\\server\share", DRIVE_REMOTE, False),
        ("/opt", DRIVE_REMOTE, False),
    ],
    ids=["remote", "lower-case", "fixed", "unknown", "unc-is-not-a-drive", "posix"],
)
def test_the_drive_type_decides(path: str, answer: int | None, remote: bool) -> None:
    asked: list[str] = []

    def drive_type(root: str) -> int | None:
        asked.append(root)
        return answer

    assert remote_drive(path, drive_type) is remote
    root = drive_root(path)
    assert asked == ([] if root is None else [root])
    assert root is None or root == path[0].upper() + ":\\"


def test_a_failing_drive_type_is_not_remote() -> None:
    def drive_type(root: str) -> int | None:
        raise OSError("no kernel32")

    assert remote_drive(r"Z:\x", drive_type) is False


# --- overrides -----------------------------------------------------------------------------------


def test_an_override_under_a_network_root_is_refused() -> None:
    with pytest.raises(DeclarationError) as raised:
        parse_overrides("vendor:\n  linux: /net/evil.example/vendor\n", where="o.yaml")
    [issue] = raised.value.issues
    assert (issue.loc, issue.code) == ("vendor.linux", "path_network_root")
    assert issue.message == f"{LINUX_MESSAGE} (got '/net/evil.example/vendor')"


def test_the_overrides_file_named_on_a_network_root_is_not_read() -> None:
    host = FakeHost("linux", env={"HERMES_DECL_OVERRIDES": "/net/evil.example/o.yaml"})
    found = user_overrides(host, "linux")
    assert found.path is None
    assert found.refused == (
        "HERMES_DECL_OVERRIDES=/net/evil.example/o.yaml is under /net, "
        "where the automounter would contact the host it names"
    )
    assert host.calls["read_file"] == 0


@pytest.mark.parametrize(
    ("os_family", "path", "code"),
    [
        ("linux", "/net/a/../b", "path_parent"),
        ("darwin", "/NET/a/x", "path_network_root"),
        ("linux", "/net/a/x", "path_network_root"),
    ],
    ids=["parent-first", "darwin-root", "linux-root"],
)
def test_after_expansion_the_first_refusal_is_the_models_first(
    os_family: OsFamily, path: str, code: str
) -> None:
    from hermes_decl.resolver.expand import unsafe_reason

    issue = only_issue(one_os(os_family, path))
    reason = unsafe_reason(path, os_family)
    assert issue.code == code
    assert reason is not None
    assert ("'..'" in reason) is (code == "path_parent")


def test_the_fake_and_live_hosts_have_the_drives_facet() -> None:
    from hermes_decl.hosts import HostDrives
    from hermes_decl.hosts.live.host import LiveHost
    from hermes_decl.resolver.host import HostDrives as OldAddress

    assert OldAddress is HostDrives
    assert isinstance(FakeHost("win32"), HostDrives)
    assert isinstance(LiveHost(), HostDrives)
    assert FakeHost("linux").drive_is_remote("Z:\\") is False
    assert LiveHost(os_family="linux").drive_is_remote("Z:\\") is False
