"""``hermes-decl override SERVER PATH [--os OS]``: add a place to the user's overrides file.

The path is checked by the rules of a declaration's ``location`` for the OS before anything is
written, and so is the file already there (an invalid file is reported, never overwritten). The
file is the one ``HERMES_DECL_OVERRIDES`` names, else ``overrides.yaml`` in this library's folder
of the user's config folder; it is written atomically (a temporary file in the same folder,
flushed, then renamed over it), through a symbolic link to its target, keeping its permissions.
Only the server's own entry is rewritten: other entries keep their text and comments.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import tempfile
from typing import TextIO

from hermes_decl.cli.command import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE
from hermes_decl.cli.output import say, say_problems
from hermes_decl.errors import DeclarationError, Issue
from hermes_decl.hosts.live import LiveHost
from hermes_decl.models import OsFamily
from hermes_decl.overrides_text import check_override, parse_overrides, with_override
from hermes_decl.resolver.overrides import MAX_OVERRIDES_BYTES, OVERRIDES_ENV, overrides_path

_NOT_UTF8 = "must be UTF-8 text to be edited (save it as UTF-8, then try again)"


def run_override(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Validate, then write the overrides file; the exit status."""
    host = LiveHost()
    here = host.os_family
    os_family: OsFamily | None = args.os or here
    if os_family is None:
        return _usage(err, "this operating system is none of win32, darwin and linux: give --os")
    try:
        check_override(args.server, os_family, args.path, where="PATH")
    except DeclarationError as error:
        return _usage(err, "; ".join(f"{args.path!r} {issue.message}" for issue in error.issues))
    if here is None:
        return _usage(err, f"this operating system has no config folder: set {OVERRIDES_ENV}")
    target, refused = overrides_path(host, here)
    if target is None:
        return _problem(err, f"cannot tell where the overrides file is: {refused}")
    real = os.path.realpath(target)
    try:
        current = _current_text(host, real)
        text = with_override(current, args.server, os_family, args.path, where=target)
    except DeclarationError as error:
        say_problems(err, error)
        say(err, f"{target}: not changed: fix the problems above first")
        return EXIT_PROBLEMS
    if text is None:
        say(out, f"{target}: {args.server}: {os_family}: {args.path} is already listed")
        return EXIT_OK
    try:
        _write_atomically(real, text)
    except OSError as error:
        return _problem(err, f"{target}: cannot be written ({error.strerror or error})")
    say(out, f"{target}: {args.server}: {os_family}: added {args.path}, tried first")
    return EXIT_OK


def _current_text(host: LiveHost, path: str) -> str | None:
    """The file's text (validated), None when there is none; problems raise DeclarationError."""
    data = host.read_file(path, MAX_OVERRIDES_BYTES + 1)
    if data is None:
        if os.path.lexists(path):
            raise DeclarationError(path, [Issue("", "unreadable_file", "is not a readable file")])
        return None
    if len(data) > MAX_OVERRIDES_BYTES:
        message = f"is too large to read (more than {MAX_OVERRIDES_BYTES} bytes)"
        raise DeclarationError(path, [Issue("", "too_large", message)])
    parse_overrides(data, where=path)  # raises with line:column when the file is invalid
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DeclarationError(path, [Issue("", "bad_encoding", _NOT_UTF8)]) from None


def _write_atomically(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` in one rename, keeping the file's permissions."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".overrides-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _usage(err: TextIO, message: str) -> int:
    say(err, f"hermes-decl override: error: {message}")
    return EXIT_USAGE


def _problem(err: TextIO, message: str) -> int:
    say(err, f"hermes-decl override: {message}")
    return EXIT_PROBLEMS
