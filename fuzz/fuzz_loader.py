"""Fuzz the YAML/JSON loader: any text gives declarations or a ``DeclarationError``, quickly.

Input layout: by default the whole input is the file's bytes (seeds are declaration files). A
first byte below 0x08 selects another mode for the rest:

- 0: a declarations mapping built by the generator, written as YAML (block or flow style) or
  JSON, then edited in a few places (YAML tokens inserted, text cut out);
- 1: a soup of YAML tokens and vocabulary (anchors, aliases, merge keys, tags, flow brackets,
  quotes, document markers, indentation);
- 2: the rest encoded as UTF-16 with a byte order mark;
- 3: an alias or merge-key bomb: anchored levels, each repeating the one before through alias
  lists, merge lists, repeated merge keys or ``!!set`` keys, over empty or small mappings and
  lists, sometimes with alias lists on top and a declaration after it;
- anything else: the rest as raw bytes.

Each input is loaded from bytes with ``load_declarations_text``; when it is text, it is also read
with ``read_document(strict=False)`` and its declarations taken from a selected sub-mapping, as
``--at`` does. Hangs are libFuzzer's ``-timeout`` (the plain driver has its own).

    python fuzz/fuzz_loader.py -atheris_runs=200000 -timeout=10 fuzz/work/loader fuzz/corpus/loader
"""

from __future__ import annotations

import codecs
import json
import sys
from pathlib import Path

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml

from fuzz.common import ALL_KEYS, ByteReader, app_value, check_error, main, requires_value
from hermes_decl.declaration import DeclarationError
from hermes_decl.loader import declarations_from, load_declarations_text, read_document
from hermes_decl.models import Declaration

WHERE = "plugin.yaml"
YAML_TOKENS = (
    "\n",
    "\n  ",
    "\n    ",
    "  ",
    "\t",
    "- ",
    ": ",
    ":",
    ", ",
    "{",
    "}",
    "[",
    "]",
    "? ",
    "&a ",
    "&b ",
    "*a",
    "*b",
    "<<: ",
    "<<: *a",
    "<<: [*a, *b]",
    "!!str ",
    "!!int ",
    "!!float ",
    "!!binary ",
    "!!timestamp ",
    "!!set ",
    "!!omap ",
    "!!pairs ",
    "!!merge ",
    "!!value ",
    "!!python/object:os.system ",
    "!custom ",
    "!<tag:x> ",
    "= ",
    "---\n",
    "...\n",
    "%YAML 1.1\n",
    "%TAG ! tag:x,2000:\n",
    "# comment\n",
    "'",
    '"',
    "\\",
    "|\n  ",
    ">-\n  ",
    "null",
    "~",
    "true",
    "yes",
    "0x1F",
    "1e400",
    ".nan",
    "2001-12-14t21:59:43.10-05:00",
    "2.3.0",
    '"2.3.0"',
    "\ufeff",
    "\r\n",
    "\x85",
    "\u2028",
    "\0",
    "\x7f",
    "\ud800",
    "/opt/x",
    "C:/x.exe",
    "%ProgramFiles%/V/V */v.exe",
    "&a {}",
    "&a []",
    "<<: [*a, *a, *a]",
    "{<<: *a, <<: *a}",
    "<<:\n  - *a\n  - *b",
    "[*a, *a, *a]",
    "!!set {? *a, ? *b}",
)
FLOW_TOKENS = ("{", "[", "{{", "[[", "}", "]", ": ", "- ", "&a ", "*a", "\n", "'", '"', "\t")


def _generated(reader: ByteReader) -> str:
    """A declarations file written by PyYAML or json, then edited in a few places."""
    servers: dict[object, object] = {}
    for _ in range(1 + reader.below(3)):
        body: dict[object, object] = {}
        if reader.chance(7, 8):
            body["app"] = app_value(reader)
        if reader.chance(3, 4):
            body["requires"] = requires_value(reader)
        if reader.chance(1, 10):
            body[reader.pick(ALL_KEYS)] = reader.text(8)
        servers[reader.pick(("vendor-studio", "s", "my-server", "")) + reader.text(3)] = body
    document: object = servers
    if reader.chance(1, 6):
        document = {"tool": {"servers": servers}}
    as_json = reader.chance(1, 4)
    try:
        if as_json:
            text = json.dumps(
                document,
                default=repr,
                ensure_ascii=reader.chance(1, 2),
                indent=reader.pick((None, 2, 0)),
                skipkeys=True,
            )
        else:
            text = yaml.safe_dump(
                document,
                default_flow_style=reader.pick((False, True, None)),
                allow_unicode=reader.chance(1, 2),
                width=reader.pick((80, 20, 1000)),
                indent=reader.pick((2, 4, 3)),
                sort_keys=False,
            )
    except (yaml.YAMLError, TypeError, ValueError, RecursionError):
        # Values neither writer takes (tuples, sets, huge numbers, loops): Python's own notation,
        # which is close to YAML's flow style.
        try:
            text = repr(document)
        except ValueError:  # an integer beyond str()'s digit limit
            text = "{}"
    for _ in range(reader.below(4)):
        at = reader.below(len(text) + 1)
        if reader.chance(1, 2):
            text = text[:at] + reader.pick(YAML_TOKENS) + text[at:]
        else:
            text = text[:at] + text[at + 1 + reader.below(8) :]
    return text


def _soup(reader: ByteReader) -> str:
    """YAML tokens and vocabulary glued together."""
    parts: list[str] = []
    while reader.remaining and len(parts) < 200:
        kind = reader.below(5)
        if kind < 2:
            parts.append(reader.pick(YAML_TOKENS))
        elif kind == 2:
            parts.append(reader.pick(ALL_KEYS))
        elif kind == 3:
            parts.append(reader.pick(FLOW_TOKENS) * (1 + reader.below(4)))
        else:
            parts.append(reader.text(8))
    return "".join(parts)


BOMB_BASES = ("{}", "{k: 1}", "{k: 1, j: [x]}", "[]", "[x, x, x]", "{}\n", "x")
"""What the first level of a bomb anchors: empty and small mappings, lists, a scalar."""


def _bomb_level(reader: ByteReader, name: str, previous: str, fan: int) -> str:
    """One anchored level that repeats ``previous`` ``fan`` times, in one of the YAML shapes."""
    refs = [f"*{previous}"] * fan
    shape = reader.below(6)
    if shape == 0:
        return f"{name}: &{name} {{<<: [{', '.join(refs)}]}}"
    if shape == 1:
        return f"{name}: &{name}\n  <<:\n" + "\n".join(f"    - {ref}" for ref in refs)
    if shape == 2:
        return f"{name}: &{name} {{{', '.join(f'<<: {ref}' for ref in refs)}}}"
    if shape == 3:
        return f"{name}: &{name} [{', '.join(refs)}]"
    if shape == 4:
        return f"{name}: &{name} !!set {{{', '.join(f'? {ref}' for ref in refs)}}}"
    return f"{name}: &{name}\n  <<: *{previous}\n  k{reader.below(3)}: {reader.below(10)}"


def _bomb(reader: ByteReader) -> str:
    """Levels of anchors, each repeating the one before: the work grows as fan-out^levels."""
    rows = [f"a0: &a0 {reader.pick(BOMB_BASES)}"]
    levels = 1 + reader.below(12)
    for level in range(1, levels + 1):
        rows.append(_bomb_level(reader, f"a{level}", f"a{level - 1}", 1 + reader.below(12)))
    if reader.chance(1, 2):
        top = f"a{levels}"
        for level in range(reader.below(6)):
            fan = 1 + reader.below(12)
            rows.append(f"b{level}: &b{level} [{', '.join([f'*{top}'] * fan)}]")
            top = f"b{level}"
    if reader.chance(1, 3):
        rows.append("s:\n  requires: {app: false}\n  <<: *a0")
    return "\n".join(rows) + "\n"


def _source(data: bytes) -> bytes | str:
    if not data or data[0] >= 0x08:
        return data
    reader = ByteReader(data[1:])
    if data[0] == 0:
        return _generated(reader)
    if data[0] == 1:
        return _soup(reader)
    if data[0] == 2:
        text = reader.rest().decode("utf-8", "replace")
        bom = reader.pick((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        codec = "utf-16-le" if bom == codecs.BOM_UTF16_LE else "utf-16-be"
        return bom + text.encode(codec, "surrogatepass")
    if data[0] == 3:
        return _bomb(reader)
    return data[1:]


def _max_line(text: str) -> int:
    """The most lines an editor (or PyYAML, which also breaks at CR, NEL, LS and PS) can count."""
    breaks = sum(text.count(mark) for mark in ("\n", "\r", "\x85", "\u2028", "\u2029"))
    return breaks + 1


def _text_of(source: bytes | str) -> str | None:
    if isinstance(source, str):
        return source
    for encoding in ("utf-8", "utf-16"):
        try:
            return source.decode(encoding)
        except UnicodeDecodeError:
            if not source.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
                return None
    return None


def TestOneInput(data: bytes) -> None:
    source = _source(data)
    text = _text_of(source)
    max_line = _max_line(text) if text is not None else None
    try:
        found = load_declarations_text(source, where=WHERE)
    except DeclarationError as error:
        check_error(error, WHERE, max_line=max_line)
    else:
        assert isinstance(found, dict), found
        assert all(isinstance(k, str) and isinstance(v, Declaration) for k, v in found.items())
    if not isinstance(source, str):
        return
    try:
        document = read_document(source, where=WHERE, strict=False)
    except DeclarationError as error:
        check_error(error, WHERE, max_line=max_line)
        return
    for issue in document.issues:
        assert issue.line is None or issue.line <= _max_line(source), issue
    assert all(line >= 1 and column >= 1 for line, column in document.values.values())
    # Select a sub-mapping as ``--at`` does: none, a top-level key, one below it, or a missing one.
    at: tuple[str, ...] = ()
    top = document.data
    keys = [key for key in top if isinstance(key, str)] if isinstance(top, dict) else []
    choice = len(data) % 4
    if keys and choice in (1, 2):
        at = (keys[len(data) % len(keys)],)
        inner = top[at[0]] if isinstance(top, dict) else None
        if choice == 2:
            below = [k for k in inner if isinstance(k, str)] if isinstance(inner, dict) else []
            at += (below[0] if below else "servers",)
    elif choice == 3:
        at = ("tool", "servers") if len(data) % 8 == 3 else ("missing",)
    try:
        declarations_from(document, at=at)
    except DeclarationError as error:
        check_error(error, WHERE, max_line=max_line)


if __name__ == "__main__":
    main(TestOneInput, "loader")
