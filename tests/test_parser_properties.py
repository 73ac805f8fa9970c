"""Property tests: whatever the input, the parser returns a Declaration or a DeclarationError."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermes_decl.declaration import DeclarationError, parse_declaration
from hermes_decl.models import Declaration

_BARE = r'[^\s.\[\]"\\]+'
_QUOTED = r'\["(?:[^"\\]|\\.)*"\]'
WELL_FORMED_LOC = re.compile(rf"(?:{_BARE}|{_QUOTED})(?:\.{_BARE}|\[[0-9]+\]|{_QUOTED})*")
"""A dotted location: bare keys, [index] and ["quoted"] keys, nothing else."""
UNPRINTABLE = ("Cc", "Cs", "Zl", "Zp")

WORDS = [
    "win32",
    "darwin",
    "linux",
    "macos",
    "presence",
    "location",
    "version",
    "liveness",
    "kind",
    "executable",
    "bundle",
    "command",
    "uninstall_registry",
    "app_bundle",
    "flatpak",
    "snap",
    "name",
    "app_id",
    "display_name_prefix",
    "file",
    "path",
    "pe_resource",
    "plist",
    "none",
    "server_json",
    "pid_key",
    "url_key",
    "token_key",
    "endpoint_path",
    "app",
    "min_version",
    "gpu",
    "nvidia",
    "/opt/x",
    "C:/x.exe",
    "%ProgramFiles%/x/*/y.exe",
    "~/x",
    "$HOME/x",
    "//srv/x",
    "2.3.0",
    "../x",
    "http://x",
    "**",
    "",
]


class Opaque:
    """A value no parser knows."""


class Exploding:
    """A value whose repr fails, as a hostile object's might."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.sampled_from(WORDS),
    st.text(max_size=20),
    st.binary(max_size=8),
    st.just(10**50),
    st.builds(Opaque),
    st.builds(Exploding),
)
keys = st.one_of(
    st.sampled_from(WORDS), st.text(max_size=12), st.integers(), st.none(), st.binary(max_size=3)
)


def containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(keys, children, max_size=5),
        st.frozensets(st.sampled_from(WORDS), max_size=3),
    )


values = st.recursive(scalars, containers, max_leaves=30)


def _check(decl_or_error: Declaration | DeclarationError) -> None:
    if isinstance(decl_or_error, DeclarationError):
        assert decl_or_error.issues
        for issue in decl_or_error.issues:
            assert issue.loc == "" or WELL_FORMED_LOC.fullmatch(issue.loc), issue.loc
            assert not any(unicodedata.category(c) in UNPRINTABLE for c in issue.loc), issue.loc
            assert re.fullmatch(r"[a-z_]+", issue.code), issue.code
            assert issue.message and "pydantic" not in issue.message.lower()
        str(decl_or_error)


def _parse(raw_app: Any, raw_requires: Any) -> Declaration | DeclarationError:
    try:
        return parse_declaration("srv", raw_app, raw_requires, where="prop")
    except DeclarationError as error:
        return error


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(values, values)
def test_any_values_give_a_declaration_or_a_declaration_error(
    raw_app: Any, raw_requires: Any
) -> None:
    _check(_parse(raw_app, raw_requires))


os_block = st.fixed_dictionaries(
    {"presence": values | st.sampled_from(["executable", "bundle"]), "location": values},
    optional={"version": values, "liveness": values, "extra": values},
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(["win32", "darwin", "linux", "macos"]), os_block, max_size=3),
    st.dictionaries(
        st.sampled_from(["app", "min_version", "gpu", "min_versoin"]), values, max_size=3
    ),
)
def test_near_valid_declarations_give_a_declaration_or_a_declaration_error(
    raw_app: dict[str, Any], raw_requires: dict[str, Any]
) -> None:
    _check(_parse(raw_app, raw_requires))


def test_deep_and_self_referencing_inputs() -> None:
    deep: Any = "/x"
    for _ in range(5000):
        deep = [deep]
    looped: dict[str, Any] = {"presence": "executable"}
    looped["location"] = [looped]
    looped_list: list[Any] = []
    looped_list.append(looped_list)
    for raw_app in (
        {"linux": {"presence": "executable", "location": deep}},
        {"linux": looped},
        {"linux": {"presence": "executable", "location": looped_list}},
    ):
        result = _parse(raw_app, None)
        assert isinstance(result, DeclarationError)
        _check(result)


def test_huge_strings_are_shortened_in_messages_never_in_locations() -> None:
    result = _parse(
        {"linux": {"presence": "executable", "location": "x" * 1_000_000, "k" * 10_000: 1}}, None
    )
    assert isinstance(result, DeclarationError)
    assert all(len(issue.message) < 400 for issue in result.issues)
    assert [issue.loc for issue in result.issues] == [
        "app.linux.location",
        "app.linux." + "k" * 10_000,
    ]


def test_integers_too_long_to_print_are_still_reported() -> None:
    result = _parse({"linux": {"presence": 10**5000, "location": "/x"}}, {"app": 10**5000})
    assert isinstance(result, DeclarationError)
    assert [(issue.loc, issue.code) for issue in result.issues] == [
        ("app.linux.presence", "wrong_type"),
        ("requires.app", "wrong_type"),
    ]
    _check(result)


def test_thousands_of_problems_are_all_reported_in_reading_order() -> None:
    # bench/parse.py times this input: reporting must stay linear in the number of problems.
    requires = {f"k{number}": 1 for number in range(8000)}
    result = _parse(None, requires)
    assert isinstance(result, DeclarationError)
    assert [issue.loc for issue in result.issues] == [f"requires.k{n}" for n in range(8000)]
