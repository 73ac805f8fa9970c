"""The user database read as a plain file (``/etc/passwd``), never through the name service.

``~user`` and a home the environment does not give are looked up here, so no lookup ever asks
NSS: ``getpwnam`` would talk to nscd and, with LDAP, SSSD or winbind configured, to the network,
for a user name a plugin chose. A user the file does not list has no known home.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["MAX_PASSWD_BYTES", "PASSWD_PATH", "passwd_home"]

PASSWD_PATH = "/etc/passwd"
"""Where the local user database is, on the live machine and in a fixture tree."""

MAX_PASSWD_BYTES = 1 << 20
"""At most this much of ``/etc/passwd`` is read; an entry past it is not seen."""

_HOME_FIELD = 5
_UID_FIELD = 2


def passwd_home(
    read: Callable[[str, int], bytes | None], *, user: str | None = None, uid: int | None = None
) -> str | None:
    """The absolute home of the first entry named ``user`` (or with user id ``uid``), or None.

    ``read(path, size)`` is a host's bounded read of a regular file. When the file is longer
    than ``MAX_PASSWD_BYTES`` its cut last line is dropped, so a home is never read cut short.
    """
    data = read(PASSWD_PATH, MAX_PASSWD_BYTES + 1)
    if data is None:
        return None
    if len(data) > MAX_PASSWD_BYTES:
        data = data[:MAX_PASSWD_BYTES].rpartition(b"\n")[0]
    wanted_uid = None if uid is None else str(uid)
    for line in data.decode("utf-8", "replace").splitlines():
        fields = line.split(":")
        if len(fields) <= _HOME_FIELD or not fields[_HOME_FIELD].startswith("/"):
            continue
        if (user is not None and fields[0] == user) or (
            wanted_uid is not None and fields[_UID_FIELD] == wanted_uid
        ):
            return fields[_HOME_FIELD]
    return None
