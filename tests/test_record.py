"""FieldwiseRecord: the models' rule objects compare, hash and print as generated dataclass methods
would, without generating them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from hermes_decl import _record
from hermes_decl._record import FieldwiseRecord
from hermes_decl.models.app_block import OneOf
from hermes_decl.models.common import Meanings
from hermes_decl.models.text_rules import Accept, TextRule


@pytest.fixture(autouse=True)
def _fields_worked_out_afresh() -> None:
    """Each test works out the compared fields itself, not from what an earlier one left."""
    _record._COMPARED.clear()


@dataclass(frozen=True, eq=False, repr=False)
class _Pair(FieldwiseRecord):
    left: int
    right: tuple[int, ...] = ()
    note: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True)
class _GeneratedPair:
    left: int
    right: tuple[int, ...] = ()
    note: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True, eq=False, repr=False)
class _OtherPair(FieldwiseRecord):
    left: int
    right: tuple[int, ...] = ()


class _Stateless(FieldwiseRecord):
    pass


@dataclass(frozen=True, eq=False, repr=False)
class _Nested(FieldwiseRecord):
    inner: object


def test_equal_by_compared_fields_as_a_generated_eq() -> None:
    assert _Pair(1, (2,), note="a") == _Pair(1, (2,), note="b")
    assert _Pair(1, (2,)) != _Pair(1, (3,))
    assert _Pair(1) != _Pair(2)
    generated = (_GeneratedPair(1, (2,), "a"), _GeneratedPair(1, (2,), "b"))
    assert (generated[0] == generated[1]) is (_Pair(1, (2,), "a") == _Pair(1, (2,), "b"))


def test_another_class_with_the_same_fields_is_not_equal() -> None:
    assert _Pair(1) != _OtherPair(1)
    assert _Pair(1).__eq__(_OtherPair(1)) is NotImplemented
    assert _Pair(1).__eq__((1, ())) is NotImplemented


def test_hash_follows_equality() -> None:
    assert hash(_Pair(1, (2,), note="a")) == hash(_Pair(1, (2,), note="b"))
    assert len({_Pair(1, (2,)), _Pair(1, (2,), note="x"), _Pair(1, (3,))}) == 2
    assert hash(_Pair(1, (2,))) == hash(_GeneratedPair(1, (2,)))


def test_repr_shows_the_fields_a_generated_repr_shows() -> None:
    assert repr(_Pair(1, (2,), note="hidden")) == "_Pair(left=1, right=(2,))"
    generated = repr(_GeneratedPair(1, (2,), note="hidden"))
    assert repr(_Pair(1, (2,), note="hidden")) == generated.replace("_GeneratedPair", "_Pair")


def test_a_record_holding_itself_prints_without_recursing() -> None:
    holder: list[object] = []
    record = _Nested(holder)
    holder.append(record)
    assert repr(record) == "_Nested(inner=[...])"


def test_a_subclass_that_is_no_dataclass_compares_by_identity() -> None:
    one, two = _Stateless(), _Stateless()
    assert one == one
    assert one != two
    assert hash(one) == object.__hash__(one)
    assert repr(one) == object.__repr__(one)


def test_records_stay_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        _Pair(1).left = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("rule", "shown"),
    [
        (
            Accept("^a$"),
            "Accept(pattern='^a$', min_length=None, max_length=None, strip=False, leaves=None)",
        ),
        (
            TextRule("blank", "^x", "must not be blank"),
            "TextRule(code='blank', pattern='^x', message='must not be blank')",
        ),
        (OneOf(("a", "b")), "OneOf(options=('a', 'b'))"),
        (Meanings((("a", "an a"),)), "Meanings(values=(('a', 'an a'),))"),
    ],
    ids=["Accept", "TextRule", "OneOf", "Meanings"],
)
def test_the_models_rule_objects_print_and_compare_by_fields(rule: object, shown: str) -> None:
    assert repr(rule) == shown
    copy = dataclasses.replace(rule)  # type: ignore[type-var]
    assert copy == rule
    assert copy is not rule
    assert hash(copy) == hash(rule)
