"""A template read once expands as the one-regex substitution it replaced, host calls included."""

from __future__ import annotations

import random
import re

import pytest

from hermes_decl.models import OsFamily
from hermes_decl.models.path_atoms import posix_variable, tilde, windows_variable
from hermes_decl.resolver.expand import Expansion, expand, host_refusal, normalise
from hermes_decl.resolver.template import read_template
from hermes_decl.testing import FakeHost

_TILDE = re.compile(tilde(r"\Z", user_group=True, keep_separator=True))
_POSIX = re.compile(posix_variable(name_groups=True))
_ANY = re.compile(f"{posix_variable(name_groups=True)}|{windows_variable(name_group=True)}")


def _joined(value: str, following: str) -> str:
    return value.rstrip("/\\") if following[:1] in ("/", "\\") else value


def reference(template: str, os_family: OsFamily, host: FakeHost) -> Expansion:
    """SPEC 6.2's expansion as one regular expression substitution over the template."""
    text = template
    if not (text.startswith("~") or "$" in text or (os_family == "win32" and "%" in text)):
        return expand(template, os_family, host)  # no variable: the path as written
    rest_from = 0
    found = _TILDE.match(text)
    if found:
        user = found.group(1)
        home = host.user_home(user) if user else host.home()
        if home is None:
            return Expansion(None, f"the home directory of {'~' + user} is unknown")
        if not home.strip():
            return Expansion(None, f"the home directory of {'~' + user} is empty")
        home = _joined(home, text[found.end() :])
        if "*" in home:
            return Expansion(None, f"the home directory of {'~' + user} holds a '*'")
        text, rest_from = home + text[found.end() :], len(home)
    refusals: list[str] = []

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2) or match.group(3)
        value = host.getenv(name)
        if value is None:
            refusals.append(f"variable {name} is unset")
            return ""
        if not value.strip():
            refusals.append(f"variable {name} is set but empty")
        elif "*" in value:
            refusals.append(f"variable {name} holds a '*'")
        return _joined(value, match.string[match.end() :])

    pattern = _ANY if os_family == "win32" else _POSIX
    text = text[:rest_from] + pattern.sub(substitute, text[rest_from:])
    if refusals:
        return Expansion(None, refusals[0])
    reason = host_refusal(text, os_family, host)
    if reason is not None:
        return Expansion(None, f"{normalise(os_family, text)} {reason}")
    return Expansion(normalise(os_family, text))


ATOMS = [
    *("~", "~u", "/", "\\", "$HOME", "${HOME}", "$EMPTY", "$STAR", "$SLASH", "$UNSET"),
    *("%APPDATA%", "%EMPTY%", "%X%", "$", "%", "a", "b.c", "..", ".", "C:", "C:\\", "net"),
    *("*", "{", "}", "$1", "${A", "x y", "NUL", "/net"),
]
ENVIRONMENTS = [
    {"HOME": "/home/u", "EMPTY": " ", "STAR": "/a*b", "SLASH": "/s/", "X": "/net/h"},
    {"HOME": "/", "SLASH": "\\\\srv\\", "APPDATA": "C:\\A\\", "X": "C:\\x"},
    {},
]


@pytest.mark.parametrize("os_family", ["linux", "darwin", "win32"])
@pytest.mark.parametrize("home", ["/home/u", "/", " ", None, "C:\\Users\\u\\", "/h*"])
def test_a_read_template_expands_as_the_substitution(os_family: OsFamily, home: str | None) -> None:
    chosen = random.Random(f"{os_family}{home}")
    for env in ENVIRONMENTS:
        fast, slow = (FakeHost(os_family, env=env, home=home) for _ in range(2))
        for _ in range(400):
            template = "".join(chosen.choice(ATOMS) for _ in range(chosen.randint(1, 6)))
            assert expand(template, os_family, fast) == reference(template, os_family, slow)
            assert fast.calls == slow.calls, template


def test_a_template_is_read_once() -> None:
    read_template.cache_clear()
    for _ in range(3):
        read_template("~/x/$A/${B}", "linux")
    assert read_template.cache_info().misses == 1
    read = read_template("~/x/$A/${B}", "linux")
    assert (read.user, read.rest, read.tail) == ("", "/x/$A/${B}", "")
    assert [(v.before, v.name, v.separator_follows) for v in read.variables] == [
        ("/x/", "A", True),
        ("/", "B", False),
    ]


@pytest.mark.parametrize("os_family", ["linux", "darwin", "win32"])
def test_a_template_read_as_written_is_what_expand_gives_without_asking(
    os_family: OsFamily,
) -> None:
    chosen = random.Random(os_family)
    for _ in range(400):
        template = "".join(chosen.choice(ATOMS) for _ in range(chosen.randint(1, 6)))
        as_written = read_template(template, os_family).as_written
        if as_written is None:
            continue
        host = FakeHost(os_family, env=ENVIRONMENTS[0], home="/home/u")
        assert expand(template, os_family, host) == Expansion(as_written)
        assert not host.calls, template
