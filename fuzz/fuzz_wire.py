"""Fuzz the probe's HTTP/1.1 framing core and its conversation on any answer bytes.

Input layout: by default the input is the answer a server sends, byte for byte. A first byte
below 0x08 makes the rest drive a generator of answers instead: a status line, header lines
whose names and values come from the framing vocabulary (``Content-Length`` with ASCII,
superscript, Arabic-Indic and signed digits, ``Transfer-Encoding``, media types, session ids),
line ends, and a body of the remaining bytes, chunked or not.

Each input checks: ``ResponseParser`` gives only its events, ending with exactly one
``EndOfMessage`` or ``FramingError``, and the same events (body pieces joined) fed whole, a byte
at a time and cut where the input says; it never accepts more than its budget; and the whole
conversation, fed the answer in those pieces, returns a ``ProbeResult`` that never shows the
token, whatever the answer.

    python fuzz/fuzz_wire.py -atheris_runs=200000 fuzz/work/wire fuzz/corpus/wire
"""

from __future__ import annotations

import sys
from pathlib import Path

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.common import ByteReader
from hermes_decl.runtime.bearer_token import BearerToken
from hermes_decl.runtime.http_wire import (
    BodyChunk,
    BodyStart,
    EndOfMessage,
    FramingError,
    Headers,
    JsonBody,
    ResponseParser,
    ServerEvent,
    StatusLine,
)
from hermes_decl.runtime.probe_flow import Receive, Reply, ReplyKind, conversation
from hermes_decl.runtime.probe_result import ProbeOutcome, ProbeResult

TOKEN = "FUZZ-TOKEN-0f3c"
BUDGET = 2048
"""A small budget, so that inputs reach it."""
BYTEWISE_MAX = 1024
"""Inputs up to this long are also fed a byte at a time."""
EVENT_TYPES = (
    StatusLine,
    Headers,
    BodyStart,
    BodyChunk,
    JsonBody,
    ServerEvent,
    EndOfMessage,
    FramingError,
)
STATUS_LINES = (
    b"HTTP/1.1 200 OK",
    b"HTTP/1.0 200",
    b"HTTP/1.1 204 No Content",
    b"HTTP/1.1 307 Temporary Redirect",
    b"HTTP/1.1 401 Unauthorized",
    b"HTTP/1.1 2\xd9\xa0\xd9\xa0 OK",
    b"HTTP/2 200",
    b"HTTP/1.1 200 \xff\xfe",
)
HEADERS = (
    b"Content-Length: 2",
    b"Content-Length: 0",
    b"Content-Length: \xb2",
    b"Content-Length: \xd9\xa2",
    b"Content-Length: +2",
    b"Content-Length:  2 \t",
    b"Content-Length: 0000000000002",
    b"Content-Length: 99999999999",
    b"Transfer-Encoding: chunked",
    b"Transfer-Encoding: gzip, chunked",
    b"Content-Type: application/json",
    b"Content-Type: text/event-stream; charset=utf-8",
    b"Content-Type: text/html",
    b"Mcp-Session-Id: s-1",
    b"X A: 1",
    b"no colon",
    b"X-Long: " + b"y" * 300,
)
LINE_ENDS = (b"\r\n", b"\n", b"\r", b"")
CHUNK_SIZES = (b"0", b"1", b"a", b"F;ext=1", b"\xb2", b"000000001", b"-1", b"")


def _answer(data: bytes) -> bytes:
    """The answer an input stands for."""
    if not data[:1] or data[0] >= 0x08:
        return data
    reader = ByteReader(data[1:])
    parts = [reader.pick(STATUS_LINES), reader.pick(LINE_ENDS)]
    for _ in range(reader.below(6)):
        parts += [reader.pick(HEADERS), reader.pick(LINE_ENDS)]
    parts.append(reader.pick(LINE_ENDS))
    if reader.chance(1, 2):
        for _ in range(reader.below(4)):
            size = reader.pick(CHUNK_SIZES)
            parts += [size, b"\r\n", reader.take(reader.below(20)), reader.pick(LINE_ENDS)]
    parts.append(reader.rest())
    return b"".join(parts)


def _cuts(data: bytes, count: int) -> list[int]:
    """Cut points the input itself chooses (so a crash file reproduces)."""
    if not data:
        return []
    return sorted({(data[index % len(data)] * 7919 + index) % len(data) for index in range(count)})


def _events(answer: bytes, cuts: list[int]) -> list[object]:
    parser, start = ResponseParser(BUDGET), 0
    events: list[object] = []
    for cut in [*cuts, len(answer)]:
        piece = answer[start:cut]
        events += parser.feed(piece)
        assert parser.received <= BUDGET, parser.received
        start = cut
    events += parser.feed_eof()
    assert parser.finished
    joined: list[object] = []
    for event in events:
        assert isinstance(event, EVENT_TYPES), event
        if isinstance(event, BodyChunk) and joined and isinstance(joined[-1], BodyChunk):
            joined[-1] = BodyChunk(joined[-1].data + event.data)
        else:
            joined.append(event)
    return joined


def _conversation(answer: bytes, cuts: list[int]) -> ProbeResult:
    """The whole probe, its answer read in the pieces ``cuts`` makes, then the end of it."""
    now = 0.0
    target = ("127.0.0.1", 1, "/mcp")
    steps = conversation("http://127.0.0.1:1/mcp", BearerToken(TOKEN), target, 1.0, now)
    ends = [*cuts, len(answer)]
    pieces = [answer[start:end] for start, end in zip([0, *cuts], ends, strict=True)]
    pieces = [piece for piece in pieces if piece]
    step = next(steps)
    for _ in range(len(pieces) + 16):
        data = pieces.pop(0) if isinstance(step, Receive) and pieces else b""
        now += 0.001
        try:
            step = steps.send(Reply(now, ReplyKind.DONE, data))
        except StopIteration as finished:
            result: ProbeResult = finished.value
            return result
    raise AssertionError("the conversation did not end")


def TestOneInput(data: bytes) -> None:
    answer = _answer(data)
    whole = _events(answer, [])
    terminal = [event for event in whole if isinstance(event, (EndOfMessage, FramingError))]
    assert len(terminal) == 1 and whole[-1] is terminal[0], whole
    cuts = _cuts(data, 5)
    assert _events(answer, cuts) == whole, cuts
    if len(answer) <= BYTEWISE_MAX:
        assert _events(answer, list(range(1, len(answer)))) == whole
    for pieces in ([], cuts):
        result = _conversation(answer, pieces)
        assert isinstance(result, ProbeResult) and isinstance(result.outcome, ProbeOutcome)
        assert TOKEN not in repr(result), result


if __name__ == "__main__":
    try:
        import atheris
    except ImportError:
        from fuzz import driver

        corpus = driver.seeds([Path(__file__).resolve().parent / "corpus" / "wire"])
        found = driver.run("wire", corpus, test_one_input=TestOneInput)
        print(f"{found.executions} seeds, {len(found.crashes)} crashes", file=sys.stderr)
        sys.exit(1 if found.crashes else 0)
    atheris.instrument_all()
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()
