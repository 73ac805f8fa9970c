"""Whether a runtime file was published by this user: judged on the descriptor that was read.

Anyone may write a ``server.json`` naming one of this user's live process ids (ids and owners
are public) and a port of their own. So the file itself must be this user's and writable by no
one else, and so must the place it is in: its owner and mode come from the ``fstat`` of the
descriptor its bytes were read from (``Host.read_file_facts``), and every folder above it
(``Host.folders_above``, links resolved) must be neither writable by group or others unless it
is sticky (``/tmp``), nor owned by a user other than this one or root, as either could replace
the file. Windows answers the file's owner SID and no modes: its folders' rights are ACLs, which
are not judged. A file an elevated program wrote is owned by the Administrators group, not by the
user who ran it, so nothing says it was this user: it is refused, with a reason of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from hermes_decl.hosts.protocol import FileRead, FolderFacts

__all__ = ["ADMINISTRATORS_SID", "OTHERS_WRITE", "STICKY", "SYSTEM_OWNER", "publisher_problem"]

OTHERS_WRITE = 0o022
"""The group and other write bits: set on a file or folder, someone else may change it."""

STICKY = 0o1000
"""The sticky bit: in such a folder only an entry's owner may rename or remove it."""

ADMINISTRATORS_SID = "S-1-5-32-544"
"""BUILTIN\\Administrators, the owner Windows gives what an elevated program creates: any
administrator of the machine, so never attributable to this user."""

SYSTEM_OWNER = "0"
"""root, who may replace anything anyway: a folder of root's is trusted as one of this user's."""


def publisher_problem(
    found: FileRead, folders: Sequence[FolderFacts] | None, own_user: str
) -> str | None:
    """Why the runtime file read as ``found`` may not be this user's own, as the end of a
    sentence starting with the file's name; None when nothing else could have written it."""
    if found.owner is None:
        return "cannot be checked: its owner cannot be read"
    if found.owner == ADMINISTRATORS_SID:
        return (
            "belongs to the Administrators group, which owns what an elevated program writes: "
            "any administrator may have written it, so it is not trusted as this user's "
            "(run the application without elevation)"
        )
    if found.owner != own_user:
        return "belongs to another user, who may have written it"
    if found.mode is not None and found.mode & OTHERS_WRITE:
        return f"can be written by other users (mode {found.mode & 0o7777:04o})"
    if folders is None:
        return "cannot be checked: the folders above it cannot be read"
    for folder in folders:
        if folder.mode is None:
            continue
        if folder.mode & OTHERS_WRITE and not folder.mode & STICKY:
            return f"is in {folder.path}, which other users can write"
        if folder.owner not in (own_user, SYSTEM_OWNER):
            return f"is in {folder.path}, which belongs to another user"
    return None
