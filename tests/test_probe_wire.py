"""The probe's HTTP/1.1 framing core from bytes: tiny samples, truncated input, any split."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_decl.runtime.event_stream import EventStreamParser
from hermes_decl.runtime.http_wire import (
    MAX_HEAD_BYTES,
    MAX_HEADERS,
    MAX_LINE_BYTES,
    MAX_RESPONSE_BYTES,
    READ_BYTES,
    BodyChunk,
    BodyStart,
    EndOfMessage,
    Event,
    FramingError,
    Headers,
    JsonBody,
    ResponseParser,
    ServerEvent,
    StatusLine,
)

AnyEvent = Event | FramingError
JSON_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"


def parse(data: bytes, *, max_bytes: int = MAX_RESPONSE_BYTES, eof: bool = True) -> list[AnyEvent]:
    """Every event of ``data`` fed at once (then the end of the stream, when ``eof``)."""
    parser = ResponseParser(max_bytes)
    events = list(parser.feed(data))
    if eof:
        events += parser.feed_eof()
    return events


def parse_bytewise(data: bytes, *, eof: bool = True) -> list[AnyEvent]:
    """Every event of ``data`` fed one byte at a time."""
    parser = ResponseParser()
    events: list[AnyEvent] = []
    for index in range(len(data)):
        events += parser.feed(data[index : index + 1])
    if eof:
        events += parser.feed_eof()
    return events


def merged(events: list[AnyEvent]) -> list[AnyEvent]:
    """``events`` with neighbouring body chunks joined (how a body is split is not an event)."""
    out: list[AnyEvent] = []
    for event in events:
        if isinstance(event, BodyChunk) and out and isinstance(out[-1], BodyChunk):
            out[-1] = BodyChunk(out[-1].data + event.data)
        else:
            out.append(event)
    return out


def head(code: int, *fields: tuple[str, str]) -> list[AnyEvent]:
    return [StatusLine(code), Headers(code, fields)]


SAMPLES: dict[str, tuple[bytes, list[AnyEvent]]] = {
    "json-by-length": (
        JSON_HEAD + b"Content-Length: 2\r\n\r\n{}",
        [
            *head(200, ("content-type", "application/json"), ("content-length", "2")),
            BodyStart("application/json"),
            JsonBody(b"{}"),
            EndOfMessage(),
        ],
    ),
    "json-until-close": (
        JSON_HEAD + b"\r\n[1]",
        [
            *head(200, ("content-type", "application/json")),
            BodyStart("application/json"),
            JsonBody(b"[1]"),
            EndOfMessage(),
        ],
    ),
    "json-chunked": (
        JSON_HEAD
        + b"Transfer-Encoding: Chunked\r\n\r\n1;x=y\r\n[\r\n1\r\n]\r\n0\r\nTrailer: t\r\n",
        [
            *head(200, ("content-type", "application/json"), ("transfer-encoding", "Chunked")),
            BodyStart("application/json"),
            JsonBody(b"[]"),
            EndOfMessage(),
        ],
    ),
    "bare-lf-and-http-1.0": (
        b"HTTP/1.0 204\nX-A:  padded \t\nContent-Length: 0\n\n",
        [*head(204, ("x-a", "padded"), ("content-length", "0")), BodyStart(""), EndOfMessage()],
    ),
    "event-stream": (
        b"HTTP/1.1 200 OK\r\nContent-Type: Text/Event-Stream; charset=utf-8\r\n\r\n"
        b": keep-alive\r\n\r\nevent: note\rdata: a\r\ndata:b\n\ndata: {}\n\n",
        [
            *head(200, ("content-type", "Text/Event-Stream; charset=utf-8")),
            BodyStart("text/event-stream"),
            ServerEvent("note", "a\nb"),
            ServerEvent("message", "{}"),
            EndOfMessage(),
        ],
    ),
    "other-media-type": (
        b"HTTP/1.1 302 Found\r\nLocation: http://elsewhere/\r\nContent-Length: 3\r\n\r\nabc",
        [
            *head(302, ("location", "http://elsewhere/"), ("content-length", "3")),
            BodyStart(""),
            BodyChunk(b"abc"),
            EndOfMessage(),
        ],
    ),
    "not-http": (b"SSH-2.0-OpenSSH\r\n", [FramingError("the answer is not HTTP")]),
    "empty": (b"", [FramingError("the answer is not HTTP")]),
    "cut-prefix": (b"HTT", [FramingError("the answer is not HTTP")]),
    "no-status-code": (
        b"HTTP/1.1 OK\r\n\r\n",
        [FramingError("the answer has no HTTP/1.x status line")],
    ),
    "http-2": (b"HTTP/2 200\r\n\r\n", [FramingError("the answer has no HTTP/1.x status line")]),
    "non-ascii-status-digits": (
        "HTTP/1.1 2٠٠ OK\r\n\r\n".encode(),
        [FramingError("the answer has no HTTP/1.x status line")],
    ),
    "cut-status-line": (b"HTTP/1.1 200", [FramingError("the connection closed mid-answer")]),
    "cut-headers": (
        b"HTTP/1.1 200 OK\r\nX-A: 1\r\n",
        [StatusLine(200), FramingError("the connection closed mid-answer")],
    ),
    "header-without-colon": (
        b"HTTP/1.1 200 OK\r\nnot a header\r\n\r\n",
        [StatusLine(200), FramingError("the answer has a malformed header")],
    ),
    "header-name-with-space": (
        b"HTTP/1.1 200 OK\r\nX A: 1\r\n\r\n",
        [StatusLine(200), FramingError("the answer has a malformed header")],
    ),
    "superscript-two-length": (
        JSON_HEAD + b"Content-Length: \xb2\r\n\r\n{}",
        [
            *head(200, ("content-type", "application/json"), ("content-length", "\xb2")),
            BodyStart("application/json"),
            FramingError("the answer has a malformed Content-Length"),
        ],
    ),
    "arabic-indic-length": (
        JSON_HEAD + "Content-Length: ٢\r\n\r\n{}".encode(),
        [
            *head(200, ("content-type", "application/json"), ("content-length", "Ù¢")),
            BodyStart("application/json"),
            FramingError("the answer has a malformed Content-Length"),
        ],
    ),
    "signed-length": (
        JSON_HEAD + b"Content-Length: +2\r\n\r\n{}",
        [
            *head(200, ("content-type", "application/json"), ("content-length", "+2")),
            BodyStart("application/json"),
            FramingError("the answer has a malformed Content-Length"),
        ],
    ),
    "thirteen-digit-length": (
        JSON_HEAD + b"Content-Length: 0000000000002\r\n\r\n{}",
        [
            *head(200, ("content-type", "application/json"), ("content-length", "0000000000002")),
            BodyStart("application/json"),
            FramingError("the answer has a malformed Content-Length"),
        ],
    ),
    "length-over-the-budget": (
        JSON_HEAD + b"Content-Length: %d\r\n\r\n" % (MAX_RESPONSE_BYTES + 1),
        [
            *head(
                200,
                ("content-type", "application/json"),
                ("content-length", str(MAX_RESPONSE_BYTES + 1)),
            ),
            BodyStart("application/json"),
            FramingError(f"the answer is longer than {MAX_RESPONSE_BYTES} bytes"),
        ],
    ),
    "two-content-types": (
        b"HTTP/1.1 200 OK\r\nContent-Type: a/b\r\nContent-Type: c/d\r\n\r\n",
        [
            *head(200, ("content-type", "a/b"), ("content-type", "c/d")),
            FramingError("the answer has content-type more than once"),
        ],
    ),
    "gzip-framing": (
        JSON_HEAD + b"Transfer-Encoding: gzip\r\n\r\n",
        [
            *head(200, ("content-type", "application/json"), ("transfer-encoding", "gzip")),
            BodyStart("application/json"),
            FramingError("the answer's framing is not plain chunked"),
        ],
    ),
    "chunked-and-length": (
        JSON_HEAD + b"Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n",
        [
            *head(
                200,
                ("content-type", "application/json"),
                ("transfer-encoding", "chunked"),
                ("content-length", "2"),
            ),
            BodyStart("application/json"),
            FramingError("the answer's framing is not plain chunked"),
        ],
    ),
    "non-ascii-chunk-size": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\xb2\r\nab\r\n0\r\n\r\n",
        [
            *head(200, ("transfer-encoding", "chunked")),
            BodyStart(""),
            FramingError("the answer has a malformed chunk"),
        ],
    ),
    "nine-digit-chunk-size": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n000000001\r\na\r\n0\r\n\r\n",
        [
            *head(200, ("transfer-encoding", "chunked")),
            BodyStart(""),
            FramingError("the answer has a malformed chunk"),
        ],
    ),
    "chunk-longer-than-its-size": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n0\r\n\r\n",
        [
            *head(200, ("transfer-encoding", "chunked")),
            BodyStart(""),
            BodyChunk(b"a"),
            FramingError("the answer has a malformed chunk"),
        ],
    ),
    "cut-chunk": (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
        [
            *head(200, ("transfer-encoding", "chunked")),
            BodyStart(""),
            BodyChunk(b"ab"),
            FramingError("the connection closed mid-answer"),
        ],
    ),
    "cut-body": (
        JSON_HEAD + b"Content-Length: 100\r\n\r\n{",
        [
            *head(200, ("content-type", "application/json"), ("content-length", "100")),
            BodyStart("application/json"),
            FramingError("the connection closed mid-answer"),
        ],
    ),
}


@pytest.mark.parametrize(("data", "expected"), list(SAMPLES.values()), ids=list(SAMPLES))
def test_a_sample_gives_its_events(data: bytes, expected: list[AnyEvent]) -> None:
    assert merged(parse(data)) == expected


@pytest.mark.parametrize(("data", "expected"), list(SAMPLES.values()), ids=list(SAMPLES))
def test_feeding_a_byte_at_a_time_gives_the_same_events(
    data: bytes, expected: list[AnyEvent]
) -> None:
    assert merged(parse_bytewise(data)) == expected


@pytest.mark.parametrize("data", [sample for sample, _ in SAMPLES.values()], ids=list(SAMPLES))
def test_splitting_anywhere_gives_the_same_events(data: bytes) -> None:
    whole = merged(parse(data))
    for cut in range(len(data) + 1):
        parser = ResponseParser()
        events = [*parser.feed(data[:cut]), *parser.feed(data[cut:]), *parser.feed_eof()]
        assert merged(events) == whole, cut


def test_a_truncated_answer_is_a_framing_error_at_every_cut() -> None:
    data = JSON_HEAD + b"Content-Length: 2\r\n\r\n{}"
    for cut in range(len(data)):
        *_, last = parse(data[:cut])
        assert isinstance(last, FramingError), cut
        assert last.detail in ("the answer is not HTTP", "the connection closed mid-answer"), cut


def test_nothing_is_given_before_the_end_it_waits_for() -> None:
    assert parse(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{", eof=False) == [
        *head(200, ("content-type", "application/json")),
        BodyStart("application/json"),
    ]


def test_after_its_end_the_parser_ignores_what_follows() -> None:
    parser = ResponseParser()
    first = parser.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab")
    assert first[-2:] == (BodyChunk(b"a"), EndOfMessage())
    assert parser.finished
    assert parser.feed(b"HTTP/1.1 500 Oops\r\n\r\n") == ()
    assert parser.feed_eof() == ()


def test_a_line_is_at_most_the_line_bound() -> None:
    longest = b"HTTP/1.1 200 " + b"z" * (MAX_LINE_BYTES - 13) + b"\n\n"
    assert parse(longest, eof=False) == [*head(200), BodyStart("")]
    too_long = b"HTTP/1.1 200 " + b"z" * (MAX_LINE_BYTES - 12) + b"\n\n"
    assert parse(too_long) == [FramingError("the answer has an endless line")]
    endless = b"HTTP/1.1 200 " + b"z" * MAX_LINE_BYTES
    assert parse(endless, eof=False) == [FramingError("the answer has an endless line")]


def test_header_count_and_size_are_bounded() -> None:
    most = b"HTTP/1.1 200 OK\r\n" + b"X: 1\r\n" * MAX_HEADERS + b"\r\n"
    assert parse(most, eof=False)[1] == Headers(200, (("x", "1"),) * MAX_HEADERS)
    more = b"HTTP/1.1 200 OK\r\n" + b"X: 1\r\n" * (MAX_HEADERS + 1) + b"\r\n"
    assert parse(more)[-1] == FramingError("the answer's headers are too long")
    line = b"X: " + b"y" * 1000 + b"\r\n"
    big = b"HTTP/1.1 200 OK\r\n" + line * (MAX_HEAD_BYTES // len(line) + 1) + b"\r\n"
    assert parse(big) == [StatusLine(200), FramingError("the answer's headers are too long")]


def test_the_budget_counts_every_byte_and_reads_never_ask_past_it() -> None:
    answer = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
    assert parse(answer, max_bytes=len(answer))[-1] == EndOfMessage()
    assert parse(answer, max_bytes=len(answer) - 1)[-1] == FramingError(
        f"the answer is longer than {len(answer) - 1} bytes"
    )
    parser = ResponseParser(len(answer))
    assert parser.read_size == len(answer)
    parser.feed(answer[:10])
    assert (parser.received, parser.read_size) == (10, len(answer) - 10)
    assert ResponseParser().read_size == READ_BYTES


def test_an_event_found_before_the_budget_ends_is_given_before_the_error() -> None:
    answer = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: 1\n\n: more"
    events = parse(answer + b" and more", max_bytes=len(answer), eof=False)
    assert events[-2:] == [
        ServerEvent("message", "1"),
        FramingError(f"the answer is longer than {len(answer)} bytes"),
    ]


def test_an_event_stream_split_at_a_crlf_is_one_line_end() -> None:
    stream = EventStreamParser()
    assert stream.feed(b"data: a\r") == []
    assert stream.feed(b"\n") == []
    assert stream.feed(b"\r\n") == [("message", "a")]
    assert stream.feed(b"data: \xff\n\n") == [("message", "\ufffd")]


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
PREFIXES = [
    b"",
    b"HTTP/1.1 200 OK\r\n",
    JSON_HEAD + b"\r\n",
    JSON_HEAD + b"Content-Length: 9\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
]
"""Beginnings that take random bytes past the status line, into headers and each body kind."""


@settings(max_examples=400, deadline=None)
@given(
    prefix=st.sampled_from(PREFIXES),
    rest=st.binary(max_size=400),
    cuts=st.lists(st.integers(0, 1000), max_size=6),
)
def test_any_bytes_give_events_or_one_framing_error_whatever_the_split(
    prefix: bytes, rest: bytes, cuts: list[int]
) -> None:
    data = prefix + rest
    whole = parse(data)
    assert all(isinstance(event, EVENT_TYPES) for event in whole)
    assert isinstance(whole[-1], (EndOfMessage, FramingError))
    assert [isinstance(event, (EndOfMessage, FramingError)) for event in whole].count(True) == 1
    parser, start = ResponseParser(), 0
    pieces: list[AnyEvent] = []
    for cut in sorted(cuts):
        pieces += parser.feed(data[start:cut])
        start = max(start, cut)
    pieces += [*parser.feed(data[start:]), *parser.feed_eof()]
    assert merged(pieces) == merged(whole)


@settings(max_examples=200, deadline=None)
@given(
    value=st.text(
        st.characters(codec="latin-1", exclude_characters="\r\n"), min_size=0, max_size=14
    )
)
def test_any_content_length_is_a_length_or_a_framing_error(value: str) -> None:
    data = JSON_HEAD + b"Content-Length: " + value.encode("latin-1") + b"\r\n\r\n{}"
    *_, last = parse(data)
    stripped = value.strip(" \t")
    if stripped.isascii() and stripped.isdigit() and len(stripped) <= 12:
        expected = (
            EndOfMessage()
            if int(stripped) <= 2
            else FramingError(
                "the connection closed mid-answer"
                if int(stripped) <= MAX_RESPONSE_BYTES
                else f"the answer is longer than {MAX_RESPONSE_BYTES} bytes"
            )
        )
    else:
        expected = FramingError("the answer has a malformed Content-Length")
    assert last == expected
