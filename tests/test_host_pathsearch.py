"""search_path: the PATH lookup every host shares, tested as the pure function it is."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from hermes_decl.resolver.pathsearch import DEFAULT_PATHEXT, MAX_PATH_ENTRIES, search_path


class Files:
    """An ``is_file`` over a fixed set of paths that records every path it is asked about."""

    def __init__(self, paths: Iterable[str], *, fold_case: bool = False) -> None:
        self.fold_case = fold_case
        self.known = {self._fold(p) for p in paths}
        self.asked: list[str] = []

    def _fold(self, path: str) -> str:
        return path.lower() if self.fold_case else path

    def __call__(self, path: str) -> bool:
        self.asked.append(path)
        return self._fold(path) in self.known


def test_posix_finds_the_first_directory_that_has_it() -> None:
    is_file = Files(["/usr/bin/tool", "/opt/bin/tool"])
    found = search_path("tool", os_family="linux", path="/opt/bin:/usr/bin", is_file=is_file)
    assert found == "/opt/bin/tool"


def test_posix_missing_command_is_none() -> None:
    assert search_path("nope", os_family="linux", path="/bin", is_file=Files([])) is None


@pytest.mark.parametrize("path", [None, "", ":", "::"])
def test_no_path_searches_nothing(path: str | None) -> None:
    is_file = Files(["/tool"])
    assert search_path("tool", os_family="darwin", path=path, is_file=is_file) is None
    assert is_file.asked == []


def test_empty_and_relative_entries_never_search_the_current_directory() -> None:
    is_file = Files(["tool", "./tool", "bin/tool", "/usr/bin/tool"])
    path = ":.:bin::/usr/bin:"
    assert search_path("tool", os_family="linux", path=path, is_file=is_file) == "/usr/bin/tool"
    assert is_file.asked == ["/usr/bin/tool"]


@pytest.mark.parametrize("name", ["bin/tool", "/usr/bin/tool", "", ".", "..", "to\0ol"])
def test_posix_names_with_a_separator_or_odd_are_not_searched(name: str) -> None:
    is_file = Files(["/usr/bin/tool", "/usr/bin/bin/tool"])
    assert search_path(name, os_family="linux", path="/usr/bin", is_file=is_file) is None
    assert is_file.asked == []


def test_posix_backslash_is_an_ordinary_character() -> None:
    is_file = Files(["/usr/bin/a\\b"])
    assert search_path("a\\b", os_family="linux", path="/usr/bin", is_file=is_file) == (
        "/usr/bin/a\\b"
    )


def test_duplicate_entries_are_searched_once() -> None:
    is_file = Files([])
    search_path("tool", os_family="linux", path="/bin:/bin:/usr/bin:/bin", is_file=is_file)
    assert is_file.asked == ["/bin/tool", "/usr/bin/tool"]


def test_path_entries_are_bounded() -> None:
    path = ":".join(f"/d{i}" for i in range(MAX_PATH_ENTRIES + 50))
    is_file = Files([f"/d{MAX_PATH_ENTRIES + 10}/tool"])
    assert search_path("tool", os_family="linux", path=path, is_file=is_file) is None
    assert len(is_file.asked) == MAX_PATH_ENTRIES


def test_win32_uses_semicolons_pathext_and_ntpath_joins() -> None:
    is_file = Files([r"C:\Tools\tool.CMD"], fold_case=True)
    found = search_path(
        "tool", os_family="win32", path=r"C:\Windows;C:\Tools", pathext=None, is_file=is_file
    )
    assert found == r"C:\Tools\tool.CMD"
    extensions = DEFAULT_PATHEXT.split(";")
    assert is_file.asked[: len(extensions)] == [rf"C:\Windows\tool{e}" for e in extensions]


def test_win32_pathext_order_is_respected() -> None:
    is_file = Files([r"C:\bin\tool.EXE", r"C:\bin\tool.BAT"], fold_case=True)
    found = search_path(
        "tool", os_family="win32", path="C:\\bin", pathext=".BAT;.EXE", is_file=is_file
    )
    assert found == r"C:\bin\tool.BAT"


def test_win32_name_with_a_pathext_extension_is_looked_up_as_is_ignoring_case() -> None:
    is_file = Files([r"C:\bin\tool.exe"], fold_case=True)
    found = search_path("tool.Exe", os_family="win32", path="C:\\bin", is_file=is_file)
    assert found == r"C:\bin\tool.Exe"
    assert is_file.asked == [r"C:\bin\tool.Exe"]


def test_win32_name_with_another_dot_gets_the_extensions() -> None:
    is_file = Files([r"C:\Python\python3.11.exe"], fold_case=True)
    found = search_path("python3.11", os_family="win32", path="C:\\Python", is_file=is_file)
    assert found is not None
    assert found.lower() == r"c:\python\python3.11.exe"


def test_win32_pathext_entries_are_cleaned() -> None:
    is_file = Files([r"C:\bin\tool.ps1"], fold_case=True)
    found = search_path(
        "tool", os_family="win32", path="C:\\bin", pathext=" ps1 ;;.PS1;..\\x;", is_file=is_file
    )
    assert found == r"C:\bin\tool.ps1"
    assert is_file.asked == [r"C:\bin\tool.ps1"]


def test_win32_blank_pathext_falls_back_to_the_default() -> None:
    is_file = Files([r"C:\bin\tool.COM"], fold_case=True)
    found = search_path("tool", os_family="win32", path="C:\\bin", pathext=" ; ", is_file=is_file)
    assert found == r"C:\bin\tool.COM"


@pytest.mark.parametrize(
    "entry",
    [
        "",
        ".",
        "Tools",
        r"\Tools",
        "C:Tools",
        r"\\server\share\bin",
        r"\\?\C:\Tools",
        "//server/share",
        "1:\\Tools",
    ],
)
def test_win32_only_drive_rooted_entries_are_searched(entry: str) -> None:
    is_file = Files([])
    search_path("tool", os_family="win32", path=entry, is_file=is_file)
    assert is_file.asked == []


def test_win32_quoted_and_forward_slash_entries_work() -> None:
    is_file = Files([r"C:\Program Files\Vendor\tool.EXE", "D:/bin\\tool.EXE"], fold_case=True)
    path = '"C:\\Program Files\\Vendor";D:/bin'
    found = search_path("tool", os_family="win32", path=path, is_file=is_file)
    assert found == r"C:\Program Files\Vendor\tool.EXE"


def test_win32_duplicates_ignore_case() -> None:
    is_file = Files([])
    search_path("tool.exe", os_family="win32", path=r"C:\Bin;c:\bin;C:\BIN\..\bin", is_file=is_file)
    assert is_file.asked == [r"C:\Bin\tool.exe", r"C:\BIN\..\bin\tool.exe"]


@pytest.mark.parametrize("name", [r"bin\tool", "bin/tool", "C:tool", r"C:\tool", "a:b"])
def test_win32_names_with_a_separator_or_drive_are_not_searched(name: str) -> None:
    is_file = Files([r"C:\bin\tool.exe"], fold_case=True)
    assert search_path(name, os_family="win32", path="C:\\bin", is_file=is_file) is None
    assert is_file.asked == []


WINDOWS_DEVICES: dict[str, tuple[str, str]] = {
    "name-nul": ("nul", "C:\\bin"),
    "name-con-with-extension": ("CON.exe", "C:\\bin"),
    "name-com1-any-case": ("Com1", "C:\\bin"),
    "name-aux-trailing-dot": ("aux.", "C:\\bin"),
    "entry-device-folder": ("tool", "C:\\CON"),
    "entry-device-with-extension": ("tool", "C:\\Tools\\nul.txt\\bin"),
    "entry-device-trailing-spaces": ("tool", "C:\\x\\LPT1  "),
    "entry-conout": ("tool", "C:/conout$/bin"),
}


@pytest.mark.parametrize(("name", "path"), WINDOWS_DEVICES.values(), ids=list(WINDOWS_DEVICES))
def test_win32_never_touches_a_device_name(name: str, path: str) -> None:
    # Windows opens CON, NUL, COM1… (any extension) as devices in every folder.
    is_file = Files([f"{path}\\{name}.exe"], fold_case=True)
    assert search_path(name, os_family="win32", path=path, is_file=is_file) is None
    assert is_file.asked == []


def test_device_names_are_ordinary_on_posix() -> None:
    is_file = Files(["/CON/nul"])
    assert search_path("nul", os_family="linux", path="/CON", is_file=is_file) == "/CON/nul"
