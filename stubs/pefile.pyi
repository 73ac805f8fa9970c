from types import TracebackType

# Only what tests/test_readers.py uses. Structure fields (FileVersionMS, OffsetToData, …) are set
# per format at run time; the tests read them by name and check their type.

class Structure:
    def get_file_offset(self) -> int: ...
    def sizeof(self) -> int: ...

class SectionStructure(Structure): ...
class DataContainer: ...

class ResourceDataEntryData(DataContainer):
    struct: Structure

class ResourceDirEntryData(DataContainer):
    struct: Structure
    id: int | None
    # Exactly one of the two exists: a subdirectory, or the data entry at the last level.
    directory: ResourceDirData
    data: ResourceDataEntryData

class ResourceDirData(DataContainer):
    struct: Structure
    entries: list[ResourceDirEntryData]

class PE:
    DOS_HEADER: Structure
    FILE_HEADER: Structure
    OPTIONAL_HEADER: Structure
    sections: list[SectionStructure]
    # Present only when the file has them.
    DIRECTORY_ENTRY_RESOURCE: ResourceDirData
    VS_FIXEDFILEINFO: list[Structure]
    def __init__(
        self,
        name: str | None = None,
        data: bytes | None = None,
        fast_load: bool | None = None,
        max_symbol_exports: int = ...,
        max_repeated_symbol: int = ...,
    ) -> None: ...
    def __enter__(self) -> PE: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...
    def get_offset_from_rva(self, rva: int) -> int: ...
