"""The ``hermes-decl`` command: validate declaration files and print what they declare."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml

from hermes_decl.declaration import DeclarationError, parse_declaration
from hermes_decl.models import Declaration


def _declarations(path: Path) -> list[Declaration]:
    where = str(path)
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise SystemExit(f"{where}: cannot read: {error}") from None
    if not isinstance(document, Mapping):
        raise SystemExit(f"{where}: must be a mapping of server name to {{app, requires}}")
    parsed: list[Declaration] = []
    problems: list[str] = []
    for name, body in document.items():
        body = body if isinstance(body, Mapping) else {}
        extra = sorted(set(map(str, body)) - {"app", "requires"})
        if extra:
            problems.append(
                f"{where}: {name}.{extra[0]}: unknown key (expected 'app' or 'requires')"
            )
            continue
        try:
            parsed.append(
                parse_declaration(str(name), body.get("app"), body.get("requires"), where=where)
            )
        except DeclarationError as error:
            problems.extend(
                issue.render(where).replace(": ", f": {name}.", 1)
                if issue.loc
                else issue.render(where)
                for issue in error.issues
            )
    if problems:
        raise _Problems(problems)
    return parsed


class _Problems(Exception):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines)
        self.lines = lines


def main(argv: Sequence[str] | None = None) -> int:
    """Validate each file and print each declaration's name and OS blocks; 1 on any problem."""
    parser = argparse.ArgumentParser(prog="hermes-decl", description=__doc__)
    parser.add_argument("files", nargs="+", type=Path, help="declaration files (YAML or JSON)")
    args = parser.parse_args(argv)
    status = 0
    for path in args.files:
        try:
            declarations = _declarations(path)
        except _Problems as problems:
            print("\n".join(problems.lines))
            status = 1
            continue
        for decl in declarations:
            blocks = ", ".join(decl.app.os_families) if decl.app else "no app block"
            print(f"{path}: {decl.name}: valid ({blocks})")
    return status


if __name__ == "__main__":
    sys.exit(main())
