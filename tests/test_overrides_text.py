"""Adding a place to the overrides text: checked first, other entries kept with their comments."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_decl.errors import DeclarationError
from hermes_decl.loader import read_document
from hermes_decl.overrides_text import HEADER, check_override, parse_overrides, with_override

EXISTING = """\
# my overrides
# the studio on the USB disk
vendor-studio:   # note on the key
  linux: /media/usb/studio   # old place
  # a comment inside the entry
  darwin:
    - /Volumes/usb/Studio.app

# another one, written by hand
other-tool:
  linux: [/opt/other]   # keep me
"""


def test_a_new_file_starts_with_a_header() -> None:
    text = with_override(None, "vendor-studio", "linux", "~/apps/vs/bin/vs", where="o.yaml")
    assert text == HEADER + "vendor-studio:\n  linux:\n  - ~/apps/vs/bin/vs\n"
    assert (
        with_override("", "vs", "linux", "/x", where="o.yaml") == HEADER + "vs:\n  linux:\n  - /x\n"
    )


def test_a_new_server_is_appended_and_everything_else_kept_byte_for_byte() -> None:
    text = with_override(EXISTING, "new-tool", "win32", "%LOCALAPPDATA%\\New\\new.exe", where="o")
    assert text == EXISTING + "new-tool:\n  win32:\n  - '%LOCALAPPDATA%\\New\\new.exe'\n"


def test_a_file_without_a_final_newline_gets_one_before_the_new_entry() -> None:
    text = with_override("a: {linux: /a}", "b", "linux", "/b", where="o")
    assert text == "a: {linux: /a}\nb:\n  linux:\n  - /b\n"


def test_an_existing_server_gets_the_place_first_and_other_entries_keep_their_comments() -> None:
    text = with_override(EXISTING, "vendor-studio", "linux", "~/apps/vs/bin/vs", where="o")
    assert text == (
        "# my overrides\n"
        "# the studio on the USB disk\n"
        "vendor-studio:\n"
        "  linux:\n"
        "  - ~/apps/vs/bin/vs\n"
        "  - /media/usb/studio\n"
        "  darwin:\n"
        "  - /Volumes/usb/Studio.app\n"
        "\n"
        "# another one, written by hand\n"
        "other-tool:\n"
        "  linux: [/opt/other]   # keep me\n"
    )


def test_a_new_os_for_an_existing_server() -> None:
    text = with_override(EXISTING, "other-tool", "win32", "D:\\Other\\other.exe", where="o")
    assert text is not None and text.endswith(
        "other-tool:\n  linux:\n  - /opt/other\n  win32:\n  - D:\\Other\\other.exe\n"
    )
    assert text.startswith(EXISTING.split("other-tool:")[0])


def test_a_place_already_listed_changes_nothing() -> None:
    assert with_override(EXISTING, "vendor-studio", "linux", "/media/usb/studio", where="o") is None


@pytest.mark.parametrize(
    "text",
    [
        '{"vendor-studio": {"linux": "/media/usb/studio"}}',
        "{vendor-studio: {linux: /a}, b: {linux: /b}}",
    ],
    ids=["json", "flow-mapping"],
)
def test_a_file_that_cannot_be_edited_line_by_line_is_written_afresh(text: str) -> None:
    edited = with_override(text, "vendor-studio", "linux", "/new", where="o")
    assert edited is not None and edited.startswith(HEADER)
    data = read_document(edited).data
    assert isinstance(data, dict)
    assert data["vendor-studio"]["linux"][0] == "/new"


def test_an_invalid_file_is_never_rewritten() -> None:
    with pytest.raises(DeclarationError) as raised:
        with_override("vs:\n  linux: relative\n", "vs", "linux", "/x", where="o.yaml")
    assert str(raised.value) == (
        "o.yaml:2:10: vs.linux: must start with /, ~ or $VAR (got 'relative'; to find a command "
        "on PATH use {kind: command, name: relative})"
    )


@pytest.mark.parametrize(
    ("os_family", "place", "message"),
    [
        (
            "linux",
            "apps/vs",
            "o: [\"vendor-studio\"].linux: must start with /, ~ or $VAR (got 'apps/vs')",
        ),
        (
            "win32",
            "/opt/vs.exe",
            'o: ["vendor-studio"].win32: must start at a drive root (C:\\ or C:/), '
            "or with ~, %VAR% or "
            "$VAR (got '/opt/vs.exe')",
        ),
        (
            "darwin",
            "/Apps/../VS.app",
            'o: ["vendor-studio"].darwin: '
            "must not contain a '..' segment (got '/Apps/../VS.app')",
        ),
    ],
    ids=["relative", "posix-path-under-win32", "parent-segment"],
)
def test_the_place_is_checked_by_the_declaration_rules_first(
    os_family: str, place: str, message: str
) -> None:
    with pytest.raises(DeclarationError) as raised:
        with_override(EXISTING, "vendor-studio", os_family, place, where="o")  # type: ignore[arg-type]
    assert str(raised.value) == message


def _valid(server: str, place: str) -> bool:
    try:
        check_override(server, "linux", place, where="o")
    except DeclarationError:
        return False
    return True


NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_ 0123456789#:", min_size=1, max_size=12)
PLACES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_ .*#:'\"", min_size=1, max_size=12).map(
    lambda tail: "/opt/" + tail.strip()
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(NAMES, PLACES), min_size=1, max_size=4))
def test_every_addition_reads_back_as_meant(additions: list[tuple[str, str]]) -> None:
    text: str | None = EXISTING
    expected: dict[str, list[str]] = {}
    for server, place in additions:
        if not _valid(server, place):
            continue  # the rules are tested above
        edited = with_override(text, server, "linux", place, where="o")
        if edited is not None:
            text = edited
            expected.setdefault(server, [])
            expected[server].insert(0, place)
    assert text is not None
    parsed = parse_overrides(text, where="o")
    for server, places in expected.items():
        found = [getattr(p, "path", "") for p in parsed[server].for_os("linux")]
        assert found[: len(places)] == places
    assert [getattr(p, "path", "") for p in parsed["other-tool"].for_os("linux")][
        -1
    ] == "/opt/other"


def test_a_quoted_server_name_is_edited_in_place() -> None:
    text = '"my: server":  # quoted\n  linux: /a\n# keep\nb: {linux: /b}  # and this\n'
    edited = with_override(text, "my: server", "linux", "/c", where="o")
    assert edited == "'my: server':\n  linux:\n  - /c\n  - /a\n# keep\nb: {linux: /b}  # and this\n"
