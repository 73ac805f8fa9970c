"""Fuzz the version reader: ``version_key``, ``compare_versions``, ``satisfies`` and the
``min_version`` form never raise on any ``str``, and the order they give is a total order.

Input layout: by default the input is up to three strings separated by NUL bytes, decoded as
UTF-8 with lone surrogates for bytes that are not (``surrogateescape``). A first byte below 0x08
makes the rest drive a generator of version-like strings instead (dotted digits, suffixes,
whitespace, non-ASCII digits, very long runs of digits).

Besides "never raises", each input checks: comparison is antisymmetric, reflexive and
transitive on readable strings; it agrees with a plain reference reading of SPEC 3.3 (integers,
zero padding); ``satisfies`` is ``compare >= 0``; and a well-formed ``min_version`` is readable.

    python fuzz/fuzz_version.py -atheris_runs=200000 fuzz/work/version fuzz/corpus/version
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.common import ByteReader, main, version_text
from hermes_decl.versions import compare_versions, min_version_problem, satisfies, version_key

_ASCII_DIGITS = re.compile(r"[0-9]+")
_REFERENCE_DIGITS = 1000
"""The reference reading converts digits to ``int``; longer runs are left to the real one."""


def _strings(data: bytes) -> list[str]:
    if data[:1] and data[0] < 0x08:
        reader = ByteReader(data[1:])
        return [version_text(reader) for _ in range(3)]
    texts = data.decode("utf-8", "surrogateescape").split("\0")
    return [*texts, "", ""][:3]


def _reference(text: str) -> list[int] | None:
    """SPEC 3.3 read literally: cut at whitespace, split on '.', first ASCII digit run per part."""
    words = text.split()
    if not words or _ASCII_DIGITS.search(words[0]) is None:
        return None
    parts = []
    for segment in words[0].split("."):
        run = _ASCII_DIGITS.search(segment)
        if run and len(run.group()) > _REFERENCE_DIGITS:
            raise _TooLong
        parts.append(int(run.group()) if run else 0)
    return parts


class _TooLong(Exception):
    pass


def _reference_compare(left: list[int], right: list[int]) -> int:
    width = max(len(left), len(right))
    padded_left = left + [0] * (width - len(left))
    padded_right = right + [0] * (width - len(right))
    return (padded_left > padded_right) - (padded_left < padded_right)


def TestOneInput(data: bytes) -> None:
    texts = _strings(data)
    keys = [version_key(text) for text in texts]
    for text, key in zip(texts, keys, strict=True):
        problem = min_version_problem(text)
        assert problem is None or (isinstance(problem, str) and problem), problem
        if problem is None:
            assert key is not None, text  # a well-formed minimum is always readable
            assert text.isascii() and text.replace(".", "").isdigit(), text
        order = compare_versions(text, text)
        assert order == (None if key is None else 0), (text, order)
        assert satisfies(None, text) is False
    a, b, c = texts
    ab, ba = compare_versions(a, b), compare_versions(b, a)
    assert ab in (-1, 0, 1, None), ab
    assert (ab is None) == (keys[0] is None or keys[1] is None), (a, b, ab)
    if ab is not None:
        assert ba == -ab, (a, b, ab, ba)
    assert satisfies(a, b) == (ab is not None and ab >= 0), (a, b)
    bc, ac = compare_versions(b, c), compare_versions(a, c)
    if ab is not None and bc is not None and ac is not None and ab <= 0 and bc <= 0:
        assert ac <= 0, (a, b, c, ab, bc, ac)
    try:
        references = [_reference(text) for text in texts[:2]]
    except _TooLong:
        return
    for text, key, reference in zip(texts[:2], keys[:2], references, strict=True):
        assert (key is None) == (reference is None), (text, key, reference)
    left, right = references
    if left is not None and right is not None:
        assert ab == _reference_compare(left, right), (a, b, ab)


if __name__ == "__main__":
    main(TestOneInput, "version")
