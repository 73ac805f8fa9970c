"""The YAML 1.2 core schema, as editors read YAML: which plain scalars are what, and their values.

PyYAML resolves plain scalars by YAML 1.1, where ``yes``, ``no``, ``on``, ``off``, ``y`` and
``n`` are booleans, ``010`` is octal and ``2024-01-01`` is a date. Editors (yaml-language-server
and the ``yaml`` library it uses) read YAML 1.2: only ``true``/``false`` are booleans, ``0o17`` is
octal, ``010`` is ten and dates are text. The loader reads as editors do, so that what an editor
shows and what the loader decides are the same value.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.resolver import BaseResolver

from hermes_decl.loader.document import MAX_INT_DIGITS

_TAG = "tag:yaml.org,2002:"

NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
MERGE = re.compile(r"^<<$")


class CoreResolver(BaseResolver):
    """Resolves plain scalars by the YAML 1.2 core schema; ``<<`` stays a merge key."""

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        """The tag of a node: ``BaseResolver.resolve`` without path resolvers (there are none)."""
        if kind is yaml.ScalarNode:
            if implicit[0]:
                for tag, pattern in self.yaml_implicit_resolvers.get(value[:1], ()):
                    if pattern.match(value):
                        return str(tag)
            return self.DEFAULT_SCALAR_TAG
        if kind is yaml.SequenceNode:
            return self.DEFAULT_SEQUENCE_TAG
        return self.DEFAULT_MAPPING_TAG


for _tag, _pattern, _first in (
    ("bool", BOOL, "tTfF"),
    ("int", INT, "-+0123456789"),
    ("float", FLOAT, "-+.0123456789"),
    ("null", NULL, ["~", "n", "N", ""]),
    ("merge", MERGE, "<"),
):
    CoreResolver.add_implicit_resolver(_TAG + _tag, _pattern, list(_first))


class CoreConstructor(SafeConstructor):
    """PyYAML's safe constructor with the core schema's booleans and integers."""

    def construct_core_bool(self, node: yaml.Node) -> bool:
        """``true`` or ``false`` in any case the core schema allows; nothing else."""
        value = self.construct_scalar(node)  # type: ignore[arg-type]
        if not isinstance(value, str) or not BOOL.match(value):
            raise ConstructorError(None, None, f"{value!r} is not true or false", node.start_mark)
        return value.lower() == "true"

    def construct_core_int(self, node: yaml.Node) -> int:
        """A decimal, ``0o`` octal or ``0x`` hexadecimal integer (``010`` is ten)."""
        value = self.construct_scalar(node)  # type: ignore[arg-type]
        if not isinstance(value, str) or not INT.match(value):
            raise ConstructorError(None, None, f"{value!r} is not an integer", node.start_mark)
        if value.startswith("0o"):
            return int(value[2:], 8)
        if value.startswith("0x"):
            return int(value[2:], 16)
        digits = len(value.lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            problem = f"it has {digits:,} digits, more than {MAX_INT_DIGITS:,}"
            raise ConstructorError(None, None, problem, node.start_mark)
        return int(value, 10)


CoreConstructor.yaml_constructors = {
    **SafeConstructor.yaml_constructors,
    _TAG + "bool": CoreConstructor.construct_core_bool,
    _TAG + "int": CoreConstructor.construct_core_int,
}


class CoreSafeLoader(CoreConstructor, CoreResolver, yaml.SafeLoader):
    """PyYAML's safe loader, reading by the core schema; for small texts without positions."""


def safe_load(text: str) -> object:
    """``yaml.safe_load``, by the YAML 1.2 core schema (raises PyYAML's errors)."""
    return yaml.load(text, Loader=CoreSafeLoader)


class CoreSafeDumper(CoreResolver, yaml.SafeDumper):
    """PyYAML's safe dumper, quoting exactly the text the core schema would read as another type.

    ``08`` is quoted (the core schema reads it as the number 8); ``yes`` is not (it is text).
    """


def safe_dump(data: object, **options: Any) -> str:
    """``yaml.safe_dump`` to text, written so that the core schema reads it back the same."""
    return str(yaml.dump(data, Dumper=CoreSafeDumper, **options))
