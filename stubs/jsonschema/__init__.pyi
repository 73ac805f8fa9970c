from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

class ValidationError(Exception):
    message: str
    json_path: str

class SchemaError(Exception):
    message: str

class _Validator:
    META_SCHEMA: ClassVar[Mapping[str, Any]]
    def __init__(self, schema: Mapping[str, Any] | bool) -> None: ...
    @classmethod
    def check_schema(cls, schema: Mapping[str, Any] | bool) -> None: ...
    def is_valid(self, instance: object) -> bool: ...
    def iter_errors(self, instance: object) -> Iterator[ValidationError]: ...

class Draft7Validator(_Validator): ...
class Draft202012Validator(_Validator): ...
