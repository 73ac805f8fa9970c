"""The plain-Python fuzz driver: runs a harness without atheris (no coverage feedback).

It runs every seed of the corpus, then inputs made by mutating seeds (and earlier inputs) the
way libFuzzer's default mutators do: bit flips, interesting integers, byte insertion, erasure,
copying and crossover, with a per-target dictionary of tokens. Each input gets a time limit (on
POSIX); an input that raises, or runs past the limit, is a crash: it is saved under
``fuzz/crashes/`` and reported, and the run goes on to find the others.

    python fuzz/driver.py parser --runs 200000 --seed 1
    python fuzz/driver.py pe --runs 1000 --corpus fuzz/corpus/pe --corpus more/pe/

``tests/test_fuzz_smoke.py`` uses ``run`` for CI's short run.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import random
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HERE = Path(__file__).resolve().parent
TARGETS = ("parser", "loader", "version", "plist", "pe", "resolver", "wire", "runtime")
CORPUS = HERE / "corpus"
CRASHES = HERE / "crashes"
MAX_LEN = 4096
"""The longest input made by mutation (libFuzzer's default ``-max_len`` without a corpus)."""

TOKENS: dict[str, tuple[bytes, ...]] = {
    "parser": (
        b'"app"',
        b'"requires"',
        b'"win32"',
        b'"darwin"',
        b'"linux"',
        b'"presence"',
        b'"location"',
        b'"kind"',
        b'"version"',
        b'"liveness"',
        b'"min_version"',
        b"null",
        b"true",
        b"[",
        b"{",
        b"\\u0000",
        b"\\ud800",
        b"1e999",
    ),
    "loader": (
        b": ",
        b"- ",
        b"&a ",
        b"*a",
        b"<<: ",
        b"<<: [*a, *a, *a]",
        b"&a {}",
        b"!!binary ",
        b"!!set ",
        b"!custom ",
        b"? ",
        b"---\n",
        b"{",
        b"[",
        b"'",
        b'"',
        b"\n  ",
        b"\t",
        b"\xef\xbb\xbf",
        b"\r",
        b"kind",
        b"location",
    ),
    "version": (b".", b"\0", b" ", b"-", b"v", b"0", b"9" * 12, b"\xd9\xa3", b"\xe2\x80\x83"),
    "plist": (
        b"bplist00",
        b"<dict>",
        b"</dict>",
        b"<key>CFBundleVersion</key>",
        b"<string>",
        b"<integer>",
        b"<data>",
        b"<array>",
        b"<!ENTITY",
        b"\xff\xff\xff\xff\xff\xff\xff\xff",
    ),
    "pe": (b"MZ", b"PE\0\0", b"\x0b\x02", b"\x0b\x01", b"\xbd\x04\xef\xfe", b"\x10\0\0\0"),
    "resolver": (
        b'".."',
        b'"a/../../etc"',
        b'"CON"',
        b'"nul.txt"',
        b'"\\u0000"',
        b'""',
        b'" "',
        b'"*"',
        b'"/opt/*/x"',
        b'"$EMPTY/x"',
        b'"C:\\\\CON"',
        b"true",
    ),
    "wire": (
        b"HTTP/1.1 200 OK\r\n",
        b"\r\n",
        b"\r\n\r\n",
        b"Content-Length: ",
        b"Transfer-Encoding: chunked\r\n",
        b"Content-Type: application/json\r\n",
        b"Content-Type: text/event-stream\r\n",
        b"\xb2",
        b"\xd9\xa2",
        b"data: ",
        b"0\r\n\r\n",
    ),
    "runtime": (
        b'"pid"',
        b'"http"',
        b'"token"',
        b"4242",
        b'"http://127.0.0.1:5000"',
        b'"http://[::1]:5000"',
        b"\\r\\n",
        b"\\u0000",
        b"\\ud800",
        b"NaN",
        b"1e999",
        b"\xef\xbb\xbf",
    ),
}
_INTERESTING = (0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0xFFFF, 0x7FFF_FFFF, 0xFFFF_FFFF)


class Timeout(BaseException):
    """Raised inside a target that runs past its time limit.

    A ``BaseException``, so that a target's own ``except Exception`` cannot swallow it.
    """


@dataclass
class Crash:
    """One distinct failure: the exception type and where it was raised, with its first input."""

    signature: str
    data: bytes
    report: str
    count: int = 1
    saved: Path | None = None


@dataclass
class Result:
    target: str
    executions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    crashes: dict[str, Crash] = field(default_factory=dict)


def harness(target: str) -> Callable[[bytes], None]:
    """The ``TestOneInput`` of ``fuzz/fuzz_<target>.py``."""
    module = importlib.import_module(f"fuzz.fuzz_{target}")
    function: Callable[[bytes], None] = module.TestOneInput
    return function


def seeds(paths: Iterable[Path]) -> list[bytes]:
    """Every file of the corpus directories (in name order), and each file named itself."""
    found: list[bytes] = []
    for path in paths:
        if path.is_dir():
            found.extend(p.read_bytes() for p in sorted(path.iterdir()) if p.is_file())
        elif path.is_file():
            found.append(path.read_bytes())
    return found


def mutate(
    rng: random.Random, data: bytes, pool: Sequence[bytes], tokens: Sequence[bytes]
) -> bytes:
    """One to four of libFuzzer's default mutations applied to ``data``."""
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(10)
        at = rng.randint(0, len(buffer))
        if choice == 0 and buffer:  # flip a bit
            index = rng.randrange(len(buffer))
            buffer[index] ^= 1 << rng.randrange(8)
        elif choice == 1 and buffer:  # change a byte
            buffer[rng.randrange(len(buffer))] = rng.randrange(256)
        elif choice == 2:  # insert random bytes
            buffer[at:at] = rng.randbytes(rng.randint(1, 8))
        elif choice == 3 and buffer:  # erase bytes
            buffer[at : at + rng.randint(1, 16)] = b""
        elif choice == 4:  # write an interesting integer
            width = rng.choice((1, 2, 4))
            value = rng.choice(_INTERESTING) % (1 << (8 * width))
            buffer[at : at + width] = value.to_bytes(width, rng.choice(("little", "big")))
        elif choice == 5 and tokens:  # insert a dictionary token
            buffer[at:at] = rng.choice(tokens)
        elif choice == 6 and buffer:  # copy a part elsewhere
            start = rng.randrange(len(buffer))
            part = buffer[start : start + rng.randint(1, 32)]
            buffer[at:at] = part
        elif choice == 7 and pool:  # cross over with another input
            other = rng.choice(pool)
            start = rng.randint(0, len(other))
            buffer[at:] = other[start : start + rng.randint(1, 256)]
        elif choice == 8 and buffer:  # repeat a byte
            buffer[at:at] = bytes([rng.choice(buffer)]) * rng.randint(1, 64)
        else:  # shuffle a short run
            run_ = list(buffer[at : at + 8])
            rng.shuffle(run_)
            buffer[at : at + len(run_)] = bytes(run_)
    return bytes(buffer[:MAX_LEN])


def inputs(
    rng: random.Random, corpus: Sequence[bytes], count: int, tokens: Sequence[bytes]
) -> Iterator[bytes]:
    """``count`` inputs: random bytes, structured-mode bytes, and mutations of the corpus."""
    pool = list(corpus)
    for _ in range(count):
        kind = rng.randrange(8)
        if kind == 0 or not pool:
            data = rng.randbytes(rng.randint(0, 256))
        elif kind == 1:
            # The harnesses' structured modes: a first byte below 0x08, then the generator's bytes.
            data = bytes([rng.randrange(8)]) + rng.randbytes(rng.randint(0, 512))
        else:
            data = mutate(rng, rng.choice(pool), pool, tokens)
        if len(pool) < 4096 and rng.randrange(16) == 0:
            pool.append(data)
        yield data


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``Timeout`` in the running code after ``seconds`` (POSIX only; elsewhere no limit)."""
    if sys.platform == "win32":
        yield
    else:
        import signal

        def expire(signum: int, frame: FrameType | None) -> None:
            raise Timeout(f"ran for more than {seconds} s")

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def _signature(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    place = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(error).__name__} at {place}"


def run(
    target: str,
    data: Iterable[bytes],
    *,
    timeout: float = 10.0,
    result: Result | None = None,
    test_one_input: Callable[[bytes], None] | None = None,
) -> Result:
    """Run ``target``'s harness (or ``test_one_input``) on each input; collect every crash."""
    test_one_input = test_one_input or harness(target)
    result = result or Result(target)
    started = time.perf_counter()
    use_alarm = timeout > 0 and sys.platform != "win32"
    for item in data:
        began = time.perf_counter()
        try:
            if use_alarm:
                with time_limit(timeout):
                    test_one_input(item)
            else:
                test_one_input(item)
        except (Exception, Timeout) as error:
            signature = _signature(error)
            known = result.crashes.get(signature)
            if known is not None:
                known.count += 1
                if len(item) < len(known.data):
                    known.data = item
            else:
                report = "".join(traceback.format_exception(error))
                result.crashes[signature] = Crash(signature, item, report)
        elapsed = time.perf_counter() - began
        result.slowest = max(result.slowest, elapsed)
        result.executions += 1
    result.seconds += time.perf_counter() - started
    return result


def save_crashes(result: Result, directory: Path = CRASHES) -> None:
    """Write each crash's smallest input to ``directory/<target>-<sha1>``."""
    for crash in result.crashes.values():
        directory.mkdir(exist_ok=True)
        digest = hashlib.sha1(crash.data).hexdigest()
        crash.saved = directory / f"{result.target}-{digest}"
        crash.saved.write_bytes(crash.data)


def from_libfuzzer_args(arguments: Sequence[str]) -> list[str]:
    """Translate the libFuzzer flags a harness was started with into this driver's options."""
    translated: list[str] = []
    names = {"runs": "--runs", "atheris_runs": "--runs", "seed": "--seed", "timeout": "--timeout"}
    for argument in arguments:
        if argument.startswith("-") and "=" in argument:
            name, value = argument.lstrip("-").split("=", 1)
            if name in names:
                translated += [names[name], value]
        elif not argument.startswith("-"):
            translated += ["--corpus", argument]
    return translated


def main(arguments: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("target", choices=TARGETS)
    parser.add_argument("--runs", type=int, default=10_000, help="inputs after the seeds")
    parser.add_argument("--seed", type=int, default=0, help="random seed (0: from the clock)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per input")
    parser.add_argument(
        "--corpus",
        type=Path,
        action="append",
        help="a seed directory or input file (default: fuzz/corpus/TARGET); repeatable",
    )
    options = parser.parse_args(arguments)
    seed = options.seed or int(time.time())
    directories = options.corpus or [CORPUS / options.target]
    corpus = seeds(directories)
    rng = random.Random(seed)
    tokens = TOKENS[options.target]
    result = run(options.target, corpus, timeout=options.timeout)
    chunk = 10_000
    done = 0
    while done < options.runs:
        batch = min(chunk, options.runs - done)
        run(
            options.target,
            inputs(rng, corpus, batch, tokens),
            timeout=options.timeout,
            result=result,
        )
        done += batch
        rate = result.executions / max(result.seconds, 1e-9)
        print(
            f"#{result.executions} {options.target}: {rate:.0f} exec/s,"
            f" {len(result.crashes)} crash(es), slowest {result.slowest * 1000:.1f} ms",
            file=sys.stderr,
        )
    save_crashes(result)
    print(
        f"Done {result.executions} runs ({len(corpus)} seeds, seed {seed}) in "
        f"{result.seconds:.1f} s; slowest input {result.slowest * 1000:.1f} ms"
    )
    for crash in result.crashes.values():
        print(f"\nCRASH {crash.signature} ({crash.count} inputs), saved as {crash.saved}")
        print(crash.report)
    return 1 if result.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
