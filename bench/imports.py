"""Import and first-use cost of ``hermes_decl``, each in fresh processes, run alternately.

Every sample is a new interpreter; the runs alternate so all see the same load, and the median of
each is kept. ``import hermes_decl`` loads its public names lazily. First use is what a program
pays to parse its first declaration: importing the parser, building the models' classes and
validators, and the parse. It is compared with the least any Pydantic program pays: importing
pydantic and building and using one trivial model; and, for context, with plain BaseModels of
hermes_decl's own shapes (``bench.floor``) built and used once.
"""

from __future__ import annotations

import compileall
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hermes_decl
from bench.child import python_child
from bench.floor import floor_source

RUNS = 15
IMPORT_TARGET = 0.25
"""``import hermes_decl`` may add at most this fraction to ``import pydantic``."""
FIRST_USE_TARGET = 1.2
"""First use may take at most this many times pydantic with one trivial model."""

MISSED = {
    "first use": (
        "the floor is plain BaseModels of the same shapes built and used once (the floor row; "
        "its path location is pydantic's RootModel, whose import loads pydantic's plugin "
        "machinery, which hermes_decl's own string model does not). Beyond pydantic with one "
        "trivial model come, in CPU time on a shared 2-core machine: pydantic builds the 39 "
        "model classes with their validators and descriptions (about 8 ms, 0.2 ms each); "
        "pydantic-core builds the fast validator (about 8 ms, most of it compiling its 23 "
        "lookaround-free patterns; the three Windows path patterns, which spell out the reserved "
        "device names, about 3.5 ms); the rest of the models' modules (rule objects, their "
        "patterns, the annotations of the fields) about 10 ms; pydantic generates the models' "
        "schema once (about 8 ms); the fast twin is derived from it (about 2 ms)."
    ),
}
"""What each missed target's floor is, and why (``python -m bench`` writes it to RESULTS.md)."""

TRIVIAL = "from pydantic import BaseModel\nclass Point(BaseModel):\n    x: int\nPoint(x=1)\n"
FIRST_USE = (
    "from hermes_decl.declaration import parse_declaration\n"
    "parse_declaration('server', {'linux': {'presence': 'executable', 'location': '/opt/x'}},"
    " {'app': True}, where='first use')\n"
)
FLOOR_USE = (
    "FloorDeclaration.model_validate({'name': 'server', 'app': {'linux': {'presence':"
    " 'executable', 'location': ['/opt/x']}}, 'requires': {'app': True}})\n"
)


def _once(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def compiled() -> None:
    """Compile hermes_decl's bytecode first, as installing does: a fresh process must not be timed
    compiling a module whose cached bytecode is stale (or never written, where
    PYTHONDONTWRITEBYTECODE is set)."""
    compileall.compile_dir(Path(hermes_decl.__file__).parent, quiet=1)


def medians(commands: dict[str, list[str]], runs: int = RUNS) -> dict[str, float]:
    """The median seconds of each command, run alternately, each run a fresh process."""
    compiled()
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for number in range(runs):
        order = list(commands) if number % 2 == 0 else list(reversed(commands))
        for name in order:
            samples[name].append(_once(commands[name]))
    return {name: statistics.median(times) for name, times in samples.items()}


_COUNT_BUILT = """
import json, sys
from hermes_decl import declaration
from pydantic import BaseModel
models, pending = set(), [BaseModel]
while pending:
    for sub in pending.pop().__subclasses__():
        pending.append(sub)
        if sub.__module__.startswith("hermes_decl"):
            models.add(sub)
print(json.dumps(len(models)))
"""


def _model_classes() -> int:
    """How many model classes a first use defines."""
    count: int = json.loads(python_child(_COUNT_BUILT))
    return count


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    with tempfile.TemporaryDirectory() as folder:
        floor = Path(folder) / "floor.py"
        floor.write_text(floor_source() + FLOOR_USE, encoding="utf-8")
        python = sys.executable
        median = medians(
            {
                "pydantic": [python, "-c", "import pydantic"],
                "hermes_decl": [python, "-c", "import hermes_decl"],
                "trivial": [python, "-c", TRIVIAL],
                "first use": [python, "-c", FIRST_USE],
                "floor": [python, str(floor)],
            }
        )
    added = (median["hermes_decl"] - median["pydantic"]) / median["pydantic"]
    first_use = median["first use"] / median["trivial"]
    floor_ratio = median["floor"] / median["trivial"]
    return [
        (
            f"import hermes_decl vs import pydantic (fresh processes, median of {RUNS})",
            f"{median['hermes_decl'] * 1000:.0f} ms vs {median['pydantic'] * 1000:.0f} ms "
            f"({added:+.0%})",
            f"target < +{IMPORT_TARGET:.0%}",
            "met" if added < IMPORT_TARGET else "MISSED",
        ),
        (
            "first use: import, build the models and validators, parse one declaration "
            "vs pydantic with one trivial model",
            f"{median['first use'] * 1000:.0f} ms vs {median['trivial'] * 1000:.0f} ms "
            f"({first_use:.2f}x); {_model_classes()} model classes",
            f"target ≤ {FIRST_USE_TARGET}x",
            "met" if first_use <= FIRST_USE_TARGET else "MISSED",
        ),
        (
            "floor: plain BaseModels of the same shapes, built and used once "
            "vs pydantic with one trivial model (context)",
            f"{median['floor'] * 1000:.0f} ms ({floor_ratio:.2f}x)",
            "what Pydantic models of these shapes cost without any rule",
            "ratio",
        ),
    ]
