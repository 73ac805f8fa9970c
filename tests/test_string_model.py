"""A path location is a frozen model that is one string, as pydantic's ``RootModel`` would make it,
without importing ``RootModel`` (whose import loads pydantic's plugin machinery)."""

from __future__ import annotations

import copy
import pickle

import pytest
from pydantic import BaseModel, ValidationError
from pydantic_core import SchemaValidator

from hermes_decl.models import PathLocation
from hermes_decl.models.locations import (
    PATH_LOCATIONS,
    DarwinPathLocation,
    LinuxPathLocation,
    Win32PathLocation,
)
from hermes_decl.models.schema_generation import generated_core_schema
from hermes_decl.models.string_model import StringModel


@pytest.mark.parametrize("model", list(PATH_LOCATIONS.values()), ids=lambda model: model.__name__)
def test_each_path_location_is_validated_and_dumped_as_its_string(
    model: type[PathLocation],
) -> None:
    schema = generated_core_schema(model)
    model_schema = schema["schema"] if schema["type"] == "definitions" else schema
    assert (model_schema["type"], model_schema.get("root_model")) == ("model", True)
    assert not model_schema.get("custom_init")  # pydantic-core validates without calling __init__
    validator = SchemaValidator(schema)
    built = validator.validate_python("~/app")
    assert (type(built), built.root, built.path, built.kind) == (model, "~/app", "~/app", "path")
    assert built.model_dump() == "~/app"
    assert built.model_dump_json() == '"~/app"'


def test_a_path_location_is_built_from_its_string_by_position_and_by_name() -> None:
    by_position = LinuxPathLocation("/opt/app")  # type: ignore[call-arg]
    assert by_position == LinuxPathLocation(root="/opt/app")
    assert LinuxPathLocation(root="/opt/app").path == "/opt/app"
    assert repr(LinuxPathLocation(root="/opt/app")) == "LinuxPathLocation(root='/opt/app')"


@pytest.mark.parametrize(
    ("arguments", "keywords", "error_type"),
    [((), {}, "string_type"), ((), {"path": "/opt"}, "string_type")],
    ids=["nothing", "another-keyword"],
)
def test_a_path_location_built_from_no_string_is_a_validation_error_as_a_root_models(
    arguments: tuple[str, ...], keywords: dict[str, str], error_type: str
) -> None:
    with pytest.raises(ValidationError) as raised:
        LinuxPathLocation(*arguments, **keywords)
    assert [error["type"] for error in raised.value.errors()] == [error_type]
    with pytest.raises(ValueError, match="takes its string or keywords, not both"):
        LinuxPathLocation("/opt", path="/opt")  # type: ignore[call-arg]


def test_a_path_location_refuses_what_its_rules_refuse() -> None:
    with pytest.raises(ValidationError) as raised:
        LinuxPathLocation(root="opt/app")
    [error] = raised.value.errors()
    assert (error["type"], error["loc"]) == ("path_not_rooted", ())
    with pytest.raises(ValidationError):
        Win32PathLocation(root="/opt/app")


def test_a_path_location_is_frozen_and_compares_and_hashes_by_its_class_and_string() -> None:
    location = DarwinPathLocation(root="/Applications/App.app")
    with pytest.raises(ValidationError):
        location.root = "/elsewhere"  # type: ignore[misc]
    assert location == DarwinPathLocation(root="/Applications/App.app")
    assert hash(location) == hash(DarwinPathLocation(root="/Applications/App.app"))
    assert location != DarwinPathLocation(root="/Applications/Other.app")
    other_os: object = LinuxPathLocation(root="/Applications/App.app")
    assert location != other_os


@pytest.mark.parametrize(
    "duplicate",
    [copy.copy, copy.deepcopy, lambda value: pickle.loads(pickle.dumps(value))],
    ids=["copy", "deepcopy", "pickle"],
)
def test_a_path_location_copies_whole(duplicate: object) -> None:
    location = LinuxPathLocation(root="/opt/app")
    copied = duplicate(location)  # type: ignore[operator]
    assert copied == location and copied is not location
    assert (copied.__dict__, copied.model_fields_set) == ({"root": "/opt/app"}, {"root"})
    assert copied.__pydantic_extra__ is None and copied.__pydantic_private__ is None


def test_a_path_location_is_copied_with_changes_and_constructed_unvalidated() -> None:
    location = LinuxPathLocation(root="/opt/app")
    changed = location.model_copy(update={"root": "/opt/other"})
    assert (changed.root, location.root) == ("/opt/other", "/opt/app")
    assert changed.__dict__ == {"root": "/opt/other"}
    built = LinuxPathLocation.model_construct(root="not checked")
    assert (built.root, built.__dict__) == ("not checked", {"root": "not checked"})


def test_a_string_model_is_a_plain_base_model_and_no_root_model() -> None:
    assert issubclass(PathLocation, StringModel) and issubclass(StringModel, BaseModel)
    assert all(base.__module__ != "pydantic.root_model" for base in PathLocation.__mro__)


def test_the_schema_generated_without_a_validator_is_the_type_adapters() -> None:
    from pydantic import TypeAdapter

    from hermes_decl.models import Declaration
    from hermes_decl.models.requires import RequiresWithApp

    both = tuple[Declaration, RequiresWithApp]
    assert generated_core_schema(both) == TypeAdapter(both).core_schema


def test_the_schema_is_generated_by_a_type_adapter_where_pydantic_names_its_generator_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hermes_decl.models import schema_generation

    def renamed(of: object) -> object:
        raise ImportError("cannot import name 'GenerateSchema'")

    monkeypatch.setattr(schema_generation, "_without_validator", renamed)
    schema = generated_core_schema(LinuxPathLocation)
    assert SchemaValidator(schema).validate_python("/opt/app") == LinuxPathLocation(root="/opt/app")
