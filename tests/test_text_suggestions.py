"""``did_you_mean``: the closest option to a misspelt key, worked out once per misspelling."""

from __future__ import annotations

from hermes_decl import _text
from hermes_decl._text import did_you_mean


class _Name(str):
    """A string subclass, as a YAML loader's custom constructor might give."""


def test_the_closest_option_is_suggested_and_none_when_nothing_is_close() -> None:
    assert did_you_mean("presense", ("presence", "location")) == "presence"
    assert did_you_mean("zzzz", ("presence", "location")) is None
    assert did_you_mean(_Name("locaton"), ["presence", "location"]) == "location"
    assert did_you_mean(3, ("presence",)) is None


def test_a_misspelling_met_again_is_not_compared_again() -> None:
    _text._closest.cache_clear()
    assert did_you_mean("requirs", ["app", "requires"]) == "requires"
    assert did_you_mean("requirs", ("app", "requires")) == "requires"
    info = _text._closest.cache_info()
    assert (info.hits, info.misses) == (1, 1)
    assert did_you_mean("requirs", ("app", "requirez")) == "requirez"  # other options, asked anew
    assert _text._closest.cache_info().misses == 2


def test_a_value_too_long_to_be_close_to_any_option_is_not_compared_nor_kept() -> None:
    _text._closest.cache_clear()
    options = ("presence", "location")
    assert did_you_mean("p" * 19, options) is None  # 19 > 7/3 of 8: never close
    assert did_you_mean("presence" + "x" * 10, options) == "presence"  # 18 of 8: may be
    assert _text._closest.cache_info().currsize == 1
    assert did_you_mean("x", ()) is None
