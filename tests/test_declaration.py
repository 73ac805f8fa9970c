"""The parse API, defaults, flat attributes, error rendering and the registry-facing shapes."""

from __future__ import annotations

import datetime
import pickle
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from pydantic import ValidationError

from hermes_decl import declaration
from hermes_decl.declaration import DeclarationError, Issue
from hermes_decl.models import (
    AppBundleLocation,
    CommandLocation,
    Declaration,
    NoLiveness,
    NoVersion,
    PathLocation,
    ServerJsonLiveness,
    UninstallRegistryLocation,
)

FULL_APP: dict[str, Any] = {
    "win32": {
        "presence": "executable",
        "location": [
            {
                "kind": "uninstall_registry",
                "display_name_prefix": "Vendor App",
                "file": "vendor.exe",
            },
            "%ProgramFiles%/Vendor/Vendor App */vendor.exe",
        ],
        "version": {"kind": "pe_resource"},
        "liveness": {
            "kind": "server_json",
            "path": "%LOCALAPPDATA%/Vendor/Vendor App/McpServer/server.json",
            "pid_key": "pid",
            "url_key": "http",
            "token_key": "token",
            "endpoint_path": "/mcp",
        },
    },
    "darwin": {
        "presence": "bundle",
        "location": [{"kind": "app_bundle", "name": "Vendor.app"}],
        "version": {"kind": "plist"},
    },
    "linux": {
        "presence": "executable",
        "location": [
            {"kind": "command", "name": "vendor"},
            {"kind": "flatpak", "app_id": "com.vendor.App"},
            {"kind": "snap", "name": "vendor"},
        ],
    },
}


def parse(app: object = None, requires: object = None) -> Declaration:
    return declaration.parse_declaration("vendor-server", app, requires, where="plugin.yaml")


def issues(app: object = None, requires: object = None) -> list[tuple[str, str]]:
    with pytest.raises(DeclarationError) as caught:
        parse(app, requires)
    return [(issue.loc, issue.code) for issue in caught.value.issues]


def test_the_spec_example_parses_with_every_field() -> None:
    decl = parse(FULL_APP, {"app": True, "min_version": "2.3.0"})
    assert decl.name == "vendor-server"
    assert decl.app is not None
    assert decl.app.os_families == ("win32", "darwin", "linux")
    win = decl.app_for("win32")
    assert win is decl.app.win32
    assert win is decl.app.for_os("win32")
    assert win is not None
    assert win.app_id == "vendor-server"
    assert win.os_family == "win32"
    assert win.presence == "executable"
    assert win.version_kind == "pe_resource"
    assert win.version_arg is None
    assert win.liveness_kind == "server_json"
    assert win.liveness_path == "%LOCALAPPDATA%/Vendor/Vendor App/McpServer/server.json"
    assert (win.liveness_pid_key, win.liveness_url_key, win.liveness_token_key) == (
        "pid",
        "http",
        "token",
    )
    assert win.endpoint_path == "/mcp"
    first, second = win.locations
    assert isinstance(first, UninstallRegistryLocation)
    assert (first.display_name_prefix, first.file, first.target) == (
        "Vendor App",
        "vendor.exe",
        "Vendor App",
    )
    assert (
        isinstance(second, PathLocation)
        and second.path == "%ProgramFiles%/Vendor/Vendor App */vendor.exe"
    )
    mac = decl.app_for("darwin")
    assert mac is not None and mac.os_family == "darwin" and mac.version_kind == "plist"
    assert isinstance(mac.locations[0], AppBundleLocation)
    linux = decl.app_for("linux")
    assert linux is not None and [loc.kind for loc in linux.locations] == [
        "command",
        "flatpak",
        "snap",
    ]
    assert (
        decl.requires.app is True
        and decl.requires.min_version == "2.3.0"
        and decl.requires.gpu is None
    )


def test_defaults_are_filled_by_the_models() -> None:
    decl = parse({"linux": {"presence": "executable", "location": "  /opt/app/bin  "}})
    linux = decl.app_for("linux")
    assert linux is not None
    assert (
        linux.version == NoVersion() and linux.version_kind == "none" and linux.version_arg is None
    )
    assert (
        linux.liveness == NoLiveness()
        and linux.liveness_kind == "none"
        and linux.liveness_path is None
    )
    assert (linux.liveness_pid_key, linux.liveness_url_key, linux.liveness_token_key) == (
        "pid",
        "http",
        "token",
    )
    assert linux.endpoint_path == "/mcp"
    assert (
        isinstance(linux.locations[0], PathLocation) and linux.locations[0].path == "/opt/app/bin"
    )
    assert (
        decl.requires.app is False
        and decl.requires.min_version is None
        and decl.requires.gpu is None
    )
    assert (
        decl.app_for("win32") is None
        and decl.app_for("darwin") is None
        and decl.app_for("beos") is None
    )


def test_liveness_defaults_and_uninstall_version_arg() -> None:
    decl = parse(
        {
            "win32": {
                "presence": "executable",
                "location": "C:\\Vendor\\vendor.exe",
                "version": {"kind": "uninstall_registry", "display_name_prefix": "Vendor App"},
                "liveness": {"kind": "server_json", "path": "~/server.json"},
            }
        }
    )
    win = decl.app_for("win32")
    assert win is not None and win.version_arg == "Vendor App"
    assert isinstance(win.liveness, ServerJsonLiveness)
    assert (win.liveness.pid_key, win.liveness.url_key, win.liveness.token_key) == (
        "pid",
        "http",
        "token",
    )
    assert win.liveness.endpoint_path == "/mcp"


def test_a_declaration_without_blocks_has_no_requirements() -> None:
    decl = parse()
    assert decl.app is None and decl.app_for("linux") is None
    assert decl.requires.app is False


def test_null_means_absent_but_empty_does_not() -> None:
    decl = parse(
        {"linux": {"presence": "executable", "location": "/x", "version": None}, "darwin": None},
        None,
    )
    assert decl.app is not None and decl.app.os_families == ("linux",)
    assert parse(None, {"app": None, "min_version": None, "gpu": None}).requires.app is False
    assert parse(None, {}).requires.app is False
    assert issues({}) == [("app", "no_os_block")]
    assert issues({"darwin": None}) == [("app", "no_os_block")]
    assert issues({"linux": {"presence": "executable", "location": ""}}) == [
        ("app.linux.location", "blank")
    ]
    assert issues({"linux": {"presence": "executable", "location": []}}) == [
        ("app.linux.location", "empty")
    ]
    assert issues({"linux": {}}) == [
        ("app.linux.presence", "missing_key"),
        ("app.linux.location", "missing_key"),
    ]


def test_several_errors_are_reported_at_once() -> None:
    app = {
        "win32": {
            "presence": "exe",
            "location": ["C:/Vendor/vendor.exe", {"kind": "app_bundle", "name": "Vendor.app"}],
            "version": {"kind": "plist"},
        },
        "linux": {"presence": "executable", "location": {"kind": "snap", "name": "v", "file": "x"}},
    }
    assert issues(app, {"app": True, "min_versoin": "2.3", "gpu": "amd"}) == [
        ("app.win32.presence", "invalid_choice"),
        ("app.win32.location[1]", "kind_wrong_os"),
        ("app.win32.version.kind", "kind_wrong_os"),
        ("app.linux.location.file", "unknown_key"),
        ("requires.min_versoin", "unknown_key"),
        ("requires.gpu", "invalid_choice"),
    ]


CANONICAL = [
    (
        {"win32": {"presence": "exe", "location": "C:/v.exe"}},
        None,
        "plugin.yaml: app.win32.presence: must be 'executable' or 'bundle' (got 'exe')",
    ),
    (
        {
            "win32": {
                "presence": "executable",
                "location": ["C:/v.exe", {"kind": "app_bundle", "name": "V.app"}],
            }
        },
        None,
        "plugin.yaml: app.win32.location[1]: kind 'app_bundle' is only valid under app.darwin",
    ),
    (
        None,
        {"min_versoin": "2.3"},
        "plugin.yaml: requires.min_versoin: unknown key (did you mean 'min_version'?)",
    ),
    (
        None,
        {"app": "true"},
        "plugin.yaml: requires.app: must be true or false (got 'true'; write true without quotes)",
    ),
    (
        None,
        {"app": True, "min_version": 2.3},
        "plugin.yaml: requires.min_version: must be a string (got 2.3; quote it: '2.3', as YAML "
        "reads an unquoted 3.10 as the number 3.1)",
    ),
    (
        {"linux": {"presence": "executable", "location": "/x"}},
        {"app": True, "min_version": "2.3"},
        "plugin.yaml: requires.min_version: cannot be checked: Linux has no version source and app "
        "declares only linux (remove min_version, or add a win32 or darwin block that reads a "
        "version)",
    ),
    (
        {"macos": {}},
        None,
        "plugin.yaml: app.macos: unknown key "
        "(expected 'win32', 'darwin', 'linux' or 'display_name')",
    ),
    (
        {"linux": {"presence": "executable", "location": [{"kind": "flatpack", "app_id": "a.b"}]}},
        None,
        "plugin.yaml: app.linux.location[0].kind: must be 'command', 'flatpak' or 'snap' "
        "(got 'flatpack'; did you mean 'flatpak'?)",
    ),
    (
        {
            "darwin": {
                "presence": "executable",
                "location": [{"kind": "app_bundle", "name": "V.app"}],
            }
        },
        None,
        "plugin.yaml: app.darwin.location[0]: kind 'app_bundle' finds a bundle, but this block's "
        "presence is 'executable'",
    ),
]


@pytest.mark.parametrize(
    ("app", "requires", "text"), CANONICAL, ids=[t.split(": ")[1] for _, _, t in CANONICAL]
)
def test_canonical_messages(app: object, requires: object, text: str) -> None:
    with pytest.raises(DeclarationError) as caught:
        parse(app, requires)
    assert str(caught.value) == text


def test_long_values_are_shortened_in_messages() -> None:
    with pytest.raises(DeclarationError) as caught:
        parse({"linux": {"presence": "x" * 500, "location": "/x"}})
    message = caught.value.issues[0].message
    assert message.startswith("must be 'executable' or 'bundle' (got 'xxxx")
    assert len(message) < 140 and "..." in message


LINUX = {"presence": "executable", "location": "/opt/x"}

#: A key written into app.linux (or as an OS key) → the location its unknown_key issue has.
KEY_LOCATIONS: dict[str, tuple[dict[str, object], str]] = {
    "accented-os-key-is-bare": ({"línux": LINUX}, "app.línux"),
    "cyrillic-key-is-bare": ({"linux": {**LINUX, "пути": 1}}, "app.linux.пути"),
    "japanese-key-is-bare": ({"linux": {**LINUX, "場所": 1}}, "app.linux.場所"),
    "hyphen-is-quoted": ({"linux": {**LINUX, "my-key2": 1}}, 'app.linux["my-key2"]'),
    "leading-digit-is-quoted": ({"linux": {**LINUX, "3d": 1}}, 'app.linux["3d"]'),
    "underscore-and-digits-are-bare": ({"linux": {**LINUX, "_key2": 1}}, "app.linux._key2"),
    "dotted-key-is-quoted": ({"linux": {**LINUX, "a.b": 1}}, 'app.linux["a.b"]'),
    "quoted-key-keeps-its-characters": (
        {"linux": {**LINUX, "пути к": 1}},
        'app.linux["пути к"]',
    ),
    "control-characters-are-escaped": (
        {"linux": {**LINUX, "a\x1b]0;x\x07\x9b\x7f": 1}},
        'app.linux["a\\u001b]0;x\\u0007\\u009b\\u007f"]',
    ),
    "line-breaks-are-escaped": ({"linux": {**LINUX, "a\nb\u2028": 1}}, 'app.linux["a\\nb\\u2028"]'),
    "quote-and-backslash-are-escaped": ({"linux": {**LINUX, 'a"\\': 1}}, 'app.linux["a\\"\\\\"]'),
    "empty-key-is-quoted": ({"linux": {**LINUX, "": 1}}, 'app.linux[""]'),
    "long-key-is-never-shortened": ({"linux": {**LINUX, "k" * 300: 1}}, "app.linux." + "k" * 300),
    "long-quoted-key-is-never-shortened": (
        {"linux": {**LINUX, "k " * 150: 1}},
        'app.linux["' + "k " * 150 + '"]',
    ),
}


@pytest.mark.parametrize(("app", "loc"), KEY_LOCATIONS.values(), ids=list(KEY_LOCATIONS))
def test_locations_read_as_written_and_are_never_shortened(
    app: dict[str, object], loc: str
) -> None:
    with pytest.raises(DeclarationError) as caught:
        parse(app)
    ((issue_loc, code),) = [(issue.loc, issue.code) for issue in caught.value.issues]
    assert (issue_loc, code) == (loc, "unknown_key")
    assert str(caught.value).startswith(f"plugin.yaml: {loc}: unknown key (")
    assert len(caught.value.issues[0].message) < 140  # only the message is ever shortened


def test_an_error_labels_copies_of_its_issues_with_its_source_and_keeps_labelled_ones() -> None:
    given = Issue("a.b", "bad", "is bad (x)", 3, 4, ("a", "b"), severity="warning", hint="x")
    labelled = DeclarationError("f.yaml", [given]).issues[0]
    assert labelled == given and labelled is not given
    assert labelled.__dict__ == {**given.__dict__, "where": "f.yaml"}
    assert given.where == ""  # the issue given is left as it was
    assert DeclarationError("f.yaml", [labelled]).issues[0] is labelled
    assert DeclarationError("g.yaml", [labelled]).issues[0].where == "g.yaml"


def test_error_shape() -> None:
    with pytest.raises(DeclarationError) as caught:
        declaration.parse_declaration(
            "s", None, {"app": 1, "gpu": "amd"}, where="my-plugin/plugin.yaml"
        )
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.where == "my-plugin/plugin.yaml"
    assert error.issues == (
        Issue("requires.app", "wrong_type", "must be true or false (got 1)"),
        Issue("requires.gpu", "invalid_choice", "must be 'nvidia' (got 'amd')"),
    )
    assert all(issue.line is None and issue.column is None for issue in error.issues)
    assert str(error).splitlines() == [
        "my-plugin/plugin.yaml: requires.app: must be true or false (got 1)",
        "my-plugin/plugin.yaml: requires.gpu: must be 'nvidia' (got 'amd')",
    ]
    copy = pickle.loads(pickle.dumps(error))
    assert copy.issues == error.issues and copy.where == error.where
    positioned = Issue(
        "requires.app", "wrong_type", "must be true or false (got 1)", line=3, column=8
    )
    assert positioned.render("f.yaml") == "f.yaml:3:8: requires.app: must be true or false (got 1)"
    assert (
        Issue("", "too_deep", "is nested too deeply").render("f.yaml")
        == "f.yaml: is nested too deeply"
    )
    assert [str(issue) for issue in error.issues] == str(error).splitlines()
    assert [str(issue) for issue in copy.issues] == str(error).splitlines()
    assert str(DeclarationError("f.yaml", [positioned]).issues[0]) == (
        "f.yaml:3:8: requires.app: must be true or false (got 1)"
    )
    assert str(positioned) == "3:8: requires.app: must be true or false (got 1)"
    assert str(Issue("", "too_deep", "is nested too deeply")) == "is nested too deeply"


def test_a_parsed_app_block_given_to_another_declaration_is_left_as_it_was() -> None:
    block = declaration.parse_app(FULL_APP, name="vendor-server", where="plugin.yaml")
    assert block is not None
    other = declaration.parse_declaration("other-server", block, None, where="other.yaml")
    assert other.name == "other-server" and other.app is block
    apps = [block.for_os(os_family) for os_family in block.os_families]
    assert [app.app_id for app in apps if app is not None] == ["vendor-server"] * 3


def test_parse_app_and_parse_requires() -> None:
    block = declaration.parse_app(FULL_APP, name="vendor-server", where="plugin.yaml")
    assert block is not None and block.os_families == ("win32", "darwin", "linux")
    assert declaration.parse_app(None, name="x", where="w") is None
    win = block.for_os("win32")
    assert win is not None and win.app_id == "vendor-server"
    requires = declaration.parse_requires(
        {"app": True, "min_version": "2.3"}, block, where="plugin.yaml"
    )
    assert requires.min_version == "2.3"
    with pytest.raises(DeclarationError) as caught:
        declaration.parse_app({"linux": {"presence": "exe", "location": "/x"}}, name="x", where="w")
    assert [(i.loc, i.code) for i in caught.value.issues] == [
        ("app.linux.presence", "invalid_choice")
    ]
    with pytest.raises(DeclarationError) as caught:
        declaration.parse_requires({"app": True}, None, where="w")
    assert [(i.loc, i.code) for i in caught.value.issues] == [
        ("requires.app", "app_block_required")
    ]
    linux_only = declaration.parse_app(
        {"linux": {"presence": "executable", "location": "/x"}}, name="x", where="w"
    )
    with pytest.raises(DeclarationError) as caught:
        declaration.parse_requires({"app": True, "min_version": "1"}, linux_only, where="w")
    assert [(i.loc, i.code) for i in caught.value.issues] == [
        ("requires.min_version", "min_version_linux_only")
    ]


def test_validating_a_declaration_directly_still_carries_the_name() -> None:
    decl = Declaration.model_validate(
        {"name": "direct", "app": {"linux": {"presence": "executable", "location": "/x"}}}
    )
    linux = decl.app_for("linux")
    assert linux is not None and linux.app_id == "direct"


def test_dumping_a_declaration_round_trips_without_warnings() -> None:
    decl = parse(FULL_APP, {"app": True, "min_version": "2.3.0"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dumped = decl.model_dump(by_alias=True, mode="json")
    assert dumped["app"]["win32"]["location"][1] == "%ProgramFiles%/Vendor/Vendor App */vendor.exe"
    again = declaration.parse_declaration(
        decl.name, dumped["app"], dumped["requires"], where="again"
    )
    assert again == decl


def test_models_are_frozen_all_the_way_down() -> None:
    decl = parse(FULL_APP, {"app": True})
    win = decl.app_for("win32")
    assert win is not None
    targets: list[tuple[object, str]] = [
        (decl, "name"),
        (decl.requires, "app"),
        (decl.app, "linux"),
        (win, "presence"),
        (win.version, "kind"),
        (win.liveness, "path"),
        (win.locations[0], "file"),
        (win.locations[1], "path"),
    ]
    for model, field in targets:
        with pytest.raises(ValidationError, match="frozen"):
            setattr(model, field, "changed")
    assert isinstance(win.locations, tuple)
    assert hash(decl) == hash(parse(FULL_APP, {"app": True}))


def _frozen_assignment_is_a_type_error(decl: Declaration, command: CommandLocation) -> None:
    """Never called: mypy checks it; an ignore would be reported unused if its line type-checked."""
    decl.name = "other"  # type: ignore[misc]
    command.name = "other"  # type: ignore[misc]


def test_parse_requires_parses_an_unparsed_app_block_too() -> None:
    raw_app: Any = {"linux": {"presence": "executable", "location": "/x"}}
    requires = declaration.parse_requires({"app": True}, raw_app, where="w")
    assert requires.app is True
    with pytest.raises(DeclarationError) as caught:
        declaration.parse_requires({"app": True}, {"linux": {}}, where="w")  # type: ignore[arg-type]
    assert [(i.loc, i.code) for i in caught.value.issues] == [
        ("app.linux.presence", "missing_key"),
        ("app.linux.location", "missing_key"),
    ]


@pytest.mark.parametrize(
    ("found", "shown"),
    [
        (datetime.date(2024, 1, 1), "must be a string (got 2024-01-01)"),
        (b"hello", "must be a string (got binary data of 5 bytes)"),
        ({"a"}, "must be a string (got a set)"),
    ],
    ids=["yaml-date", "yaml-binary", "yaml-set"],
)
def test_values_yaml_can_produce_are_shown_in_plain_words(found: object, shown: str) -> None:
    with pytest.raises(DeclarationError) as caught:
        parse(None, {"app": True, "min_version": found})
    assert caught.value.issues[0].message == shown


class _NoValues(Mapping[str, object]):
    """An empty mapping whose every lookup fails: found by fuzz/fuzz_parser.py."""

    def __getitem__(self, key: str) -> object:
        raise RuntimeError("cannot read a value")

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


class _KeysOnce(Mapping[str, object]):
    """A mapping that lists its keys once; listing them again fails."""

    def __init__(self, items: dict[str, object]) -> None:
        self._items = items
        self._listed = 0

    def __getitem__(self, key: str) -> object:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        self._listed += 1
        if self._listed > 1:
            raise RuntimeError("cannot list the keys again")
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


@pytest.mark.parametrize(
    "block",
    [_NoValues(), _KeysOnce({"presence": "exe", "location": "/x"})],
    ids=["lookup-fails", "second-listing-fails"],
)
def test_a_value_failing_while_its_problems_are_located_is_a_declaration_error(
    block: Mapping[str, object],
) -> None:
    # Pydantic reads the block and reports a problem in it; locating that problem reads the
    # block again, and that read fails. It is still a DeclarationError, never the raw exception.
    with pytest.raises(DeclarationError) as caught:
        declaration.parse_declaration("s", {"linux": block}, None, where="w")
    assert [(i.loc, i.code) for i in caught.value.issues] == [("", "unreadable")]
