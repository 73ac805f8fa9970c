"""The reference parser the parse benchmarks compare against: a fair hand-written one, stdlib only.

It lives beside the repository, in ``../shared/bench/ref_parser.py``, and is imported from there as
it is (never copied or tuned). It knows the declaration language 1.0, so it is compared on
declarations written in it. Only ``python -m bench`` needs it; the tests do not.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

PATH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "ref_parser.py"
"""Where the reference parser is: ``shared/bench/`` beside the repository's folder."""


def reference_parser() -> ModuleType:
    """The reference parser module, loaded from ``PATH``; a clear error when it is not there."""
    loaded = sys.modules.get("ref_parser")
    if loaded is not None:
        return loaded
    if not PATH.is_file():
        raise SystemExit(f"python -m bench compares against {PATH}, which does not exist")
    spec = importlib.util.spec_from_file_location("ref_parser", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ref_parser"] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module
