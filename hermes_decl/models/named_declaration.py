"""The whole declaration: a name, an optional ``app`` block and a ``requires`` block."""

from typing import Annotated, Any

from pydantic import Field, ModelWrapValidatorHandler, ValidationInfo, model_validator

from hermes_decl.models.app_block import APP_ID_CONTEXT_KEY, AppDef
from hermes_decl.models.path_rules import PLAIN_NAME
from hermes_decl.models.requires import RequiresWithApp
from hermes_decl.models.rule_object import InnerRule, renders


class _NameInContext(InnerRule):
    """Carrying the name into the validation context checks nothing the inner schema does not."""


class Declaration(RequiresWithApp):
    """One server's application declaration, validated and frozen."""

    name: Annotated[str, PLAIN_NAME] = Field(
        description="The configured server name; carried on each AppDef as app_id."
    )

    @model_validator(mode="wrap")
    @classmethod
    @renders(_NameInContext())
    def _carry_name(
        cls, data: Any, handler: ModelWrapValidatorHandler[Any], info: ValidationInfo
    ) -> Any:
        """Validate with the name in the context, so that each ``AppDef`` knows its ``app_id``."""
        if info.context is None and isinstance(data, dict) and isinstance(data.get("name"), str):
            return cls.model_validate(data, context={APP_ID_CONTEXT_KEY: data["name"]})
        return handler(data)

    def app_for(self, os_family: str) -> AppDef | None:
        """The application's definition for one OS family, or None."""
        return self.app.for_os(os_family) if self.app is not None else None
