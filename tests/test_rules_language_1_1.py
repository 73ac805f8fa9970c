"""The keys of language 1.1 (SPEC 3.1, 3.3): display name, install hints, OS and arch floors.

Written from SPEC.md and the package managers' own naming rules. Every problem is reported at
its key with a stable code: ``app.display_name``, ``app.<os>.min_os_version``, each
``app.<os>.install`` item (a hint of a package manager that does not run on that OS at the item,
a bad package name at the hint's key) and each ``requires.arch`` item.
"""

from __future__ import annotations

import textwrap

import pytest

from hermes_decl._text import show
from hermes_decl.declaration import DeclarationError
from hermes_decl.loader import load_declarations_text
from hermes_decl.models.install import InstallHint
from tests.rules_helpers import error_of, one_os, os_block, parse, rows, rows1
from tests.rules_helpers import issues as issues_of

LINUX = os_block("linux")


def _hints(raw_app: object, os_family: str) -> tuple[InstallHint, ...] | None:
    decl = parse(raw_app)
    app_def = decl.app_for(os_family)
    assert app_def is not None
    return app_def.install


# --- app.display_name ---------------------------------------------------------------------------

VALID_DISPLAY_NAMES: dict[str, str] = {
    "two-words": "Vendor Studio",
    "one-letter": "V",
    "digits": "Vendor Studio 2024",
    "punctuation": "Vendor Studio (Beta) & Co.",
    "accented": "Écriture Pro",
    "cjk": "ベンダースタジオ",
    "emoji": "Vendor 🎨 Studio",
    "inner-no-break-space": "Vendor\u00a0Studio",
    "eighty-characters": "V" * 80,
}


@pytest.mark.parametrize("value", rows1(VALID_DISPLAY_NAMES), ids=list(VALID_DISPLAY_NAMES))
def test_valid_display_name(value: str) -> None:
    decl = parse({"linux": LINUX, "display_name": value})
    assert decl.app is not None
    assert decl.app.display_name == value


INVALID_DISPLAY_NAMES: dict[str, tuple[object, str]] = {
    "empty": ("", "blank"),
    "spaces": ("   ", "blank"),
    "ideographic-space-only": ("\u3000", "blank"),
    "leading-space": (" Vendor Studio", "surrounding_whitespace"),
    "trailing-space": ("Vendor Studio ", "surrounding_whitespace"),
    "trailing-ideographic-space": ("Vendor Studio\u3000", "surrounding_whitespace"),
    "trailing-no-break-space": ("Vendor Studio\u00a0", "surrounding_whitespace"),
    "newline-inside": ("Vendor\nStudio", "control_character"),
    "trailing-newline": ("Vendor Studio\n", "control_character"),
    "tab": ("Vendor\tStudio", "control_character"),
    "nul": ("Vendor\x00", "control_character"),
    "escape": ("Vendor \x1b[31mStudio", "control_character"),
    "delete": ("Vendor\x7f", "control_character"),
    "c1-control": ("Vendor\x85Studio", "control_character"),
    "line-separator": ("Vendor\u2028Studio", "control_character"),
    "right-to-left-override": ("Vendor \u202eoiduts", "control_character"),
    "isolate": ("Vendor \u2066Studio\u2069", "control_character"),
    "eighty-one-characters": ("V" * 81, "text_too_long"),
    "int": (1, "wrong_type"),
    "bool": (True, "wrong_type"),
    "list": (["Vendor Studio"], "wrong_type"),
    "mapping": ({"en": "Vendor Studio"}, "wrong_type"),
    "bytes": (b"Vendor Studio", "wrong_type"),
}


@pytest.mark.parametrize(
    ("value", "code"), rows(INVALID_DISPLAY_NAMES), ids=list(INVALID_DISPLAY_NAMES)
)
def test_invalid_display_name(value: object, code: str) -> None:
    assert issues_of({"linux": LINUX, "display_name": value}) == [("app.display_name", code)]


def test_display_name_null_is_absent_and_is_os_independent() -> None:
    decl = parse({"linux": LINUX, "display_name": None})
    assert decl.app is not None
    assert decl.app.display_name is None
    assert issues_of({"display_name": "Vendor Studio"}) == [("app", "no_os_block")]
    assert issues_of(one_os("linux", display_name="Vendor Studio")) == [
        ("app.linux.display_name", "unknown_key")
    ]


def test_display_name_messages() -> None:
    messages = [
        issue.message
        for issue in error_of({"linux": LINUX, "display_name": "V" * 81}).issues
        + error_of({"linux": LINUX, "display_name": "Vendor\nStudio"}).issues
    ]
    assert messages == [
        f"must be at most 80 characters long (got {show('V' * 81)})",
        "must be plain text: no line breaks, tabs or other control characters "
        "(got 'Vendor\\nStudio')",
    ]


def test_display_name_typo_is_pointed_at() -> None:
    issue = error_of({"linux": LINUX, "displayname": "Vendor Studio"}).issues[0]
    assert (issue.loc, issue.code) == ("app.displayname", "unknown_key")
    assert issue.message == "unknown key (did you mean 'display_name'?)"


# --- app.<os>.min_os_version ------------------------------------------------------------------

MIN_OS_VERSIONS: dict[str, tuple[str, object, str]] = {
    "darwin-major-minor": ("darwin", "13.0", ""),
    "darwin-major": ("darwin", "14", ""),
    "darwin-patch": ("darwin", "12.7.1", ""),
    "win32-build": ("win32", "10.0.19041", ""),
    "win32-four-parts": ("win32", "10.0.22631.2861", ""),
    "nine-digit-part": ("win32", "10.0.123456789", ""),
    "ten-digit-part": ("win32", "10.0.1234567890", "bad_version"),
    "name": ("darwin", "Ventura", "bad_version"),
    "v-prefix": ("darwin", "v13", "bad_version"),
    "trailing-dot": ("darwin", "13.", "bad_version"),
    "letter-part": ("darwin", "13.x", "bad_version"),
    "trailing-space": ("darwin", "13.0 ", "bad_version"),
    "trailing-newline": ("win32", "10.0\n", "bad_version"),
    "empty": ("win32", "", "bad_version"),
    "float": ("darwin", 13.0, "wrong_type"),
    "int": ("darwin", 13, "wrong_type"),
    "list": ("win32", ["10.0"], "wrong_type"),
}


@pytest.mark.parametrize(
    ("os_family", "value", "code"), rows(MIN_OS_VERSIONS), ids=list(MIN_OS_VERSIONS)
)
def test_min_os_version(os_family: str, value: object, code: str) -> None:
    raw_app = one_os(os_family, min_os_version=value)
    if not code:
        app_def = parse(raw_app).app_for(os_family)
        assert app_def is not None
        assert app_def.min_os_version == value
    else:
        assert issues_of(raw_app) == [(f"app.{os_family}.min_os_version", code)]


LINUX_MIN_OS_VERSIONS: dict[str, object] = {
    "version": "6.1",
    "distribution-version": "22.04",
    "malformed": "jammy",
    "int": 6,
}


@pytest.mark.parametrize("value", rows1(LINUX_MIN_OS_VERSIONS), ids=list(LINUX_MIN_OS_VERSIONS))
def test_min_os_version_is_refused_under_linux(value: object) -> None:
    issue = error_of(one_os("linux", min_os_version=value)).issues[0]
    assert (issue.loc, issue.code) == ("app.linux.min_os_version", "min_os_version_linux")
    assert issue.message.startswith(
        "is not accepted under app.linux: Linux distributions share no OS version to compare "
        "against; set it under app.win32 or app.darwin (got "
    )


@pytest.mark.parametrize("os_family", ["win32", "darwin", "linux"])
def test_min_os_version_null_is_absent(os_family: str) -> None:
    app_def = parse(one_os(os_family, min_os_version=None)).app_for(os_family)
    assert app_def is not None
    assert app_def.min_os_version is None


# --- app.<os>.install: each package manager's own naming rules ---------------------------------

WINGET_IDS: dict[str, tuple[str, bool]] = {
    "publisher-package": ("Vendor.Studio", True),
    "long-package": ("Microsoft.VisualStudioCode", True),
    "plus-signs": ("Notepad++.Notepad++", True),
    "three-parts": ("Mozilla.Firefox.ESR", True),
    "digits-first": ("7zip.7zip", True),
    "underscore-and-hyphen": ("Vendor_1.Studio-Beta", True),
    "eight-parts": ("a.b.c.d.e.f.g.h", True),
    "thirty-two-character-part": ("Vendor." + "S" * 32, True),
    "one-part": ("VendorStudio", False),
    "nine-parts": ("a.b.c.d.e.f.g.h.i", False),
    "thirty-three-character-part": ("Vendor." + "S" * 33, False),
    "longer-than-128": (".".join(["S" * 32] * 4), False),
    "empty-part": ("Vendor..Studio", False),
    "leading-dot": (".Vendor.Studio", False),
    "trailing-dot": ("Vendor.Studio.", False),
    "space": ("Vendor Studio.App", False),
    "leading-hyphen": ("-Vendor.Studio", False),
    "slash": ("Vendor/Studio.App", False),
    "colon": ("Vendor.Studio:1", False),
    "non-ascii": ("Vendor.Stüdio", False),
    "trailing-newline": ("Vendor.Studio\n", False),
    "empty": ("", False),
}


CASK_TOKENS: dict[str, tuple[str, bool]] = {
    "hyphenated": ("vendor-studio", True),
    "underscore": ("vendor_studio", True),
    "digit-first": ("1password", True),
    "at-suffix": ("vendor-studio@beta", True),
    "at-version": ("temurin@17", True),
    "at-dotted": ("vendor@2.1", True),
    "tapped": ("vendor/tap/vendor-studio", True),
    "tapped-capital-user": ("Vendor/homebrew-tap/studio", True),
    "capital": ("Vendor-Studio", False),
    "space": ("vendor studio", False),
    "leading-hyphen": ("-vendor", False),
    "dot": ("vendor.studio", False),
    "plus": ("vendor+plus", False),
    "empty-at": ("vendor@", False),
    "capital-after-at": ("vendor@Beta", False),
    "two-parts": ("vendor/studio", False),
    "four-parts": ("a/b/c/d", False),
    "longer-than-128": ("v" * 129, False),
    "empty": ("", False),
}


FORMULAS: dict[str, tuple[str, bool]] = {
    "hyphenated": ("vendor-cli", True),
    "versioned": ("python@3.12", True),
    "plus-signs": ("libxml++", True),
    "plus-digit": ("gtk+3", True),
    "tapped": ("vendor/tap/vendor-cli", True),
    "capital": ("Vendor", False),
    "space": ("vendor cli", False),
    "leading-hyphen": ("-vendor", False),
    "leading-dot": (".vendor", False),
    "leading-at": ("@vendor", False),
    "two-parts": ("vendor/tap", False),
    "backslashes": ("vendor\\tap\\cli", False),
    "longer-than-128": ("v" * 129, False),
    "empty": ("", False),
}


FLATPAK_IDS: dict[str, tuple[str, bool]] = {
    "three-parts": ("com.vendor.Studio", True),
    "repeated-name": ("org.inkwell.Inkwell", True),
    "underscores": ("io.github.user_name.App", True),
    "hyphen-in-last-part": ("org.example.App-Beta", True),
    "underscore-first": ("_a.b.c", True),
    "digits-inside": ("org.example2.App3", True),
    "two-hundred-fifty-five": ("a." + "b" * 251 + ".c", True),
    "two-parts": ("com.vendor", False),
    "hyphen-before-last-part": ("com.ven-dor.Studio", False),
    "digit-first-part": ("com.1vendor.Studio", False),
    "empty-part": ("com..Studio", False),
    "leading-dot": (".com.vendor.Studio", False),
    "trailing-dot": ("com.vendor.Studio.", False),
    "non-ascii": ("com.vendor.Stüdio", False),
    "space": ("com.vendor.Studio App", False),
    "two-hundred-fifty-six": ("a." + "b" * 252 + ".c", False),
    "empty": ("", False),
}


REMOTES: dict[str, tuple[object, bool]] = {
    "flathub": ("flathub", True),
    "hyphenated": ("flathub-beta", True),
    "underscore": ("gnome_nightly", True),
    "dotted": ("my.remote", True),
    "empty": ("", False),
    "leading-hyphen": ("-flathub", False),
    "leading-dot": (".hidden", False),
    "space": ("flat hub", False),
    "slash": ("flathub/x", False),
    "longer-than-255": ("r" * 256, False),
}


@pytest.mark.parametrize(("value", "valid"), rows(REMOTES), ids=list(REMOTES))
def test_flatpak_remote(value: object, valid: bool) -> None:
    raw_app = one_os("linux", install={"flatpak": "com.vendor.Studio", "remote": value})
    if valid:
        hints = _hints(raw_app, "linux")
        assert hints is not None
        assert hints[0].install_command == f"flatpak install {value} com.vendor.Studio"
    else:
        assert issues_of(raw_app) == [("app.linux.install.remote", "bad_flatpak_remote")]


SNAP_NAMES: dict[str, tuple[str, bool]] = {
    "hyphenated": ("vendor-studio", True),
    "plain": ("vendor", True),
    "two-letters": ("ab", True),
    "letter-digit": ("a1", True),
    "digit-letter": ("1a", True),
    "forty-characters": ("v" * 40, True),
    "one-letter": ("a", False),
    "forty-one-characters": ("v" * 41, False),
    "capital": ("Vendor", False),
    "leading-hyphen": ("-vendor", False),
    "trailing-hyphen": ("vendor-", False),
    "double-hyphen": ("ven--dor", False),
    "digits-only": ("12345", False),
    "underscore": ("vendor_studio", False),
    "dot": ("vendor.studio", False),
    "empty": ("", False),
}


#: Each package manager's key: the OS blocks it is valid under, the code of a bad name, the names.
PACKAGE_NAMES: dict[str, tuple[tuple[str, ...], str, dict[str, tuple[str, bool]]]] = {
    "winget": (("win32",), "bad_winget_id", WINGET_IDS),
    "brew_cask": (("darwin",), "bad_cask_token", CASK_TOKENS),
    "brew": (("darwin", "linux"), "bad_formula", FORMULAS),
    "flatpak": (("linux",), "bad_flatpak_id", FLATPAK_IDS),
    "snap": (("linux",), "bad_snap_name", SNAP_NAMES),
}
PACKAGE_NAME_CASES = {
    f"{key}-{os_family}-{case}": (os_family, key, value, "" if valid else code)
    for key, (os_families, code, table) in PACKAGE_NAMES.items()
    for os_family in os_families
    for case, (value, valid) in table.items()
}


@pytest.mark.parametrize(
    ("os_family", "key", "value", "code"), rows(PACKAGE_NAME_CASES), ids=list(PACKAGE_NAME_CASES)
)
def test_package_name(os_family: str, key: str, value: str, code: str) -> None:
    raw_app = one_os(os_family, install={key: value})
    if not code:
        hints = _hints(raw_app, os_family)
        assert hints is not None
        assert (hints[0].KEY, hints[0].target) == (key, value)
    else:
        assert issues_of(raw_app) == [(f"app.{os_family}.install.{key}", code)]


URLS: dict[str, tuple[str, str]] = {
    "page": ("https://vendor.example/studio/download", ""),
    "host-only": ("https://vendor.example", ""),
    "port-query-fragment": ("https://vendor.example:8443/x?y=1#z", ""),
    "ipv6": ("https://[2001:db8::1]/download", ""),
    "trailing-dot-host": ("https://vendor.example./", ""),
    "punycode-host": ("https://xn--bcher-kva.example/", ""),
    "at-in-path": ("https://vendor.example/@studio", ""),
    "percent-escapes": ("https://vendor.example/Vendor%20Studio.dmg", ""),
    "http": ("http://vendor.example/download", "url_not_https"),
    "capital-scheme": ("HTTPS://vendor.example/", "url_not_https"),
    "ftp": ("ftp://vendor.example/studio.zip", "url_not_https"),
    "no-scheme": ("vendor.example/download", "url_not_https"),
    "javascript": ("javascript:alert(1)", "url_not_https"),
    "user-and-password": ("https://user:secret@vendor.example/", "url_userinfo"),
    "user": ("https://user@vendor.example/", "url_userinfo"),
    "space-before-host": ("https:// vendor.example", "url_bad_character"),
    "space-in-path": ("https://vendor.example/a b", "url_bad_character"),
    "newline": ("https://vendor.example/\n", "url_bad_character"),
    "backslash": ("https://vendor.example\\@evil.example/", "url_bad_character"),
    "right-to-left-override": ("https://vendor.example/\u202egpj.exe", "url_bad_character"),
    "no-host": ("https://", "url_bad_host"),
    "empty-host": ("https:///download", "url_bad_host"),
    "hyphen-first-label": ("https://-vendor.example/", "url_bad_host"),
    "named-port": ("https://vendor.example:https/", "url_bad_host"),
    "non-ascii-host": ("https://bücher.example/", "url_bad_host"),
    "longer-than-2048": ("https://vendor.example/" + "a" * 2048, "text_too_long"),
}


@pytest.mark.parametrize(("value", "code"), rows(URLS), ids=list(URLS))
@pytest.mark.parametrize("os_family", ["win32", "darwin", "linux"])
def test_url(os_family: str, value: str, code: str) -> None:
    raw_app = one_os(os_family, install={"url": value})
    if not code:
        hints = _hints(raw_app, os_family)
        assert hints is not None
        assert hints[0].target == value
    else:
        assert issues_of(raw_app) == [(f"app.{os_family}.install.url", code)]


def test_url_messages() -> None:
    raw_app = one_os("linux", install=[{"url": "http://x.example"}, {"url": "https://u:p@x"}])
    assert [issue.message for issue in error_of(raw_app).issues] == [
        "must be an https:// URL (got 'http://x.example')",
        "must not carry a user name or password before the host (got 'https://u:p@x')",
    ]


# --- app.<os>.install: shapes, OS, and what a hint says ----------------------------------------

WINGET = {"winget": "Vendor.Studio"}
URL = {"url": "https://vendor.example/download"}

INSTALL_SHAPES: dict[str, tuple[str, object, list[tuple[str, str]]]] = {
    "empty-list": ("win32", [], [("app.win32.install", "empty")]),
    "string": ("win32", "Vendor.Studio", [("app.win32.install", "wrong_type")]),
    "string-item": ("win32", [WINGET, "Vendor.Studio"], [("app.win32.install[1]", "wrong_type")]),
    "list-item": ("win32", [[WINGET]], [("app.win32.install[0]", "wrong_type")]),
    "bool": ("linux", True, [("app.linux.install", "wrong_type")]),
    "empty-mapping": ("win32", {}, [("app.win32.install", "missing_key")]),
    "only-null-manager": ("win32", {"winget": None}, [("app.win32.install", "missing_key")]),
    "unrelated-key": ("win32", {"package": "x"}, [("app.win32.install", "missing_key")]),
    "misspelt-manager": ("win32", {"wingett": "x"}, [("app.win32.install.wingett", "unknown_key")]),
    "misspelt-cask": (
        "darwin",
        [URL, {"brew-cask": "vendor"}],
        [('app.darwin.install[1]["brew-cask"]', "unknown_key")],
    ),
    "two-managers": ("win32", {**WINGET, **URL}, [("app.win32.install", "hint_ambiguous")]),
    "remote-on-winget": (
        "win32",
        {**WINGET, "remote": "flathub"},
        [("app.win32.install.remote", "unknown_key")],
    ),
    "null-beside-manager": (
        "win32",
        {"winget": None, **URL},
        [("app.win32.install.winget", "unknown_key")],
    ),
    "winget-not-string": ("win32", {"winget": 3}, [("app.win32.install.winget", "wrong_type")]),
    "winget-on-darwin": ("darwin", WINGET, [("app.darwin.install", "hint_wrong_os")]),
    "winget-on-linux": ("linux", [URL, WINGET], [("app.linux.install[1]", "hint_wrong_os")]),
    "cask-on-win32": ("win32", {"brew_cask": "x"}, [("app.win32.install", "hint_wrong_os")]),
    "cask-on-linux": ("linux", {"brew_cask": "x"}, [("app.linux.install", "hint_wrong_os")]),
    "brew-on-win32": ("win32", {"brew": "x"}, [("app.win32.install", "hint_wrong_os")]),
    "flatpak-on-darwin": (
        "darwin",
        {"flatpak": "com.vendor.Studio"},
        [("app.darwin.install", "hint_wrong_os")],
    ),
    "snap-on-win32": ("win32", {"snap": "vendor"}, [("app.win32.install", "hint_wrong_os")]),
    "every-problem-at-once": (
        "linux",
        [{"snap": "-x"}, WINGET, {"flatpak": "a.b"}, {}],
        [
            ("app.linux.install[0].snap", "bad_snap_name"),
            ("app.linux.install[1]", "hint_wrong_os"),
            ("app.linux.install[2].flatpak", "bad_flatpak_id"),
            ("app.linux.install[3]", "missing_key"),
        ],
    ),
}


@pytest.mark.parametrize(
    ("os_family", "install", "expected"), rows(INSTALL_SHAPES), ids=list(INSTALL_SHAPES)
)
def test_install_shape(os_family: str, install: object, expected: list[tuple[str, str]]) -> None:
    assert issues_of(one_os(os_family, install=install)) == expected


def test_install_messages() -> None:
    raw_app = one_os(
        "darwin", install=[WINGET, {**URL, "brew": "vendor"}, {"brw": "vendor"}, {"x": 1}]
    )
    assert [(issue.loc, issue.message) for issue in error_of(raw_app).issues] == [
        ("app.darwin.install[0]", "'winget' is only valid under app.win32"),
        ("app.darwin.install[1]", "must name one package manager (got 'brew' and 'url')"),
        ("app.darwin.install[2].brw", "unknown key (did you mean 'brew'?)"),
        (
            "app.darwin.install[3]",
            "must be a mapping naming one package manager: 'brew_cask', 'brew' or 'url' "
            "(got {'x': 1})",
        ),
    ]


VALID_INSTALLS: dict[str, tuple[str, object, list[str]]] = {
    "lone-winget": ("win32", WINGET, ["winget"]),
    "winget-then-url": ("win32", [WINGET, URL], ["winget", "url"]),
    "cask-brew-url": (
        "darwin",
        [{"brew_cask": "vendor-studio"}, {"brew": "vendor-cli"}, URL],
        ["brew_cask", "brew", "url"],
    ),
    "linux-everything": (
        "linux",
        [{"flatpak": "com.vendor.Studio"}, {"snap": "vendor"}, {"brew": "vendor"}, URL],
        ["flatpak", "snap", "brew", "url"],
    ),
    "null-remote-is-flathub": (
        "linux",
        {"flatpak": "com.vendor.Studio", "remote": None},
        ["flatpak"],
    ),
}


@pytest.mark.parametrize(
    ("os_family", "install", "keys"), rows(VALID_INSTALLS), ids=list(VALID_INSTALLS)
)
def test_valid_install(os_family: str, install: object, keys: list[str]) -> None:
    hints = _hints(one_os(os_family, install=install), os_family)
    assert isinstance(hints, tuple)
    assert [hint.KEY for hint in hints] == keys


def test_install_null_or_absent_is_none() -> None:
    assert _hints(one_os("win32"), "win32") is None
    assert _hints(one_os("win32", install=None), "win32") is None


COMMANDS: dict[str, tuple[str, dict[str, str], str | None, str | None]] = {
    "winget": (
        "win32",
        WINGET,
        "winget install --exact --id Vendor.Studio",
        "winget upgrade --exact --id Vendor.Studio",
    ),
    "brew-cask": (
        "darwin",
        {"brew_cask": "vendor-studio"},
        "brew install --cask vendor-studio",
        "brew upgrade --cask vendor-studio",
    ),
    "brew-cask-tapped": (
        "darwin",
        {"brew_cask": "vendor/tap/studio"},
        "brew install --cask vendor/tap/studio",
        "brew upgrade --cask vendor/tap/studio",
    ),
    "brew": ("linux", {"brew": "vendor-cli"}, "brew install vendor-cli", "brew upgrade vendor-cli"),
    "flatpak-default-remote": (
        "linux",
        {"flatpak": "com.vendor.Studio"},
        "flatpak install flathub com.vendor.Studio",
        "flatpak update com.vendor.Studio",
    ),
    "flatpak-named-remote": (
        "linux",
        {"flatpak": "com.vendor.Studio", "remote": "vendor-repo"},
        "flatpak install vendor-repo com.vendor.Studio",
        "flatpak update com.vendor.Studio",
    ),
    "snap": (
        "linux",
        {"snap": "vendor-studio"},
        "snap install vendor-studio",
        "snap refresh vendor-studio",
    ),
    "url": ("win32", URL, None, None),
}


@pytest.mark.parametrize(
    ("os_family", "hint", "install", "update"), rows(COMMANDS), ids=list(COMMANDS)
)
def test_what_a_hint_tells_a_person_to_type(
    os_family: str, hint: dict[str, str], install: str | None, update: str | None
) -> None:
    hints = _hints(one_os(os_family, install=hint), os_family)
    assert hints is not None
    assert (hints[0].install_command, hints[0].update_command) == (install, update)


# --- requires.arch ------------------------------------------------------------------------------

VALID_ARCHES: dict[str, tuple[object, tuple[str, ...] | None]] = {
    "x86_64": ("x86_64", ("x86_64",)),
    "arm64": ("arm64", ("arm64",)),
    "list-of-one": (["arm64"], ("arm64",)),
    "both": (["x86_64", "arm64"], ("x86_64", "arm64")),
    "both-reversed": (["arm64", "x86_64"], ("arm64", "x86_64")),
    "null-is-absent": (None, None),
}


@pytest.mark.parametrize(("value", "stored"), rows(VALID_ARCHES), ids=list(VALID_ARCHES))
def test_valid_arch(value: object, stored: tuple[str, ...] | None) -> None:
    assert parse(None, {"arch": value}).requires.arch == stored
    assert parse({"linux": LINUX}, {"app": True, "arch": value}).requires.arch == stored


INVALID_ARCHES: dict[str, tuple[object, list[tuple[str, str]]]] = {
    "amd64": ("amd64", [("requires.arch", "invalid_choice")]),
    "aarch64": ("aarch64", [("requires.arch", "invalid_choice")]),
    "capitalised": ("ARM64", [("requires.arch", "invalid_choice")]),
    "x86": ("x86", [("requires.arch", "invalid_choice")]),
    "empty-string": ("", [("requires.arch", "invalid_choice")]),
    "empty-list": ([], [("requires.arch", "empty")]),
    "repeated": (["arm64", "arm64"], [("requires.arch[1]", "duplicate")]),
    "bad-item": (["x86_64", "amd64"], [("requires.arch[1]", "invalid_choice")]),
    "every-problem-at-once": (
        ["x86_64", "x64", "x86_64", 64],
        [
            ("requires.arch[1]", "invalid_choice"),
            ("requires.arch[2]", "duplicate"),
            ("requires.arch[3]", "wrong_type"),
        ],
    ),
    "int": (64, [("requires.arch", "wrong_type")]),
    "bool": (True, [("requires.arch", "wrong_type")]),
    "mapping": ({"x86_64": True}, [("requires.arch", "wrong_type")]),
    "nested-list": (["x86_64", ["arm64"]], [("requires.arch[1]", "wrong_type")]),
}


@pytest.mark.parametrize(("value", "expected"), rows(INVALID_ARCHES), ids=list(INVALID_ARCHES))
def test_invalid_arch(value: object, expected: list[tuple[str, str]]) -> None:
    assert issues_of(None, {"arch": value}) == expected


ARCH_MESSAGES: dict[str, tuple[str, str]] = {
    "amd64": ("amd64", "must be 'x86_64' or 'arm64' (got 'amd64'; write 'x86_64')"),
    "x64": ("x64", "must be 'x86_64' or 'arm64' (got 'x64'; write 'x86_64')"),
    "aarch64": ("aarch64", "must be 'x86_64' or 'arm64' (got 'aarch64'; write 'arm64')"),
    "capitalised": ("ARM64", "must be 'x86_64' or 'arm64' (got 'ARM64'; write 'arm64')"),
    "typo": ("arm46", "must be 'x86_64' or 'arm64' (got 'arm46'; did you mean 'arm64'?)"),
    "other": ("riscv64", "must be 'x86_64' or 'arm64' (got 'riscv64')"),
    "32-bit-arm": ("arm", "must be 'x86_64' or 'arm64' (got 'arm'; a 32-bit processor is neither)"),
    "32-bit-armhf": (
        "armhf",
        "must be 'x86_64' or 'arm64' (got 'armhf'; a 32-bit processor is neither)",
    ),
    "32-bit-x86": ("x86", "must be 'x86_64' or 'arm64' (got 'x86'; a 32-bit processor is neither)"),
}


@pytest.mark.parametrize(("value", "message"), rows(ARCH_MESSAGES), ids=list(ARCH_MESSAGES))
def test_arch_messages_name_the_spelling_to_use(value: str, message: str) -> None:
    assert [issue.message for issue in error_of(None, {"arch": value}).issues] == [message]


# --- positions in a file --------------------------------------------------------------------------

LANGUAGE_1_1_FILE = textwrap.dedent(
    """\
    vendor-studio:
      app:
        display_name: " Vendor Studio"
        win32:
          presence: executable
          location: "C:/Vendor/studio.exe"
          min_os_version: "10.0.x"
          install: [{ winget: Vendor.Studio }, { snap: vendor }]
        linux:
          presence: executable
          location: /opt/vendor/studio
          min_os_version: "6.1"
          install:
            - { flatpak: com.vendor.Studio, remote: "-x" }
      requires:
        arch: [x86_64, amd64]
    """
)


def test_each_problem_is_placed_at_its_line_and_column() -> None:
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text(LANGUAGE_1_1_FILE, where="plugin.yaml")
    found = [(issue.loc, issue.code, issue.line, issue.column) for issue in caught.value.issues]
    assert found == [
        ('["vendor-studio"].app.display_name', "surrounding_whitespace", 3, 19),
        ('["vendor-studio"].app.win32.min_os_version', "bad_version", 7, 23),
        ('["vendor-studio"].app.win32.install[1]', "hint_wrong_os", 8, 44),
        ('["vendor-studio"].app.linux.min_os_version', "min_os_version_linux", 12, 23),
        ('["vendor-studio"].app.linux.install[0].remote', "bad_flatpak_remote", 14, 49),
        ('["vendor-studio"].requires.arch[1]', "invalid_choice", 16, 20),
    ]
