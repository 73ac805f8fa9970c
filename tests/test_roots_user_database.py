"""``~user`` and a home the environment lacks come from ``/etc/passwd`` as a file, never NSS."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import pytest

from hermes_decl.hosts.passwd import MAX_PASSWD_BYTES, PASSWD_PATH, passwd_home
from hermes_decl.hosts.rooted import RootedHost
from hermes_decl.testing import FakeHost

PACKAGE = Path(__file__).parent.parent / "hermes_decl"

PASSWD = (
    b"root:x:0:0:root:/root:/bin/bash\n"
    b"dev:x:1000:1000:Dev:/home/dev:/bin/bash\n"
    b"relative:x:1001:1001::home/relative:/bin/sh\n"
    b"dev:x:1002:1002:Second dev:/home/other:/bin/sh\n"
)


def _reader(data: bytes) -> FakeHost:
    return FakeHost().add_file(PASSWD_PATH, data)


@pytest.mark.parametrize(
    ("user", "uid", "home"),
    [
        ("dev", None, "/home/dev"),
        ("root", None, "/root"),
        (None, 1000, "/home/dev"),
        (None, 0, "/root"),
        ("relative", None, None),
        ("nobody", None, None),
        (None, 4242, None),
        ("dev:x", None, None),
    ],
    ids=["user", "root", "uid", "uid-0", "relative-home", "unlisted", "unlisted-uid", "colon"],
)
def test_a_home_is_read_from_the_file(user: str | None, uid: int | None, home: str | None) -> None:
    host = _reader(PASSWD)
    assert passwd_home(host.read_file, user=user, uid=uid) == home
    assert host.call_log == [("read_file", (PASSWD_PATH, MAX_PASSWD_BYTES + 1, 0))]


def test_a_line_cut_by_the_bound_is_not_read() -> None:
    filler = b"#" * (MAX_PASSWD_BYTES - 40) + b"\n"
    cut = b"far:x:7:7::/home/far-away-with-a-long-name:/bin/sh\n"
    host = _reader(filler + cut)
    assert len(filler + cut) > MAX_PASSWD_BYTES
    assert passwd_home(host.read_file, user="far") is None


def test_no_file_no_home() -> None:
    assert passwd_home(FakeHost().read_file, user="root") is None


def _calls_to_the_name_service(path: Path) -> list[str]:
    """Each ``pwd`` import or ``getpw*`` name in a module of the package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name in ("pwd", "grp")]
        elif isinstance(node, ast.ImportFrom) and node.module in ("pwd", "grp"):
            found.append(node.module)
        elif isinstance(node, ast.Attribute) and node.attr.startswith(("getpw", "getgr")):
            found.append(node.attr)
    return found


@pytest.mark.parametrize(
    "module",
    sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")),
)
def test_no_module_asks_the_name_service(module: str) -> None:
    assert _calls_to_the_name_service(PACKAGE / module) == []


def test_the_rooted_host_reads_its_trees_file_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "passwd").write_bytes(PASSWD)
    host = RootedHost(tmp_path)
    assert host.user_home("dev") == "/home/dev"
    assert host.user_home("relative") is None


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX live host")
def test_the_live_host_answers_what_etc_passwd_lists() -> None:
    from hermes_decl.hosts.live.host import LiveHost

    listed: dict[str, str] = {}
    try:
        text = Path(PASSWD_PATH).read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) > 5 and fields[5].startswith("/"):
            listed.setdefault(fields[0], fields[5])
    host = LiveHost()
    for name, home in listed.items():
        assert host.user_home(name) == home
    assert host.user_home("hermes-decl-no-such-user") is None
    assert os.environ.get("HOME") is None or host.home() == os.environ["HOME"]
