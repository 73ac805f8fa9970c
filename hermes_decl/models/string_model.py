"""A frozen model that is one string: validated from a string, and dumped as one.

pydantic's ``RootModel`` would say this, but importing it builds ``RootModel``'s own validator,
and building any validator through pydantic first loads its plugin machinery
(``importlib.metadata`` and a scan of every installed distribution): about 20 ms of a cold
start, for plugins the parser never runs, since it builds its validators itself. pydantic reads
whether a model is such a model from the class flag ``__pydantic_root_model__`` alone, so a
``BaseModel`` that sets it is validated, dumped and described as ``RootModel`` would be; this
class gives it the few Python methods that keep its instances whole (they have no extra or
private state).
"""

import copy
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict
from pydantic_core import PydanticUndefined

if TYPE_CHECKING:
    from typing_extensions import Self

_set = object.__setattr__


class StringModel(BaseModel):
    """A frozen model whose whole value is the string ``root``."""

    model_config = ConfigDict(frozen=True, strict=True, defer_build=True)

    __pydantic_root_model__: ClassVar[bool] = True
    __pydantic_extra__ = None  # no extra keys, ever
    __pydantic_private__ = None  # nor private state

    root: str

    def __init__(self, /, root: Any = PydanticUndefined, **data: Any) -> None:
        """Validate ``root`` as this model's string, as ``RootModel`` does: keywords other than
        ``root`` are validated as the value instead (a mapping, so refused), as is nothing."""
        if data:
            if root is not PydanticUndefined:
                raise ValueError(f"{type(self).__name__} takes its string or keywords, not both")
            root = data
        self.__pydantic_validator__.validate_python(root, self_instance=self)

    # Only validates, as BaseModel's own does: pydantic-core validates without calling it.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def model_construct(cls, root: str, _fields_set: set[str] | None = None) -> "Self":  # type: ignore[override]
        """An instance of ``root`` as it is, unvalidated (as ``BaseModel.model_construct``)."""
        return super().model_construct(_fields_set, root=root)

    def __getstate__(self) -> dict[Any, Any]:
        return {"__dict__": self.__dict__, "__pydantic_fields_set__": self.__pydantic_fields_set__}

    def __setstate__(self, state: dict[Any, Any]) -> None:
        _set(self, "__pydantic_fields_set__", state["__pydantic_fields_set__"])
        _set(self, "__dict__", state["__dict__"])

    def __copy__(self) -> "Self":
        duplicate = self.__class__.__new__(self.__class__)
        _set(duplicate, "__dict__", dict(self.__dict__))
        _set(duplicate, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        return duplicate

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> "Self":
        memo = {} if memo is None else memo
        duplicate = self.__class__.__new__(self.__class__)
        memo[id(self)] = duplicate
        _set(duplicate, "__dict__", copy.deepcopy(self.__dict__, memo))
        _set(duplicate, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        return duplicate


__all__ = ["StringModel"]
