"""``hermes-decl init NAME --os …``: write a commented declaration to start from, valid as written.

The file's first line points editors at the installed schema by an absolute ``file://`` URI, so
it works wherever the file is written (``hermes-decl schema --path`` names the same file).
"""

from __future__ import annotations

import argparse
import re

from hermes_decl.cli.command import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, OS_FAMILIES, Command
from hermes_decl.cli.output import Output, escape_controls

_NOT_IN_SLUG = re.compile(r"[^a-z0-9]+")
_NOT_IN_BARE_NAME = re.compile(r"[/\\:]+")


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the application's name, as people say it")
    parser.add_argument(
        "--os",
        default=",".join(OS_FAMILIES),
        metavar="OS,…",
        help="the OS families to declare, comma-separated (default: win32,darwin,linux)",
    )
    parser.add_argument(
        "--output", metavar="FILE", help="write the declaration to FILE (default: print it)"
    )
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")


def slug(name: str) -> str:
    """The server and command name made from an application's name: ``Vendor Studio`` →
    ``vendor-studio`` (``app`` when nothing of it is a letter or digit of ASCII)."""
    return _NOT_IN_SLUG.sub("-", name.lower()).strip("-") or "app"


def bare_name(name: str) -> str:
    """An application's name as one file or folder name (no ``/``, ``\\`` nor ``:``), for the
    example places and the uninstall entry's prefix."""
    bare = _NOT_IN_BARE_NAME.sub("-", name).strip()
    return bare if bare.strip(".") else slug(name)


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (a JSON string is one)."""
    import json  # only when writing a file: ``check`` shares this module's import, not its work

    return json.dumps(text, ensure_ascii=False)


def _os_block(family: str, display_name: str, command: str) -> list[str]:
    name = bare_name(display_name)
    if family == "win32":
        return [
            "    win32:                      # how to find it on Windows",
            "      presence: executable      # a file to find (bundle is for a macOS .app)",
            "      location:                 # the places to look, in order: the first found wins",
            f"        - {{ kind: uninstall_registry, display_name_prefix: {_quoted(name)}, "
            f"file: {_quoted(command + '.exe')} }}",
            f"        - {_quoted(f'%ProgramFiles%/{name}/{command}.exe')}",
            "      version: { kind: pe_resource }   # the .exe's version resource",
            f"      # install: {{ winget: {_quoted('Vendor.' + command)} }}   # how to install it",
        ]
    if family == "darwin":
        return [
            "    darwin:                     # how to find it on macOS",
            "      presence: bundle          # an .app bundle",
            "      location:",
            f"        - {{ kind: app_bundle, name: {_quoted(name + '.app')} }}   # in Applications",
            "      version: { kind: plist }  # the bundle's Info.plist",
            f"      # install: {{ brew_cask: {_quoted(command)} }}",
        ]
    return [
        "    linux:                      # how to find it on Linux",
        "      presence: executable",
        "      location:",
        f"        - {{ kind: command, name: {_quoted(command)} }}   # on the search path",
        f"        - {_quoted(f'/opt/{command}/bin/{command}')}",
        f"      # install: {{ flatpak: {_quoted('org.example.' + command)} }}",
    ]


def declaration_text(name: str, families: tuple[str, ...], schema_uri: str) -> str:
    """The commented declaration ``init`` writes for an application and its OS families."""
    command = slug(name)
    lines = [
        f"# yaml-language-server: $schema={schema_uri}",
        f"# The declaration of {name}: where to find it and what its MCP server needs.",
        "# Replace the example places with real ones, then run: hermes-decl check THIS-FILE",
        f"{_quoted(command)}:   # the server name, as the host configures it",
        "  app:                          # the application the server fronts",
        f"    display_name: {_quoted(name)}   # the name every sentence uses",
    ]
    for family in families:
        lines.extend(_os_block(family, name, command))
    lines += [
        "  requires:                     # what the server needs before it is offered",
        "    app: true                   # the application above must be found",
        '    # min_version: "1.0"        # the oldest version the server works with',
    ]
    return "\n".join(lines) + "\n"


def _families(text: str) -> tuple[str, ...] | None:
    """The OS families of ``--os``, in the order of ``OS_FAMILIES``, or None when one is unknown."""
    chosen = {part.strip() for part in text.split(",") if part.strip()}
    if not chosen or not chosen <= set(OS_FAMILIES):
        return None
    return tuple(family for family in OS_FAMILIES if family in chosen)


def _init(args: argparse.Namespace, out: Output, err: Output) -> int:
    from hermes_decl.schema.files import schema_path

    families = _families(args.os)
    if families is None:
        err.line(f"--os {args.os}: give one or more of {', '.join(OS_FAMILIES)}, comma-separated")
        return EXIT_USAGE
    name = args.name.strip()
    if not name or escape_controls(name) != name:
        err.line(f"{args.name!r}: the application's name must be text without control characters")
        return EXIT_USAGE
    text = declaration_text(name, families, schema_path("2020-12").resolve().as_uri())
    if args.output is None:
        out.stream.write(text)
        return EXIT_OK
    try:
        with open(args.output, "w" if args.force else "x", encoding="utf-8") as written:
            written.write(text)
    except FileExistsError:
        err.line(f"{args.output}: already exists (--force overwrites it)")
        return EXIT_PROBLEMS
    except OSError as error:
        err.line(f"{args.output}: cannot be written ({error.strerror or error})")
        return EXIT_PROBLEMS
    out.line(f"{args.output}: written ({slug(name)}, {', '.join(families)})")
    return EXIT_OK


INIT = Command(
    "init",
    "write a commented declaration for an application, to start from",
    "Write a commented declaration for an application on the chosen OS families; it passes "
    "check as written, and its first line points editors at the installed schema.",
    _add_arguments,
    _init,
    "exit status: 0 when the declaration was written; 1 when FILE exists (without --force) or "
    "cannot be written; 2 for a usage error, such as an unknown OS family.",
)
