"""``quick_init``: a frozen dataclass filled through its ``__dict__`` behaves as a dataclass."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from hermes_decl._quick_init import quick_init
from hermes_decl.resolver.app import Candidate
from hermes_decl.resolver.availability import Availability


def test_the_signature_is_the_dataclass_one() -> None:
    for cls in (Candidate, Availability):
        generated: type[object] = dataclasses.dataclass(frozen=True)(
            type(cls.__name__, (), {"__annotations__": cls.__annotations__, **_defaults(cls)})
        )
        assert inspect.signature(cls.__init__) == inspect.signature(generated.__init__)


def _defaults(cls: type) -> dict[str, object]:
    return {
        field.name: field.default
        for field in dataclasses.fields(cls)
        if field.default is not dataclasses.MISSING
    }


def test_an_instance_is_frozen_and_compares_hashes_and_replaces_as_a_dataclass() -> None:
    made = Candidate(1, "path", "/opt/x", "absent", detail="d")
    assert made == Candidate(1, "path", "/opt/x", "absent", "d")
    assert hash(made) == hash(Candidate(1, "path", "/opt/x", "absent", "d"))
    assert dataclasses.replace(made, version="2").version == "2"
    assert repr(made).startswith("Candidate(index=1, kind='path', path='/opt/x'")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.path = "/elsewhere"  # type: ignore[misc]


@pytest.mark.parametrize(
    "body",
    [
        {"__annotations__": {"a": "list[int]"}, "a": dataclasses.field(default_factory=list)},
        {"__annotations__": {"a": "int"}, "a": dataclasses.field(default=1, kw_only=True)},
        {"__annotations__": {"a": "int"}, "__post_init__": lambda self: None},
    ],
)
def test_a_field_the_plain_init_cannot_take_is_refused(body: dict[str, object]) -> None:
    with pytest.raises(TypeError):
        quick_init(dataclasses.dataclass(frozen=True)(type("Odd", (), body)))


def test_a_mutable_or_slotted_class_is_refused() -> None:
    body = {"__annotations__": {"a": "int"}}
    with pytest.raises(TypeError):
        quick_init(dataclasses.dataclass()(type("Mutable", (), dict(body))))
    with pytest.raises(TypeError):
        quick_init(dataclasses.dataclass(frozen=True, slots=True)(type("Slotted", (), dict(body))))
