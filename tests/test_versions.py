"""The min_version form and the lenient reading and comparison of found versions (SPEC 3.3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermes_decl.versions import compare_versions, min_version_problem, satisfies, version_key

COMPARISONS = [
    # found, minimum, expected order of found against minimum
    ("2.3.0.12594", "2.3.0", 1),
    ("2.3.0-beta", "2.3.0", 0),
    ("2.3.0beta2", "2.3.0", 0),
    ("2.3.0+build.7", "2.3.0", 1),  # split on "." first: the build number is a segment
    ("v2.10", "2.9", 1),
    ("V2.10", "2.10", 0),
    ("2.3", "2.3.0", 0),
    ("2.3.0", "2.3", 0),
    ("2.3.0.0.0", "2.3", 0),
    ("11.0.9", "11.0.9.509", -1),
    ("2.9", "2.10", -1),
    ("10", "9", 1),
    ("1.10.0", "1.9.9", 1),
    ("2.3.0 (x64)", "2.3.0", 0),
    ("2.3.0\tbuild 5", "2.3.1", -1),
    ("  2.4", "2.3", 1),
    ("2.3 4.0", "2.4", -1),
    ("2.x.1", "2.0.1", 0),
    ("2..1", "2.0.1", 0),
    ("release-7", "7", 0),
    ("007.001", "7.1", 0),
    ("2.3.0-rc1", "2.3.1", -1),
    ("1.2.3a4.5", "1.2.3.5", 0),
    ("999999999.0", "999999998", 1),
    ("1" + "0" * 40, "999999999", 1),
    ("0.0.1", "0", 1),
    ("0", "0.0.0", 0),
    ("24.1.2.3", "24.1.2.3", 0),
    ("2024.10", "2024.9.99", 1),
    ("1.٣", "1.3", -1),  # non-ASCII digits do not count
]


@pytest.mark.parametrize(
    ("found", "minimum", "order"), COMPARISONS, ids=[f"{f}~{m}" for f, m, _ in COMPARISONS]
)
def test_compare_versions(found: str, minimum: str, order: int) -> None:
    assert compare_versions(found, minimum) == order
    assert satisfies(found, minimum) is (order >= 0)


UNREADABLE = ["", "   ", "beta", "v", "..", "x.y.z", "١٢", "\t\n", " beta 2"]


@pytest.mark.parametrize("found", UNREADABLE, ids=repr)
def test_unreadable_versions(found: str) -> None:
    assert version_key(found) is None
    assert compare_versions(found, "1") is None
    assert satisfies(found, "0") is False


def test_absent_version_never_satisfies() -> None:
    assert satisfies(None, "0") is False


MIN_VERSIONS = [
    ("2", None),
    ("2.3.0", None),
    ("0.0.0.0.1", None),
    ("123456789.1", None),
    ("1234567890.1", "each part must have at most 9 digits"),
    ("1.0123456789", "each part must have at most 9 digits"),
    ("2.3a", "must be a dotted numeric version such as '2.3.0'"),
    ("v2.3", "must be a dotted numeric version such as '2.3.0'"),
    ("2.3.", "must be a dotted numeric version such as '2.3.0'"),
    (".2", "must be a dotted numeric version such as '2.3.0'"),
    ("2..3", "must be a dotted numeric version such as '2.3.0'"),
    ("", "must be a dotted numeric version such as '2.3.0'"),
    (" 2.3", "must be a dotted numeric version such as '2.3.0'"),
    ("2.3\n", "must be a dotted numeric version such as '2.3.0'"),
    ("٢.3", "must be a dotted numeric version such as '2.3.0'"),
    ("2-3", "must be a dotted numeric version such as '2.3.0'"),
]


@pytest.mark.parametrize(("text", "problem"), MIN_VERSIONS, ids=repr)
def test_min_version_form(text: str, problem: str | None) -> None:
    assert min_version_problem(text) == problem


@given(st.text())
def test_reading_any_text_gives_a_key_or_none(text: str) -> None:
    key = version_key(text)
    assert key is None or isinstance(key, tuple)


@given(
    st.lists(st.integers(min_value=0, max_value=10**12), min_size=1, max_size=6),
    st.lists(st.integers(min_value=0, max_value=10**12), min_size=1, max_size=6),
)
def test_comparison_matches_zero_padded_integer_tuples(left: list[int], right: list[int]) -> None:
    width = max(len(left), len(right))
    padded_left = left + [0] * (width - len(left))
    padded_right = right + [0] * (width - len(right))
    expected = (padded_left > padded_right) - (padded_left < padded_right)
    text_left, text_right = ".".join(map(str, left)), ".".join(map(str, right))
    assert compare_versions(text_left, text_right) == expected
