"""Rules of ``models/path_rules.py`` a mutation review found untested (``tests/MUTATION.md``):
the raw length bound of a path's fast form, the fast form of a plain name, and the code of a
minimum version's refusal, each with its exact answer."""

from __future__ import annotations

import pytest
from pydantic_core import PydanticCustomError, SchemaValidator, ValidationError

from hermes_decl.declaration import parse_declaration
from hermes_decl.errors import DeclarationError
from hermes_decl.models import OsFamily, path_rules
from hermes_decl.models.rules import MAX_PATH_CHARS
from hermes_decl.models.text_rules import TextRules

TOO_LONG = f"must be at most {MAX_PATH_CHARS} characters long (got 4,097 characters)"


def _fast(rule: TextRules) -> SchemaValidator:
    return SchemaValidator(rule.accept.core_schema())


def _path(os_family: OsFamily, length: int, *, padded: bool = False) -> str:
    """A path of ``length`` characters as written, with ``padded`` the last of them a space."""
    start = "C:\\" if os_family == "win32" else "/"
    end = " " if padded else "a"
    return start + "a" * (length - len(start) - 1) + end


PATH_RULES = {
    f"{name}-{os_family}": (table[os_family], os_family)
    for name, table in (
        ("location", path_rules.LOCATION_PATHS),
        ("runtime", path_rules.RUNTIME_FILES),
    )
    for os_family in ("linux", "darwin", "win32")
}


@pytest.mark.parametrize(("rule", "os_family"), PATH_RULES.values(), ids=list(PATH_RULES))
def test_the_fast_form_bounds_a_path_as_written(rule: TextRules, os_family: OsFamily) -> None:
    longest = _path(os_family, MAX_PATH_CHARS)
    assert _fast(rule).validate_python(longest) == longest
    too_long = _path(os_family, MAX_PATH_CHARS + 1)
    with pytest.raises(ValidationError):
        _fast(rule).validate_python(too_long)
    with pytest.raises(PydanticCustomError) as refused:
        rule.check(too_long)
    assert (refused.value.type, refused.value.message()) == ("path_too_long", TOO_LONG)


@pytest.mark.parametrize(("rule", "os_family"), PATH_RULES.values(), ids=list(PATH_RULES))
def test_the_fast_form_leaves_a_padded_path_to_the_check(
    rule: TextRules, os_family: OsFamily
) -> None:
    # matched as written, a path with surrounding whitespace would be kept unstripped
    padded = _path(os_family, MAX_PATH_CHARS, padded=True)
    with pytest.raises(ValidationError):
        _fast(rule).validate_python(padded)
    assert rule.accept.may_leave(padded)
    assert rule.check(padded) == padded.strip()
    with pytest.raises(PydanticCustomError) as refused:
        rule.check(_path(os_family, MAX_PATH_CHARS + 1, padded=True))
    assert (refused.value.type, refused.value.message()) == ("path_too_long", TOO_LONG)


def test_a_declaration_with_a_padded_path_one_too_long_is_refused() -> None:
    too_long = _path("linux", MAX_PATH_CHARS + 1, padded=True)
    with pytest.raises(DeclarationError) as refused:
        parse_declaration(
            "studio",
            {"linux": {"presence": "executable", "location": too_long}},
            {"app": True},
            where="t",
        )
    assert [(issue.loc, issue.code, issue.message) for issue in refused.value.issues] == [
        ("app.linux.location", "path_too_long", TOO_LONG)
    ]


@pytest.mark.parametrize("name", ["X", "x", "XX", " X", "X X ", "\u00e9", "7"])
def test_the_fast_form_keeps_a_short_plain_name(name: str) -> None:
    assert _fast(path_rules.PLAIN_NAME).validate_python(name) == name
    assert path_rules.PLAIN_NAME.check(name) == name


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("1..2", "must be a dotted numeric version such as '2.3.0' (got '1..2')"),
        ("v1", "must be a dotted numeric version such as '2.3.0' (got 'v1')"),
        (
            "1.0.1234567890",
            "each part must have at most 9 digits (got '1.0.1234567890')",
        ),
    ],
)
def test_a_minimum_version_is_refused_as_a_bad_version(raw: str, message: str) -> None:
    with pytest.raises(PydanticCustomError) as refused:
        path_rules.MIN_VERSION.check(raw)
    assert (refused.value.type, refused.value.message()) == ("bad_version", message)
