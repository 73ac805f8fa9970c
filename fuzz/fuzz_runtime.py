"""Fuzz the runtime file's reader on any bytes: an endpoint or a stated reason, never the token.

Input layout: by default the input is the runtime file, byte for byte, as a Linux host holds it
for a live process of this user. A first byte below 0x08 makes the rest drive a generator of
hostile files instead: a JSON object with some of the ``pid``, ``http`` and ``token`` keys, each
a usual value, a near miss (a string pid, a non-loopback or ``https`` URL, a token with CR LF,
NUL, escape sequences or non-ASCII) or any value (huge integers, NaN, nested lists), written in
one of several encodings (BOMs, UTF-16 and UTF-32, Latin-1), maybe padded to the size bound, cut
or spliced with a few bytes; and now and then the host says the file is another user's, open to
others' writes or older than the process, or the process is another user's or of unknown start.

Each input checks: ``read_endpoint`` returns an ``Endpoint`` to a loopback host or a
``NoEndpoint`` whose code is one a file that exists may get (never an exception), and neither
its ``repr``, its ``str`` nor its reason shows the token, on a Linux and on a Windows host.

    python fuzz/fuzz_runtime.py -atheris_runs=200000 fuzz/work/runtime fuzz/corpus/runtime
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.common import ByteReader
from hermes_decl.declaration import parse_declaration
from hermes_decl.hosts.protocol import MAX_PID
from hermes_decl.models import AppDef, OsFamily
from hermes_decl.runtime.liveness import (
    MAX_RUNTIME_FILE_BYTES,
    MAX_TOKEN_CHARS,
    Endpoint,
    NoEndpoint,
    NoEndpointCode,
    read_endpoint,
)
from hermes_decl.testing import FakeHost

TOKEN = "FUZZ-RUNTIME-TOKEN-5e1d"
PID = 4242
OTHER_USER = "mallory"
RUNTIME_FILES: dict[OsFamily, tuple[str, str]] = {
    "linux": ("~/.vendor/server.json", "/home/dev/.vendor/server.json"),
    "win32": (
        "%APPDATA%\\Vendor\\server.json",
        "C:\\Users\\dev\\AppData\\Roaming\\Vendor\\server.json",
    ),
}
"""Per OS: the liveness path the declaration names, and where the host holds that file."""
STATED = frozenset(NoEndpointCode) - {
    NoEndpointCode.NO_LIVENESS,
    NoEndpointCode.OTHER_OS,
    NoEndpointCode.KEYS_OVERLAP,
    NoEndpointCode.PATH_REFUSED,
    NoEndpointCode.MISSING_FILE,
}
"""The codes a runtime file that exists may be answered with."""
LOOPBACK = ("http://127.0.0.1:", "http://localhost:", "http://[::1]:")
PIDS: tuple[object, ...] = (PID, PID, PID, 0, -1, MAX_PID + 1, True, "4242", 4242.5, [PID], None)
URLS: tuple[object, ...] = (
    "http://127.0.0.1:5000",
    "http://127.0.0.1:5000",
    "http://localhost:5000/other?q#f",
    "http://[::1]:5000",
    "https://127.0.0.1:5000",
    "http://user@127.0.0.1:5000",
    "http://10.0.0.1:5000",
    "http://127.0.0.1:99999",
    "http://127.0.0.1:\u0665000",
    "http://127.0.0.1:5000\n",
    "http://[::1%25lo]:5000",
    "http://127.0.0.1:" + "9" * 5000,
    5000,
)
TOKENS: tuple[object, ...] = (
    TOKEN,
    TOKEN,
    TOKEN + "\r\nX-Injected: 1",
    TOKEN + "\x00",
    "\x1b[31m" + TOKEN,
    " " + TOKEN,
    TOKEN + "\u00e9",
    TOKEN + "\u200b",
    TOKEN * (MAX_TOKEN_CHARS // len(TOKEN) + 1),
    "",
    None,
    [TOKEN],
    {"value": TOKEN},
)
ENCODINGS = ("utf-8",) * 8 + ("utf-8-sig", "utf-16", "utf-16-le", "utf-32", "latin-1")
MAX_JSON_INT_BITS = 13_000
"""Integers this long or longer are written as 4,001 digits, under what ``json.dumps`` writes."""
TRAILERS = ("", "", "", "", ' , "pid": 1}', "}", "x", "\x00", " NaN", "\n")


def _rarely(reader: ByteReader, denominator: int) -> bool:
    """True once in ``denominator`` choices; never once the input is used up, so a short input
    stands for a usual file."""
    return reader.below(denominator) == denominator - 1


def _any_value(reader: ByteReader, depth: int = 0) -> object:
    """A JSON value of any type, nested a little."""
    kind = reader.below(7 if depth < 3 else 4)
    if kind == 0:
        number = reader.integer()
        return number if number.bit_length() < MAX_JSON_INT_BITS else 10**4000
    if kind == 1:
        return reader.floating()
    if kind == 2:
        return reader.text()
    if kind == 3:
        return reader.pick((None, True, False))
    if kind in (4, 5):
        return [_any_value(reader, depth + 1) for _ in range(reader.below(4))]
    return {reader.text(6): _any_value(reader, depth + 1) for _ in range(reader.below(4))}


def _field(reader: ByteReader, usual: tuple[object, ...]) -> object:
    return _any_value(reader) if _rarely(reader, 8) else reader.pick(usual)


def _generated(reader: ByteReader) -> bytes:
    """A hostile runtime file built from the reader's choices."""
    document: dict[str, object] = {}
    for key, usual in (("pid", PIDS), ("http", URLS), ("token", TOKENS)):
        if reader.chance(9, 10):
            document[key] = _field(reader, usual)
    for _ in range(reader.below(3)):
        document[reader.text(6)] = _any_value(reader)
    value: object = document
    if _rarely(reader, 10):
        value = list(document.values())
    if _rarely(reader, 10):
        value = [value] * (1 + reader.below(4))
    text = json.dumps(value, ensure_ascii=reader.chance(1, 2), allow_nan=True)
    trailer = reader.pick(TRAILERS)
    text = text[:-1] + trailer if trailer.startswith(" ,") else text + trailer
    if _rarely(reader, 12):
        text += " " * (MAX_RUNTIME_FILE_BYTES - len(text) + reader.below(3) - 1)
    data = text.encode(reader.pick(ENCODINGS), "replace")
    if _rarely(reader, 10):
        at = reader.below(len(data) + 1)
        data = data[:at] + reader.take(1 + reader.below(6)) + data[at:]
    if _rarely(reader, 12):
        data = data[: reader.below(len(data) + 1)]
    return data


class Scenario(NamedTuple):
    """A runtime file's bytes and what the host says of the file and of the process it names."""

    data: bytes
    file_facts: dict[str, Any]
    process_facts: dict[str, Any]


def _facts(reader: ByteReader) -> tuple[dict[str, Any], dict[str, Any]]:
    """Mostly the honest facts; now and then another owner, a loose mode, an old file, a
    process of another user or one whose start cannot be read."""
    file_facts: dict[str, Any] = {}
    process_facts: dict[str, Any] = {}
    if _rarely(reader, 8):
        file_facts["owner"] = OTHER_USER
    if _rarely(reader, 8):
        file_facts["mode"] = reader.pick((0o666, 0o620, 0o602, 0o644, 0o400))
    if _rarely(reader, 8):
        file_facts["mtime"] = reader.pick((0.0, 1.0, -1.0, 4e18))
    if _rarely(reader, 8):
        process_facts["user"] = OTHER_USER
    if _rarely(reader, 8):
        process_facts["started"] = None
    return file_facts, process_facts


def _scenario(data: bytes) -> Scenario:
    """What an input stands for."""
    if not data[:1] or data[0] >= 0x08:
        return Scenario(data, {}, {})
    reader = ByteReader(data[1:])
    file_facts, process_facts = _facts(reader)
    return Scenario(_generated(reader), file_facts, process_facts)


def _app_def(os_family: OsFamily) -> AppDef:
    location = "C:\\Vendor\\studio.exe" if os_family == "win32" else "/opt/vendor/studio"
    declaration = parse_declaration(
        "vendor-studio",
        raw_app={
            os_family: {
                "presence": "executable",
                "location": location,
                "liveness": {"kind": "server_json", "path": RUNTIME_FILES[os_family][0]},
            }
        },
        raw_requires={"app": True},
        where="fuzz",
    )
    found = declaration.app_for(os_family)
    assert found is not None
    return found


APP_DEFS = {os_family: _app_def(os_family) for os_family in RUNTIME_FILES}


def _host(os_family: OsFamily, scenario: Scenario) -> FakeHost:
    if os_family == "win32":
        host = FakeHost(
            "win32",
            home="C:\\Users\\dev",
            env={"APPDATA": "C:\\Users\\dev\\AppData\\Roaming"},
        )
    else:
        host = FakeHost("linux", home="/home/dev")
    file_facts = scenario.file_facts
    if os_family == "win32":
        file_facts = {key: value for key, value in file_facts.items() if key != "mode"}
    host = host.add_process(PID, **scenario.process_facts)
    return host.add_file(RUNTIME_FILES[os_family][1], scenario.data, **file_facts)


def _check(result: Endpoint | NoEndpoint) -> None:
    shown = f"{result!r} {result!s}"
    if isinstance(result, NoEndpoint):
        assert result.code in STATED, result
        shown += result.reason
    else:
        assert isinstance(result, Endpoint), result
        assert result.url.startswith(LOOPBACK), result.url
        port = result.url.split("]:" if "[" in result.url else ":")[-1].split("/")[0]
        assert port.isascii() and port.isdigit() and 0 < int(port) < 65536, result.url
        if result.token is not None:
            revealed = result.token.reveal()
            assert revealed.isascii() and revealed.isprintable() and " " not in revealed
    assert TOKEN not in shown, shown


def TestOneInput(data: bytes) -> None:
    scenario = _scenario(data)
    for os_family, app_def in APP_DEFS.items():
        _check(read_endpoint(app_def, host=_host(os_family, scenario)))


if __name__ == "__main__":
    try:
        import atheris
    except ImportError:
        from fuzz import driver

        corpus = driver.seeds([Path(__file__).resolve().parent / "corpus" / "runtime"])
        found = driver.run("runtime", corpus, test_one_input=TestOneInput)
        print(f"{found.executions} seeds, {len(found.crashes)} crashes", file=sys.stderr)
        sys.exit(1 if found.crashes else 0)
    atheris.instrument_all()
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
