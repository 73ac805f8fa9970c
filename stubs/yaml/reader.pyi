from yaml import YAMLError

class ReaderError(YAMLError):
    name: str
    character: int | bytes
    position: int
    encoding: str | None
    reason: str
