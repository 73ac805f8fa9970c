"""Import cost of ``hermes_decl`` against ``pydantic``, each in fresh processes, run alternately.

Every sample is a new interpreter running ``import X``; the runs alternate so all see the same
load, and the median of each is kept. ``import hermes_decl`` loads its public names lazily; the
first-use row (``from hermes_decl import declaration``) says what building the models costs:
the model classes (one per OS for AppDef, path locations and liveness) and the module-level
TypeAdapters, each a pydantic core schema compiled once.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

RUNS = 15
TARGET = 0.25
"""``import hermes_decl`` may add at most this fraction to ``import pydantic``."""

STATEMENTS = {
    "pydantic": "import pydantic",
    "BaseModel": "from pydantic import BaseModel, TypeAdapter",
    "hermes_decl": "import hermes_decl",
    "first use": "from hermes_decl import declaration",
}


def _once(statement: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True)
    return time.perf_counter() - started


_COUNT_BUILT = """
import json, sys
from hermes_decl import declaration
from pydantic import BaseModel, TypeAdapter
models, pending = set(), [BaseModel]
while pending:
    for sub in pending.pop().__subclasses__():
        pending.append(sub)
        if sub.__module__.startswith("hermes_decl"):
            models.add(sub)
per_os = [m for m in models if m.__name__.startswith(("Win32", "Darwin", "Linux"))]
adapters = [
    value
    for name, module in list(sys.modules.items())
    if name.startswith("hermes_decl")
    for value in vars(module).values()
    if isinstance(value, TypeAdapter)
]
print(json.dumps([len(models), len(per_os), len(adapters)]))
"""


def _what_import_builds() -> str:
    """What a fresh ``import hermes_decl`` has built: model classes and TypeAdapters."""
    done = subprocess.run(
        [sys.executable, "-c", _COUNT_BUILT], capture_output=True, text=True, check=True
    )
    models, per_os, adapters = json.loads(done.stdout)
    return f"{models} model classes ({per_os} per-OS variants) and {adapters} TypeAdapters"


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    samples: dict[str, list[float]] = {name: [] for name in STATEMENTS}
    for number in range(RUNS):
        order = list(STATEMENTS) if number % 2 == 0 else list(reversed(STATEMENTS))
        for name in order:
            samples[name].append(_once(STATEMENTS[name]))
    median = {name: statistics.median(times) for name, times in samples.items()}
    added = (median["hermes_decl"] - median["pydantic"]) / median["pydantic"]
    classes = (median["BaseModel"] - median["pydantic"]) / median["pydantic"]
    return [
        (
            f"import hermes_decl vs import pydantic (fresh processes, median of {RUNS})",
            f"{median['hermes_decl'] * 1000:.0f} ms vs {median['pydantic'] * 1000:.0f} ms "
            f"({added:+.0%})",
            f"target < +{TARGET:.0%}",
            "met" if added < TARGET else "MISSED",
        ),
        (
            "from hermes_decl import declaration vs import pydantic (first use: models built)",
            f"{median['first use'] * 1000:.0f} ms "
            f"(+{(median['first use'] - median['pydantic']) / median['pydantic']:.0%}); "
            f"builds {_what_import_builds()}",
            "no target: import hermes_decl loads names lazily; this is the first parse's share",
            "ratio",
        ),
        (
            "from pydantic import BaseModel, TypeAdapter vs import pydantic (context)",
            f"{median['BaseModel'] * 1000:.0f} ms (+{classes:.0%})",
            "what any pydantic model costs before its own schema",
            "ratio",
        ),
    ]
