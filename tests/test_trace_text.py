"""The trace as lines people read: where each place came from and how it was reached."""

from __future__ import annotations

import pytest

from hermes_decl.cli.trace_text import trace_lines
from hermes_decl.resolver.app import Candidate
from hermes_decl.resolver.host import UninstallEntry

ENTRY = UninstallEntry("Vendor App 2.5", "2.5", "C:\\New")

LINES: list[tuple[str, list[Candidate], list[str]]] = [
    (
        "a-path",
        [Candidate(0, "path", "/opt/vs/vs", "present")],
        ["location[0] path: /opt/vs/vs: present"],
    ),
    (
        "an-override",
        [Candidate(1, "path", "/home/u/vs", "absent", source="overrides")],
        ["override[1] path: /home/u/vs: absent"],
    ),
    (
        "a-refused-place",
        [Candidate(0, "path", None, "refused", "variable NOPE is unset")],
        ["location[0] path: -: refused  (variable NOPE is unset)"],
    ),
    (
        "a-command-on-the-search-path",
        [Candidate(0, "command", "/usr/bin/vs", "present", via="search_path")],
        ["location[0] command: /usr/bin/vs: present  (search path)"],
    ),
    (
        "a-command-missing-everywhere",
        [
            Candidate(0, "command", "vs", "absent", via="search_path"),
            Candidate(0, "command", "/home/u/.local/bin/vs", "absent", via="known_folder"),
            Candidate(0, "command", "/usr/local/bin/vs", "absent", via="known_folder"),
            Candidate(0, "command", None, "refused", "variable X is unset", via="known_folder"),
            Candidate(0, "command", "/snap/bin/vs", "present", via="known_folder"),
        ],
        [
            "location[0] command: vs: absent from the search path",
            "location[0] command: vs: absent from the known folders /home/u/.local/bin, "
            "/usr/local/bin",
            "location[0] command: -: refused  (known folder; variable X is unset)",
            "location[0] command: /snap/bin/vs: present  (known folder)",
        ],
    ),
    (
        "a-cut-read-of-the-uninstall-entries",
        [Candidate(0, "uninstall_registry", None, "incomplete", "cut", via="uninstall_entry")],
        ["location[0] uninstall_registry: -: incomplete  (uninstall entries; cut)"],
    ),
    (
        "one-empty-known-folder-is-its-own-line",
        [Candidate(1, "snap", "/snap/bin/vs", "absent", via="known_folder")],
        ["location[1] snap: /snap/bin/vs: absent  (known folder)"],
    ),
    (
        "known-folders-of-two-locations-stay-apart",
        [
            Candidate(0, "flatpak", "/a/x", "absent", via="known_folder"),
            Candidate(1, "snap", "/b/y", "absent", via="known_folder"),
        ],
        [
            "location[0] flatpak: /a/x: absent  (known folder)",
            "location[1] snap: /b/y: absent  (known folder)",
        ],
    ),
    (
        "a-copy-found-through-an-uninstall-entry",
        [
            Candidate(
                0,
                "uninstall_registry",
                "C:\\New\\v.exe",
                "present",
                version="2.5",
                via="uninstall_entry",
                entry=ENTRY,
                version_detail="DisplayVersion of the uninstall entry 'Vendor App 2.5' it was "
                "found through",
            )
        ],
        [
            "location[0] uninstall_registry: C:\\New\\v.exe: present  version 2.5  (uninstall "
            "entry 'Vendor App 2.5'; version: DisplayVersion of the uninstall entry "
            "'Vendor App 2.5' it was found through)"
        ],
    ),
]


@pytest.mark.parametrize(("trace", "expected"), [c[1:] for c in LINES], ids=[c[0] for c in LINES])
def test_trace_lines(trace: list[Candidate], expected: list[str]) -> None:
    assert trace_lines(trace) == expected
