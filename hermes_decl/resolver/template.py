"""A declared path template read once, apart from any host: its ``~`` and its variables.

Expanding a template asks the host for a home and variable values, but where the ``~`` ends,
which variables the template names and the text between them depend on the template alone. A
pass evaluates each declaration's templates, and every pass the same ones, so ``read_template``
reads each once (a bounded cache) and ``expand`` only asks the host and joins the pieces.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from hermes_decl.models import OsFamily
from hermes_decl.models.path_atoms import posix_variable, tilde, windows_variable

_TILDE = re.compile(tilde(r"\Z", user_group=True, keep_separator=True))
_POSIX_VARIABLE = re.compile(posix_variable(name_groups=True))
_ANY_VARIABLE = re.compile(
    f"{posix_variable(name_groups=True)}|{windows_variable(name_group=True)}"
)

MAX_READ_TEMPLATES = 4096
"""The most templates whose reading is kept; the least recently used are read again."""


class Variable(NamedTuple):
    """One variable of a template, with the text before it."""

    before: str
    """The template's text between the previous variable (or the start) and this one."""
    name: str
    separator_follows: bool
    """Whether the template goes on with a separator, so the value's trailing ones are dropped."""


class Template(NamedTuple):
    """What a template asks of a host, in order: a home, then each variable's value."""

    has_variables: bool
    """Whether it has anything to expand: a leading ``~``, a ``$`` or (Windows) a ``%``."""
    user: str | None
    """The user of a leading ``~user`` (empty for ``~``); None without a leading ``~``."""
    rest: str
    """The template after its ``~`` part (the whole template without one)."""
    separator_after_tilde: bool
    """Whether ``rest`` starts with a separator, so the home's trailing ones are dropped."""
    variables: tuple[Variable, ...]
    """The variables in ``rest``, in order."""
    tail: str
    """``rest`` after its last variable (all of ``rest`` without one)."""
    as_written: str | None
    """The template itself when no host can change it (no variable, and not Windows, where the
    host says which drives are network drives); None otherwise."""


def _has_substitutions(text: str, os_family: OsFamily) -> bool:
    """Whether text may hold a variable: a ``$`` or (Windows) a ``%``."""
    return "$" in text or (os_family == "win32" and "%" in text)


@functools.lru_cache(maxsize=MAX_READ_TEMPLATES)
def read_template(template: str, os_family: OsFamily) -> Template:
    """The template's ``~`` and variables, as ``expand`` substitutes them."""
    has_variables = template.startswith("~") or _has_substitutions(template, os_family)
    found = _TILDE.match(template) if has_variables else None
    user = found.group(1) if found else None
    rest = template[found.end() :] if found else template
    variables: list[Variable] = []
    start = 0
    if has_variables and _has_substitutions(rest, os_family):
        pattern = _ANY_VARIABLE if os_family == "win32" else _POSIX_VARIABLE
        for match in pattern.finditer(rest):
            name = match.group(1) or match.group(2) or match.group(3)
            follows = rest[match.end() : match.end() + 1] in ("/", "\\")
            variables.append(Variable(rest[start : match.start()], name, follows))
            start = match.end()
    as_written = template if not has_variables and os_family != "win32" else None
    return Template(
        has_variables,
        user,
        rest,
        rest[:1] in ("/", "\\"),
        tuple(variables),
        rest[start:],
        as_written,
    )
