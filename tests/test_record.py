"""FieldwiseRecord: the models' rule objects are declared, built, frozen, compared, hashed and
printed as frozen dataclasses would be, without generating any code."""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from hermes_decl._record import FieldwiseRecord
from hermes_decl.models.app_block import OneOf
from hermes_decl.models.common import Meanings
from hermes_decl.models.one_or_list import OneOrListRule
from hermes_decl.models.text_rules import Accept, TextRule


class _Pair(FieldwiseRecord):
    KIND: ClassVar[str] = "pair"
    left: int
    right: tuple[int, ...] = ()


@dataclass(frozen=True)
class _GeneratedPair:
    left: int
    right: tuple[int, ...] = ()


class _OtherPair(FieldwiseRecord):
    left: int
    right: tuple[int, ...] = ()


class _Triple(_Pair):
    right: tuple[int, ...] = (0,)
    middle: str = "m"


class _Checked(FieldwiseRecord):
    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("negative")

    @functools.cached_property
    def doubled(self) -> int:
        return self.value * 2


class _Stateless(FieldwiseRecord):
    pass


class _Nested(FieldwiseRecord):
    inner: object


def test_fields_are_the_annotated_attributes_inherited_first_without_class_variables() -> None:
    assert _Pair.__record_fields__ == ("left", "right")
    assert _Triple.__record_fields__ == ("left", "right", "middle")
    assert dict(_Triple.__record_defaults__) == {"right": (0,), "middle": "m"}


def test_built_by_position_or_by_name_with_defaults_as_a_dataclass() -> None:
    for built, generated in [
        (_Pair(1), _GeneratedPair(1)),
        (_Pair(1, (2,)), _GeneratedPair(1, (2,))),
        (_Pair(right=(3,), left=1), _GeneratedPair(right=(3,), left=1)),
    ]:
        assert (built.left, built.right) == (generated.left, generated.right)
    assert (_Triple(5).right, _Triple(5).middle) == ((0,), "m")


@pytest.mark.parametrize(
    ("arguments", "keywords", "message"),
    [
        ((), {}, "_Pair() is missing its argument 'left'"),
        ((1, (), 3), {}, "_Pair() takes 2 arguments, 3 given"),
        ((1,), {"left": 2}, "_Pair() got two values for 'left'"),
        ((1,), {"up": 2}, "_Pair() got an unexpected keyword argument for 'up'"),
    ],
    ids=["missing", "too-many", "twice", "unknown"],
)
def test_wrong_arguments_are_refused(
    arguments: tuple[Any, ...], keywords: dict[str, Any], message: str
) -> None:
    with pytest.raises(TypeError) as raised:
        _Pair(*arguments, **keywords)
    assert str(raised.value) == message


def test_a_field_without_a_default_may_not_follow_one_with() -> None:
    with pytest.raises(TypeError, match="field 'after' without a default follows one with"):

        class _Wrong(FieldwiseRecord):
            before: int = 0
            after: int  # type: ignore[misc]


def test_a_mutable_default_is_refused_as_a_dataclass_refuses_it() -> None:
    with pytest.raises(ValueError, match="field 'items' has a mutable default"):

        class _Shared(FieldwiseRecord):
            items: list[int] = []  # noqa: RUF012


def test_class_variables_are_told_from_fields_by_their_annotation_alone() -> None:
    class _Written(FieldwiseRecord):
        KIND: ClassVar[str] = "k"
        LIMIT: ClassVar[int] = 3
        OTHER: typing.ClassVar = 4
        ClassVarLike: int = 5

    assert _Written.__record_fields__ == ("ClassVarLike",)


def test_post_init_runs_after_the_fields_are_set_and_cached_properties_work() -> None:
    with pytest.raises(ValueError, match="negative"):
        _Checked(-1)
    checked = _Checked(4)
    assert (checked.doubled, checked.doubled) == (8, 8)
    assert checked == _Checked(4)  # a cached value is no field


def test_equal_by_fields_as_a_generated_eq() -> None:
    assert _Pair(1, (2,)) == _Pair(1, (2,))
    assert _Pair(1, (2,)) != _Pair(1, (3,))
    assert _Pair(1) != _Pair(2)
    assert _Stateless() == _Stateless()


def test_another_class_with_the_same_fields_is_not_equal() -> None:
    assert _Pair(1) != _OtherPair(1)
    assert _Pair(1).__eq__(_OtherPair(1)) is NotImplemented
    assert _Pair(1).__eq__((1, ())) is NotImplemented


def test_hash_follows_equality() -> None:
    assert len({_Pair(1, (2,)), _Pair(1, (2,)), _Pair(1, (3,))}) == 2
    assert hash(_Pair(1, (2,))) == hash(_GeneratedPair(1, (2,)))


def test_repr_shows_the_fields_a_generated_repr_shows() -> None:
    generated = repr(_GeneratedPair(1, (2,)))
    assert repr(_Pair(1, (2,))) == generated.replace("_GeneratedPair", "_Pair")
    assert repr(_Stateless()) == "_Stateless()"


def test_a_record_holding_itself_prints_without_recursing() -> None:
    holder: list[object] = []
    record = _Nested(holder)
    holder.append(record)
    assert repr(record) == "_Nested(inner=[...])"


def test_records_stay_frozen() -> None:
    pair = _Pair(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.left = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        pair.other = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del pair.left
    assert pair.left == 1


@pytest.mark.parametrize(
    ("rule", "shown"),
    [
        (
            Accept("^a$"),
            "Accept(pattern='^a$', min_length=None, max_length=None, leaves=None)",
        ),
        (
            TextRule("blank", "^x", "must not be blank"),
            "TextRule(code='blank', pattern='^x', message='must not be blank')",
        ),
        (OneOf(("a", "b")), "OneOf(options=('a', 'b'))"),
        (Meanings((("a", "an a"),)), "Meanings(values=(('a', 'an a'),))"),
        (
            OneOrListRule("install", "empty", "a hint", "Hint", max_items=2),
            "OneOrListRule(field='install', empty='empty', item_comment='a hint', "
            "item_def='Hint', max_items=2, too_many='')",
        ),
    ],
    ids=["Accept", "TextRule", "OneOf", "Meanings", "OneOrListRule"],
)
def test_the_models_rule_objects_print_and_compare_by_fields(rule: Any, shown: str) -> None:
    assert repr(rule) == shown
    fields = vars(rule)
    copy = type(rule)(**{name: fields[name] for name in type(rule).__record_fields__})
    assert copy == rule
    assert copy is not rule
    assert hash(copy) == hash(rule)
