"""Write the seed corpora under fuzz/corpus/<target>/ (deterministic; the output is committed).

    python fuzz/make_seeds.py

Seeds are small: readable declarations (JSON for the parser, the example files and YAML corner
cases for the loader), hostile machines as JSON scenarios for the resolver, version strings, XML
and binary Info.plists, the PE samples of tests/fixtures/pe, runtime files, and for every target a
few inputs for its structured mode (a first byte below 0x08 followed by generator bytes). The
``wire`` corpus, answers written by hand, is kept as it is.
"""

from __future__ import annotations

import codecs
import json
import plistlib
import random
import shutil
import sys
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml

from hermes_decl.testing_pe import build_pe

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = HERE / "corpus"

DECLARATIONS: dict[str, object] = {
    "linux-minimal": {
        "name": "tool",
        "app": {"linux": {"presence": "executable", "location": "/opt/tool/bin/tool"}},
        "requires": {"app": True},
    },
    "win32-registry": {
        "name": "studio",
        "app": {
            "win32": {
                "presence": "executable",
                "location": [
                    {
                        "kind": "uninstall_registry",
                        "display_name_prefix": "Studio",
                        "file": "s.exe",
                    },
                    "%ProgramFiles(x86)%\\Studio\\Studio */s.exe",
                    "C:/Tools/studio.exe",
                ],
                "version": {"kind": "uninstall_registry", "display_name_prefix": "Studio"},
                "liveness": {
                    "kind": "server_json",
                    "path": "%LOCALAPPDATA%/Studio/server.json",
                    "pid_key": "pid",
                    "url_key": "http",
                    "token_key": "token",
                    "endpoint_path": "/mcp",
                },
            }
        },
        "requires": {"app": True, "min_version": "2.3.0", "gpu": "nvidia"},
    },
    "darwin-bundle": {
        "name": "vendor",
        "app": {
            "darwin": {
                "presence": "bundle",
                "location": {"kind": "app_bundle", "name": "Vendor.app"},
                "version": {"kind": "plist"},
            },
            "linux": {
                "presence": "executable",
                "location": [
                    {"kind": "command", "name": "vendor"},
                    {"kind": "flatpak", "app_id": "com.vendor.App"},
                    {"kind": "snap", "name": "vendor"},
                    "~/.local/bin/vendor",
                    "${HOME}/bin/vendor",
                ],
            },
        },
        "requires": {"app": True, "min_version": "11.0"},
    },
    "broken": {
        "name": "broken",
        "app": {
            "macos": {"presence": "bundle"},
            "win32": {
                "presence": "exe",
                "location": ["Program Files/x.exe", {"kind": "app_bundle", "name": "X.app"}],
                "version": {"kind": "plist", "display_name_prefix": "X"},
                "liveness": {"kind": "none", "path": "/x"},
            },
            "linux": {"presence": "executable", "location": ["//srv/x", "/opt/../x", "/a/**/b"]},
        },
        "requires": {"app": "true", "min_versoin": "2.3", "min_version": 2.3, "gpu": "amd"},
    },
    "no-app": {"name": "only-gpu", "requires": {"gpu": "nvidia"}},
    "linux-only-minimum": {
        "name": "l",
        "app": {"linux": {"presence": "executable", "location": {"kind": "command", "name": "l"}}},
        "requires": {"app": True, "min_version": "1.0"},
    },
    "minimum-without-source": {
        "name": "w",
        "app": {
            "win32": {"presence": "executable", "location": "C:\\W\\w.exe"},
            "darwin": {"presence": "bundle", "location": "/Applications/W.app"},
            "linux": {"presence": "executable", "location": "/usr/bin/w"},
        },
        "requires": {"app": True, "min_version": "3"},
    },
    "app-required": {"name": "r", "requires": {"app": True, "min_version": "1"}},
    "minimum-without-app": {
        "name": "m",
        "app": {"darwin": {"presence": "bundle", "location": "~/Applications/M.app"}},
        "requires": {"min_version": "1.2"},
    },
    "lone-location": {
        "name": "o",
        "app": {"linux": {"presence": "executable", "location": {"kind": "snap", "name": "a/b"}}},
    },
    "empty": {"name": "", "app": {}, "requires": {}},
    "null-blocks": {"name": "n", "app": {"darwin": None, "linux": None}, "requires": None},
}

LOADER_TEXTS: dict[str, str] = {
    "anchors.yaml": (
        "base: &base\n  presence: executable\n  location: /opt/x\n"
        "one:\n  app:\n    linux:\n      <<: *base\n      version: { kind: none }\n"
        "  requires: { app: true }\n"
    ),
    "merge-list.yaml": (
        "a: &a { presence: executable }\nb: &b { location: [/opt/y] }\n"
        "s:\n  app:\n    linux:\n      <<: [*a, *b]\n"
    ),
    "duplicates.yaml": (
        "s:\n  app:\n    linux:\n      presence: executable\n      presence: bundle\n"
    ),
    "tags.yaml": "s:\n  app: !!set { linux }\n  requires: !custom { app: true }\n",
    "bomb.yaml": "a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\n",
    "multi.yaml": "s: {}\n---\nt: {}\n",
    "flow.yaml": (
        '{s: {app: {darwin: {presence: bundle, location: [{kind: app_bundle, name: "A.app"}]}}}}\n'
    ),
    "json.json": json.dumps(
        {"s": {"app": {"linux": {"presence": "executable", "location": "/x"}}, "s": 1}}
    ),
    "json-dup.json": '{"s": {"app": null, "app": {}}, "s": {}}',
    "manifest.yaml": (
        "tool:\n  servers:\n    x:\n      app:\n        linux: {presence: executable, "
        "location: [{kind: snap, name: x}]}\n      requires: {app: true}\n"
    ),
    "keys.yaml": "? [a, b]\n: 1\n1: 2\nnull: 3\n=: 4\ns: {app: {linux: {<<: 5}}}\n",
    "bom.yaml": "\ufeffs:\n  requires:\n    gpu: nvidia\n",
    "scalars.yaml": "s:\n  requires:\n    app: yes\n    min_version: 2.3\n    gpu: 0x10\n",
    "deep.yaml": "s: " + "[" * 120 + "]" * 120 + "\n",
    "bomb-big.yaml": "".join(
        f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}" if i else "x"] * 10) + "]\n" for i in range(6)
    ),
    "merge-empty-bomb.yaml": "a0: &a0 {}\n"
    + "".join(
        f"a{i}: &a{i} {{<<: [" + ", ".join([f"*a{i - 1}"] * 9) + "]}\n" for i in range(1, 10)
    ),
    "merge-block-bomb.yaml": "a0: &a0 {}\n"
    + "".join(
        f"a{i}: &a{i}\n  <<:\n" + "".join(f"    - *a{i - 1}\n" for _ in range(9))
        for i in range(1, 10)
    ),
    "merge-keys-bomb.yaml": "a0: &a0 {}\n"
    + "".join(f"a{i}: &a{i} {{" + ", ".join([f"<<: *a{i - 1}"] * 9) + "}\n" for i in range(1, 10)),
    "alias-over-merge-bomb.yaml": "a0: &a0 {}\n"
    + "".join(f"a{i}: &a{i} {{<<: [" + ", ".join([f"*a{i - 1}"] * 9) + "]}\n" for i in range(1, 4))
    + "".join(
        f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}" if i else "*a3"] * 9) + "]\n" for i in range(6)
    ),
    "set-over-merge-bomb.yaml": "a0: &a0 {}\n"
    + "".join(f"a{i}: &a{i} {{<<: [" + ", ".join([f"*a{i - 1}"] * 9) + "]}\n" for i in range(1, 4))
    + "b: !!set {"
    + ", ".join(["? *a3"] * 20)
    + "}\n",
    "merge-deep.yaml": "m0: &m0 {k: 1}\n"
    + "".join(f"m{i}: &m{i} {{<<: *m{i - 1}}}\n" for i in range(1, 110)),
    "json-bigint.json": '{"s": {"requires": {"app": ' + "7" * 4400 + "}}}",
    "selection.yaml": (
        "tool:\n  servers:\n    a: {requires: {app: false}}\n    b: 3\n  other: [1]\nname: x\n"
    ),
    "crlf.yaml": "s:\r\n  app:\r\n    linux:\r\n      presence: exe\r\n",
    "empty.yaml": "# nothing\n",
    "timestamp.yaml": "s:\n  requires: { min_version: 2001-12-14 }\n  app: !!binary aGVsbG8=\n",
}

RESOLVER_SCENARIOS: dict[str, dict[str, Any]] = {
    "hostile-names": {
        "os": "linux",
        "presence": "executable",
        "location": "/opt/*/bin/x",
        "names": ["..", ".", "", "a/../../etc", "/etc", "x\0y", "vendor-2"],
        "files": ["/opt/vendor-2/bin/x", "/etc/bin/x"],
    },
    "windows-device-names": {
        "os": "win32",
        "presence": "executable",
        "location": ["C:\\Apps\\*\\v.exe", {"kind": "command", "name": "nul"}],
        "env": {"PATH": "C:\\CON;C:\\bin"},
        "names": ["CON", "nul.txt", "com1 .", "a\\b", "C:", "Vendor 2"],
        "files": ["C:\\Apps\\Vendor 2\\v.exe"],
        "uninstall": [["Vendor", "1.0", "C:\\Program Files\\CON"]],
    },
    "empty-variable": {
        "os": "linux",
        "presence": "executable",
        "location": ["$EMPTY/etc/hostname", "${XDG_DATA_HOME}/vendor/x", "~/x"],
        "env": {"EMPTY": "", "XDG_DATA_HOME": " "},
        "home": "",
        "files": ["/etc/hostname", "/vendor/x", "/x"],
    },
    "cut-listing": {
        "os": "darwin",
        "presence": "bundle",
        "location": "/Applications/Vendor *.app",
        "version": {"kind": "plist"},
        "min_version": "2",
        "names": ["Vendor 1.app", "Vendor 10.app"],
        "truncated": True,
    },
    "gpu-survey": {
        "os": "linux",
        "presence": "executable",
        "location": "/opt/x",
        "gpu": True,
        "names": ["..", "0000:00:02.0/../../x"],
        "pci": [["0000:02:00.0", "0x1a03", "0x030000"], ["0000:ff:00.0", "0x10de", "0x030200"]],
    },
}

VERSION_SEEDS = {
    "basic": "2.3.0\x002.3\x00v2.10",
    "build": "2.3.0.12594\x002.3.0\x0011.0.9.509 (x64)",
    "suffix": "2.3.0-beta\x002.3.0\x002.3.0+build.7",
    "unreadable": "beta\x001\x00",
    "unicode-digits": "\u0663.1\x003.1\x00\uff13.1",
    "long": "1" * 60 + ".0\x00" + "0" * 30 + "1\x00" + "9" * 12,
    "spaces": " 1.2 3\x00\u20031.2\x001.2\u3000",
    "empty-parts": "..1..\x00.\x001.",
}

PLISTS: dict[str, Any] = {
    "short": {"CFBundleShortVersionString": "2.4.1", "CFBundleVersion": "2041"},
    "bundle-only": {"CFBundleIdentifier": "com.vendor.App", "CFBundleVersion": " 11.0.9 "},
    "blank": {"CFBundleShortVersionString": "  ", "CFBundleVersion": "7"},
    "non-string": {"CFBundleShortVersionString": 3, "CFBundleVersion": ["1"]},
    "none": {"CFBundleName": "X"},
    "array": ["CFBundleVersion", "1.0"],
}


RUNTIME_FILES: dict[str, bytes] = {
    "valid.json": b'{"pid": 4242, "http": "http://127.0.0.1:5000", "token": "t-1"}',
    "no-token.json": b'{"pid": 4242, "http": "http://[::1]:5000/mcp"}',
    "bom.json": b'\xef\xbb\xbf{"pid": 4242, "http": "http://127.0.0.1:5000"}',
    "pid-string.json": b'{"pid": "4242", "http": "http://127.0.0.1:5000"}',
    "remote.json": b'{"pid": 4242, "http": "http://10.0.0.1:5000", "token": "t-1"}',
    "token-crlf.json": b'{"pid": 4242, "http": "http://127.0.0.1:1", "token": "t\\r\\nX: 1"}',
    "nan.json": b'{"pid": NaN, "http": Infinity}',
    "deep.json": b"[" * 200,
    "not-utf8.json": b'{"pid": 4242, "http": "\xff\xfe"}',
}
GENERATED = ("parser", "loader", "resolver", "version", "plist", "pe", "runtime")
"""The corpora this script writes whole; the others (``wire``) are written by hand and kept."""


def _write(directory: Path, name: str, data: bytes) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data)


def _structured(directory: Path, seed: int, count: int = 8, size: int = 200) -> None:
    rng = random.Random(seed)
    for index in range(count):
        _write(directory, f"structured-{index}", bytes([index % 8]) + rng.randbytes(size))


def main() -> None:
    for target in GENERATED:
        if (CORPUS / target).exists():
            shutil.rmtree(CORPUS / target)

    parser = CORPUS / "parser"
    for name, declaration in DECLARATIONS.items():
        _write(parser, f"{name}.json", json.dumps(declaration, indent=1).encode())
    for example in sorted((ROOT / "examples").glob("*.yaml")):
        servers = yaml.safe_load(example.read_text(encoding="utf-8"))
        for server, body in servers.items():
            document = {"name": server, **body}
            _write(parser, f"example-{server}.json", json.dumps(document).encode())
    _structured(parser, 1)

    loader = CORPUS / "loader"
    for example in sorted((ROOT / "examples").glob("*.yaml")):
        _write(loader, f"example-{example.name}", example.read_bytes())
    for name, text in LOADER_TEXTS.items():
        _write(loader, name, text.encode("utf-8"))
    _write(loader, "utf16.yaml", codecs.BOM_UTF16_LE + "s: {app: 1}\n".encode("utf-16-le"))
    _structured(loader, 2, size=300)
    for index in range(4):  # alias and merge-key bombs (structured mode 3)
        _write(loader, f"bomb-{index}", bytes([3]) + random.Random(20 + index).randbytes(40))

    resolver = CORPUS / "resolver"
    for name, scenario in RESOLVER_SCENARIOS.items():
        _write(resolver, f"{name}.json", json.dumps(scenario, indent=1).encode())
    _structured(resolver, 6, count=6, size=96)

    version = CORPUS / "version"
    for name, text in VERSION_SEEDS.items():
        _write(version, name, text.encode("utf-8"))
    _structured(version, 3, count=4, size=64)

    plist = CORPUS / "plist"
    for name, top in PLISTS.items():
        _write(plist, f"{name}.xml.plist", plistlib.dumps(top, fmt=plistlib.FMT_XML))
        _write(plist, f"{name}.bin.plist", plistlib.dumps(top, fmt=plistlib.FMT_BINARY))
    for info in sorted((ROOT / "tests" / "fixtures" / "hosts").rglob("Info.plist")):
        _write(plist, f"fixture-{info.parent.parent.name}.plist", info.read_bytes())
    _structured(plist, 4, count=4, size=128)

    runtime = CORPUS / "runtime"
    for name, data in RUNTIME_FILES.items():
        _write(runtime, name, data)
    _structured(runtime, 7, count=6, size=48)

    pe = CORPUS / "pe"
    for sample in sorted((ROOT / "tests" / "fixtures" / "pe").iterdir()):
        if sample.suffix in (".exe", ".dll"):
            _write(pe, sample.name, sample.read_bytes())
    _write(pe, "built-1.2.3.4.exe", build_pe("1.2.3.4"))
    _write(pe, "built-65535.exe", build_pe("65535.0.65535.1", product_version="9.9"))
    _structured(pe, 5, count=4, size=64)

    total = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file())
    print(f"wrote {sum(1 for p in CORPUS.rglob('*') if p.is_file())} seeds, {total} bytes")


if __name__ == "__main__":
    main()
