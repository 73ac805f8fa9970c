"""``hermes-decl init``: a commented declaration that passes ``check`` and finds its schema."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest

from hermes_decl.cli.init_command import bare_name, declaration_text, slug
from hermes_decl.loader import load_declarations_text
from hermes_decl.schema_files import schema_path
from tests.process_starts import run_started

ROOT = Path(__file__).parent.parent


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run_started(
        [sys.executable, "-m", "hermes_decl", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    "families",
    [("win32",), ("darwin",), ("linux",), ("win32", "darwin"), ("win32", "darwin", "linux")],
)
@pytest.mark.parametrize(
    "name", ["Vendor Studio", 'Ça "va": 2, #1', "null", "日本", "a/b\\c:d", ".."]
)
def test_the_declaration_is_valid_for_every_name_and_os_choice(
    name: str, families: tuple[str, ...]
) -> None:
    text = declaration_text(name, families, "file:///schema.json")
    [(server, declaration)] = load_declarations_text(text, where="init.yaml").items()
    assert server == slug(name)
    assert declaration.app is not None
    assert declaration.app.display_name == name
    assert tuple(f for f in ("win32", "darwin", "linux") if getattr(declaration.app, f)) == (
        families
    )
    assert declaration.requires.app is True


def test_slugs_and_bare_names() -> None:
    assert [bare_name(n) for n in ("Vendor Studio", "a/b\\c:d", "..", " x ")] == [
        "Vendor Studio",
        "a-b-c-d",
        "app",
        "x",
    ]
    assert [slug(n) for n in ("Vendor Studio", " Ça va! ", "日本", "GIMP 2.10")] == [
        "vendor-studio",
        "a-va",
        "app",
        "gimp-2-10",
    ]


def test_init_writes_a_file_that_check_passes_and_whose_schema_exists(tmp_path: Path) -> None:
    target = tmp_path / "plugin" / "hermes-declarations.yaml"
    target.parent.mkdir()
    written = run("init", "Inkwell", "--os", "linux,darwin", "--output", str(target))
    assert (written.returncode, written.stderr) == (0, "")
    assert written.stdout == f"{target}: written (inkwell, darwin, linux)\n"
    first = target.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix + "file:///")
    schema = Path(url2pathname(urlparse(first[len(prefix) :]).path))
    assert schema == schema_path("2020-12").resolve()
    checked = run("check", str(target))
    assert (checked.returncode, checked.stdout) == (0, f"{target}: ok (inkwell)\n")


def test_init_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    target = tmp_path / "declarations.yaml"
    target.write_text("mine\n", encoding="utf-8")
    refused = run("init", "Inkwell", "--output", str(target))
    assert (refused.returncode, refused.stderr) == (
        1,
        f"{target}: already exists (--force overwrites it)\n",
    )
    assert target.read_text(encoding="utf-8") == "mine\n"
    forced = run("init", "Inkwell", "--os", "win32", "--output", str(target), "--force")
    assert forced.returncode == 0
    assert "    win32:" in target.read_text(encoding="utf-8")


def test_init_prints_the_declaration_without_output() -> None:
    result = run("init", "Inkwell", "--os", "linux")
    uri = schema_path("2020-12").resolve().as_uri()
    assert (result.returncode, result.stdout) == (
        0,
        declaration_text("Inkwell", ("linux",), uri),
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("x", "--os", "beos"),
            "--os beos: give one or more of win32, darwin, linux, comma-separated\n",
        ),
        (("x", "--os", ","), "--os ,: give one or more of win32, darwin, linux, comma-separated\n"),
        (
            ("a\x1bb",),
            "'a\\x1bb': the application's name must be text without control characters\n",
        ),
    ],
    ids=["unknown-os", "no-os", "control-character"],
)
def test_init_usage_errors(args: tuple[str, ...], message: str) -> None:
    result = run("init", *args)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message)
