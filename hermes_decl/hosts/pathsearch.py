"""PATH lookup as a pure function, so every host (live, rooted, fake) finds commands the same way.

The only thing it asks of the machine is whether a candidate is a regular file, through the
``is_file`` callable the host passes in.
"""

from __future__ import annotations

import ntpath
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from hermes_decl.models import OsFamily
from hermes_decl.models.rules import device_segment, windows_device_name

DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD"
"""The extensions tried on Windows when ``PATHEXT`` is unset or empty."""

MAX_PATH_ENTRIES = 1024
"""At most this many PATH entries are searched; a longer PATH is cut (it is surely broken)."""

MAX_PATHEXT_ENTRIES = 64
"""At most this many PATHEXT extensions are tried."""


def search_path(
    name: str,
    *,
    os_family: OsFamily | None,
    path: str | None,
    pathext: str | None = None,
    is_file: Callable[[str], bool],
) -> str | None:
    """The first regular file named ``name`` in the directories of ``path``, or None.

    ``path`` is the PATH value, split with the OS's separator (``;`` on win32, ``:`` elsewhere;
    an OS family of None, one that is none of the three, follows POSIX rules).
    Empty and relative entries are skipped, so the current directory is never searched; on win32
    quoted entries are unquoted and UNC or device entries, and entries with a segment Windows
    opens as a device (``C:\\CON``), are skipped. A ``name`` that contains a path separator (or,
    on win32, a drive or a device name such as ``nul``) is never searched. On win32 a
    name that already ends in a ``pathext`` extension (case-insensitively) is looked up as is;
    any other name gets each extension appended in order, as ``shutil.which`` does.
    """
    if not _is_searchable_name(name, os_family):
        return None
    file_names = _file_names(name, os_family, pathext)
    for directory in _path_dirs(path, os_family):
        found = first_file(directory, file_names, os_family=os_family, is_file=is_file)
        if found is not None:
            return found
    return None


def find_in_folder(
    name: str,
    folder: str,
    *,
    os_family: OsFamily | None,
    pathext: str | None = None,
    is_file: Callable[[str], bool],
) -> str | None:
    """The regular file ``name`` in one folder (each PATHEXT extension on win32), or None.

    The same rules as ``search_path`` for one folder given as is (not split like a PATH value).
    """
    file_names = searched_file_names(name, os_family=os_family, pathext=pathext)
    if not file_names or not usable_folder(folder, os_family):
        return None
    return first_file(folder, file_names, os_family=os_family, is_file=is_file)


def searched_file_names(
    name: str, *, os_family: OsFamily | None, pathext: str | None = None
) -> tuple[str, ...]:
    """The file names ``find_in_folder`` looks for in each folder, in order; none for a name
    that is never searched. One command looked for in many folders reads its name once."""
    if not _is_searchable_name(name, os_family):
        return ()
    return _file_names(name, os_family, pathext)


def usable_folder(folder: str, os_family: OsFamily | None) -> bool:
    """Whether ``find_in_folder`` looks in ``folder`` at all (rooted for its OS, no NUL)."""
    return _usable_dir(folder, os_family) is not None


def first_file(
    directory: str,
    file_names: tuple[str, ...],
    *,
    os_family: OsFamily | None,
    is_file: Callable[[str], bool],
) -> str | None:
    """The first of ``file_names`` in ``directory`` that ``is_file`` says is a file, or None."""
    join = ntpath.join if os_family == "win32" else _posix_join
    for file_name in file_names:
        candidate = join(directory, file_name)
        if is_file(candidate):
            return candidate
    return None


def _posix_join(directory: str, name: str) -> str:
    """``posixpath.join`` of two strings, without its checks for bytes and path-like objects."""
    if name.startswith("/"):
        return name
    if not directory or directory.endswith("/"):
        return directory + name
    return directory + "/" + name


def _is_searchable_name(name: str, os_family: OsFamily | None) -> bool:
    """Whether ``name`` is a bare command name (no separator, no drive, no device, nothing odd)."""
    if not name or name in (".", "..") or "\0" in name or "/" in name:
        return False
    return not (os_family == "win32" and ("\\" in name or ":" in name or windows_device_name(name)))


def _file_names(name: str, os_family: OsFamily | None, pathext: str | None) -> tuple[str, ...]:
    """The file names to look for in each directory, in order."""
    if os_family != "win32":
        return (name,)
    extensions = _pathext(pathext)
    lowered = name.lower()
    if any(lowered.endswith(extension.lower()) for extension in extensions):
        return (name,)
    return tuple(name + extension for extension in extensions)


def _pathext(pathext: str | None) -> tuple[str, ...]:
    """PATHEXT's extensions, each starting with a dot, duplicates (ignoring case) dropped."""
    seen: set[str] = set()
    extensions: list[str] = []
    for raw in (pathext or "").split(";"):
        extension = raw.strip()
        if not extension or any(sep in extension for sep in "/\\:\0"):
            continue
        if not extension.startswith("."):
            extension = "." + extension
        if extension.lower() not in seen:
            seen.add(extension.lower())
            extensions.append(extension)
        if len(extensions) >= MAX_PATHEXT_ENTRIES:
            break
    return tuple(extensions) if extensions else tuple(DEFAULT_PATHEXT.split(";"))


def searched_folders(path: str | None, os_family: OsFamily | None) -> tuple[str, ...]:
    """The folders ``search_path`` searches for a PATH value ``path``, in order."""
    return tuple(_path_dirs(path, os_family))


def host_which(
    name: str,
    *,
    os_family: OsFamily | None,
    given_path: str | None,
    getenv: Callable[[str], str | None],
    is_file: Callable[[str], bool],
) -> str | None:
    """A host's ``which``: ``search_path`` over the search path it was given, else its PATH,
    with its PATHEXT; every host answers through this one function."""
    path = given_path if given_path is not None else getenv("PATH")
    return search_path(
        name, os_family=os_family, path=path, pathext=getenv("PATHEXT"), is_file=is_file
    )


def host_searched_folders(
    *, os_family: OsFamily | None, given_path: str | None, getenv: Callable[[str], str | None]
) -> tuple[str, ...]:
    """A host's ``searched_folders``: those of the search path it was given, else of its PATH."""
    return searched_folders(given_path if given_path is not None else getenv("PATH"), os_family)


class SearchesCommands:
    """``which`` and ``searched_folders`` for a host that answers ``getenv`` and ``is_file``.

    The live and the fixture-tree hosts search alike: the search path they were given, else
    their PATH, each place tested through their own ``is_file``.
    """

    _os_family: OsFamily | None
    _search_path: str | None

    if TYPE_CHECKING:

        def getenv(self, name: str) -> str | None: ...

        def is_file(self, path: str) -> bool: ...

    def searched_folders(self) -> tuple[str, ...]:
        """The folders ``which`` searches: the search path given, else PATH's."""
        return host_searched_folders(
            os_family=self._os_family, given_path=self._search_path, getenv=self.getenv
        )

    def which(self, name: str) -> str | None:
        """A command on the search path given, else PATH (PATHEXT on Windows); any regular file."""
        return host_which(
            name,
            os_family=self._os_family,
            given_path=self._search_path,
            getenv=self.getenv,
            is_file=self.is_file,
        )


def _path_dirs(path: str | None, os_family: OsFamily | None) -> Iterator[str]:
    """PATH's usable directories in order, duplicates dropped."""
    if not path:
        return
    separator = ";" if os_family == "win32" else ":"
    seen: set[str] = set()
    for raw in path.split(separator)[:MAX_PATH_ENTRIES]:
        directory = _usable_dir(raw, os_family)
        if directory is None:
            continue
        key = directory.lower() if os_family == "win32" else directory
        if key not in seen:
            seen.add(key)
            yield directory


def _usable_dir(raw: str, os_family: OsFamily | None) -> str | None:
    """A PATH entry when it is rooted for its OS; None for empty, relative or remote entries."""
    if "\0" in raw:
        return None
    if os_family != "win32":
        return raw if raw.startswith("/") else None
    directory = raw.strip()
    if len(directory) >= 2 and directory.startswith('"') and directory.endswith('"'):
        directory = directory[1:-1].strip()
    # Only drive-rooted entries (C:\dir or C:/dir): UNC shares and \\?\ device paths are skipped.
    drive_rooted = (
        len(directory) >= 3
        and directory[0].isascii()
        and directory[0].isalpha()
        and directory[1] == ":"
        and directory[2] in "\\/"
    )
    return directory if drive_rooted and device_segment(directory) is None else None
