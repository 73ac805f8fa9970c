from typing import Any, ClassVar, TextIO

class Mark:
    name: str
    index: int
    line: int
    column: int
    buffer: str | None
    pointer: int

class YAMLError(Exception): ...

class MarkedYAMLError(YAMLError):
    context: str | None
    context_mark: Mark | None
    problem: str | None
    problem_mark: Mark | None
    note: str | None

class Node:
    tag: str
    value: Any
    start_mark: Mark
    end_mark: Mark

class ScalarNode(Node):
    value: str
    style: str | None

class CollectionNode(Node):
    flow_style: bool | None

class SequenceNode(CollectionNode):
    value: list[Node]

class MappingNode(CollectionNode):
    value: list[tuple[Node, Node]]

class Event:
    start_mark: Mark
    end_mark: Mark

class NodeEvent(Event):
    anchor: str | None

class AliasEvent(NodeEvent): ...

class SafeLoader:
    yaml_constructors: ClassVar[dict[str | None, Any]]
    def __init__(self, stream: str | bytes) -> None: ...
    def check_node(self) -> bool: ...
    def get_node(self) -> Node | None: ...
    def check_event(self, *choices: type[Event]) -> bool: ...
    def peek_event(self) -> Event: ...
    def compose_node(self, parent: Node | None, index: Node | int | None) -> Node: ...
    def construct_object(self, node: Node, deep: bool = False) -> Any: ...
    def dispose(self) -> None: ...

def safe_load(stream: str | bytes | TextIO) -> Any: ...
def safe_dump(
    data: object,
    stream: None = None,
    *,
    default_flow_style: bool | None = ...,
    allow_unicode: bool = ...,
    width: int = ...,
    indent: int = ...,
    sort_keys: bool = ...,
) -> str: ...
