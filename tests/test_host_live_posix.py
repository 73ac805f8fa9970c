"""LiveHost on POSIX-only filesystem objects: symlinks, FIFOs, devices, permissions, users."""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_decl._regular_file import OPEN_FLAGS, NotRegularFile, open_regular
from hermes_decl.resolver.live_host import LiveHost, posix_pid_exists
from tests.hang_guard import within

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX filesystem behaviour")

if sys.platform == "win32":

    def is_root() -> bool:
        return False

    def make_fifo(path: Path) -> None:
        raise NotImplementedError

    def _terminal_name(keep_open: list[int]) -> str:
        raise NotImplementedError

    def account() -> tuple[str, str, str]:
        raise NotImplementedError

else:
    import pwd

    def _terminal_name(keep_open: list[int]) -> str:
        """A pseudo-terminal's name; its leader stays open (in ``keep_open``) until closed."""
        leader, follower = os.openpty()
        keep_open.append(leader)
        name = os.ttyname(follower)
        os.close(follower)
        return name

    def is_root() -> bool:
        """Whether the tests run as root, which reads files whatever their mode."""
        return os.geteuid() == 0

    def make_fifo(path: Path) -> None:
        os.mkfifo(path)

    def account() -> tuple[str, str, str]:
        """This user's name, home from the user database, and expected ``home()``."""
        me = pwd.getpwuid(os.getuid())
        return me.pw_name, me.pw_dir, os.environ.get("HOME") or me.pw_dir


@pytest.fixture
def host() -> LiveHost:
    return LiveHost()


def test_symlinks_are_followed(host: LiveHost, tmp_path: Path) -> None:
    (tmp_path / "target").write_bytes(b"through the link")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "inside").write_text("x")
    (tmp_path / "file-link").symlink_to(tmp_path / "target")
    (tmp_path / "dir-link").symlink_to("dir")
    assert host.is_file(str(tmp_path / "file-link"))
    assert host.read_file(str(tmp_path / "file-link"), 100) == b"through the link"
    assert host.is_dir(str(tmp_path / "dir-link"))
    assert host.list_dir(str(tmp_path / "dir-link")) == ("inside",)


def test_dangling_symlink_and_symlink_loops(host: LiveHost, tmp_path: Path) -> None:
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "self").symlink_to("self")
    (tmp_path / "ping").symlink_to("pong")
    (tmp_path / "pong").symlink_to("ping")
    for name in ("dangling", "self", "ping"):
        path = str(tmp_path / name)
        assert not host.is_file(path)
        assert not host.is_dir(path)
        assert host.list_dir(path) == ()
        assert host.read_file(path, 10) is None
    # The listing itself still shows the links, and is sorted.
    assert host.list_dir(str(tmp_path)) == ("dangling", "ping", "pong", "self")


def test_fifo_where_a_file_is_expected_does_not_block(host: LiveHost, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    make_fifo(fifo)
    started = time.monotonic()
    assert within(5, lambda: host.read_file(str(fifo), 10)) is None
    assert not within(5, lambda: host.is_file(str(fifo)))
    assert not host.is_dir(str(fifo))
    assert time.monotonic() - started < 5
    # A link to the FIFO is refused the same way.
    (tmp_path / "link").symlink_to(fifo)
    assert within(5, lambda: host.read_file(str(tmp_path / "link"), 10)) is None


def test_open_flags_never_block_and_follow_symlinks(tmp_path: Path) -> None:
    assert OPEN_FLAGS & getattr(os, "O_NONBLOCK", 0)
    assert OPEN_FLAGS & getattr(os, "O_NOCTTY", 0)
    assert OPEN_FLAGS & getattr(os, "O_CLOEXEC", 0)
    assert not OPEN_FLAGS & getattr(os, "O_NOFOLLOW", 0)
    assert OPEN_FLAGS & (os.O_WRONLY | os.O_RDWR) == 0
    # Even if a FIFO slipped past the stat check, opening it with these flags returns at once.
    fifo = tmp_path / "fifo"
    make_fifo(fifo)
    fd = within(5, lambda: os.open(fifo, OPEN_FLAGS))
    try:
        assert stat.S_ISFIFO(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def _fifo_name(tmp_path: Path) -> str:
    make_fifo(tmp_path / "fifo")
    return str(tmp_path / "fifo")


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda tmp, keep: _fifo_name(tmp), "a FIFO"),
        (lambda tmp, keep: _terminal_name(keep), "a character device"),
        (lambda tmp, keep: os.devnull, "a character device"),
        (lambda tmp, keep: str(tmp), "a directory"),
    ],
    ids=["fifo", "terminal", "null-device", "directory"],
)
def test_what_a_swapped_path_opens_is_checked_by_descriptor(
    tmp_path: Path, make: Callable[[Path, list[int]], str], kind: str
) -> None:
    # read_file stats the path first; a path swapped after that check reaches the open, which
    # neither blocks nor takes a terminal, and the descriptor check refuses what it opened.
    keep_open: list[int] = []
    try:
        target = make(tmp_path, keep_open)
        with pytest.raises(NotRegularFile) as refused:
            within(5, lambda: open_regular(target))
        assert refused.value.kind == kind
    finally:
        for fd in keep_open:
            os.close(fd)


def test_a_regular_file_opens_read_only(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"data")
    fd = open_regular(tmp_path / "f")
    try:
        assert os.read(fd, 10) == b"data"
        assert stat.S_ISREG(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def test_devices_are_not_files(host: LiveHost) -> None:
    assert not host.is_file(os.devnull)
    assert host.read_file(os.devnull, 10) is None
    if os.path.exists("/dev/zero"):
        assert within(5, lambda: host.read_file("/dev/zero", 1 << 30)) is None


def test_chmod_000_file(host: LiveHost, tmp_path: Path) -> None:
    path = tmp_path / "locked"
    path.write_bytes(b"secret")
    path.chmod(0)
    try:
        assert host.is_file(str(path))  # stat needs no read permission
        if is_root():
            assert host.read_file(str(path), 10) == b"secret"  # root reads anyway
        else:
            assert host.read_file(str(path), 10) is None
    finally:
        path.chmod(0o600)


def test_chmod_000_directory(host: LiveHost, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "inside").write_text("x")
    locked.chmod(0)
    try:
        assert host.is_dir(str(locked))
        expected = ("inside",) if is_root() else ()
        assert host.list_dir(str(locked)) == expected
    finally:
        locked.chmod(0o700)


def test_home_and_user_home(host: LiveHost) -> None:
    name, user_dir, expected_home = account()
    assert host.home() == expected_home
    assert host.user_home(name) == user_dir
    assert host.user_home("hermes-decl-no-such-user") is None
    for odd in ("", "a/b", "a\0b"):
        assert host.user_home(odd) is None


def test_another_users_process_is_alive(host: LiveHost) -> None:
    # pid 1 always exists; unless we are root, kill(1, 0) fails with EPERM, which means "exists".
    assert host.process_alive(1)


@pytest.mark.parametrize(
    ("error", "alive"),
    [
        (ProcessLookupError(3, "No such process"), False),
        (PermissionError(1, "Operation not permitted"), True),
        (OSError(22, "Invalid argument"), False),
        (OverflowError("signed integer is greater than maximum"), False),
    ],
)
def test_kill_errors_are_answers_not_exceptions(error: Exception, alive: bool) -> None:
    sent: list[tuple[int, int]] = []

    def fake_kill(pid: int, signal: int) -> None:
        sent.append((pid, signal))
        raise error

    assert posix_pid_exists(4242, fake_kill) is alive
    assert sent == [(4242, 0)]  # signal 0: a check, never a real signal
