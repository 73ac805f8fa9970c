"""A corpus of the mistakes authors make declaring real applications (Blender, GIMP, Krita,
VS Code, DaVinci Resolve, Fusion, Ableton Live, KiCad) for three OSes from the README alone.

Each is run through ``hermes-decl check`` as an author would: the exact lines it prints and its
exit status, then ``--json``, whose ``hint`` of each issue is the fix alone (the end of the
message) or null.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.test_author_mistakes import MISTAKES, check


class Mistake(NamedTuple):
    """One mistake: the file's name and text, what ``check`` exits with and prints, and the
    ``hint`` of each issue in ``--json``."""

    file: str
    text: str
    status: int
    printed: tuple[str, ...]
    hints: tuple[str | None, ...]


CORPUS: dict[str, Mistake] = {
    "presence-misspelt": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executible, location: /usr/bin/blender}\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:23: blender.app.linux.presence: must be 'executable' or 'bundle' "
                "(got 'executible'; did you mean 'executable'?)"
            ),
        ),
        ("did you mean 'executable'?",),
    ),
    "presence-exe": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    win32: {presence: exe, location: 'C:/Program Files/Blender "
            "Foundation/Blender 4.2/blender.exe'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:23: blender.app.win32.presence: must be 'executable' or 'bundle' "
                "(got 'exe')"
            ),
        ),
        (None,),
    ),
    "presence-missing": Mistake(
        "hermes.yaml",
        "krita:\n  app:\n    linux: {location: /usr/bin/krita}\n  requires: {app: true}\n",
        1,
        ("hermes.yaml:3:5: krita.app.linux.presence: is required",),
        (None,),
    ),
    "bundle-on-win32": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    win32: {presence: bundle, location: 'C:/Program Files/Krita "
            "(x64)/bin/krita.exe'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:23: krita.app.win32.presence: must be 'executable' under "
                "app.win32: a bundle is a macOS application folder (Something.app), which "
                "Windows does not have (got 'bundle')"
            ),
        ),
        (None,),
    ),
    "location-kind-misspelt": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux:\n      presence: executable\n      location: {kind: "
            "comand, name: kicad}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:24: kicad.app.linux.location.kind: must be 'command', 'flatpak' "
                "or 'snap' (got 'comand'; did you mean 'command'?)"
            ),
        ),
        ("did you mean 'command'?",),
    ),
    "app-bundle-on-linux": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux:\n      presence: executable\n      location: {kind: "
            "app_bundle, name: KiCad.app}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:17: kicad.app.linux.location: kind 'app_bundle' is only valid "
                "under app.darwin"
            ),
        ),
        (None,),
    ),
    "flatpak-on-darwin": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    darwin:\n      presence: bundle\n      location: {kind: "
            "flatpak, app_id: org.kicad.KiCad}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:17: kicad.app.darwin.location: kind 'flatpak' is only valid under "
                "app.linux"
            ),
        ),
        (None,),
    ),
    "uninstall-on-darwin": Mistake(
        "hermes.yaml",
        (
            "ableton:\n  app:\n    darwin:\n      presence: bundle\n      location: {kind: "
            "uninstall_registry, display_name_prefix: Ableton, file: Live.exe}\n  requires: "
            "{app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:17: ableton.app.darwin.location: kind 'uninstall_registry' is "
                "only valid under app.win32"
            ),
        ),
        (None,),
    ),
    "command-with-bundle-presence": Mistake(
        "hermes.yaml",
        (
            "vscode:\n  app:\n    darwin:\n      presence: bundle\n      location: {kind: "
            "command, name: code}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:17: vscode.app.darwin.location: kind 'command' finds an "
                "executable, but this block's presence is 'bundle'"
            ),
        ),
        (None,),
    ),
    "location-kind-missing": Mistake(
        "hermes.yaml",
        (
            "gimp:\n  app:\n    linux:\n      presence: executable\n      location: {name: "
            "gimp}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:7: gimp.app.linux.location.kind: is required: one of 'command', "
                "'flatpak' or 'snap'"
            ),
        ),
        (None,),
    ),
    "os-key-windows": Mistake(
        "hermes.yaml",
        (
            "gimp:\n  app:\n    windows: {presence: executable, location: 'C:/Program Files/GIMP "
            "2/bin/gimp-2.10.exe'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:5: gimp.app.windows: unknown key (expected 'win32', 'darwin', "
                "'linux' or 'display_name')"
            ),
        ),
        ("expected 'win32', 'darwin', 'linux' or 'display_name'",),
    ),
    "os-key-macos": Mistake(
        "hermes.yaml",
        (
            "gimp:\n  app:\n    macos: {presence: bundle, location: {kind: app_bundle, name: "
            "GIMP.app}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:5: gimp.app.macos: unknown key (expected 'win32', 'darwin', "
                "'linux' or 'display_name')"
            ),
        ),
        ("expected 'win32', 'darwin', 'linux' or 'display_name'",),
    ),
    "os-key-mac-capital": Mistake(
        "hermes.yaml",
        (
            "gimp:\n  app:\n    Darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "GIMP.app}}\n  requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:3:5: gimp.app.Darwin: unknown key (did you mean 'darwin'?)",),
        ("did you mean 'darwin'?",),
    ),
    "no-os-block": Mistake(
        "hermes.yaml",
        "gimp:\n  app:\n    display_name: GIMP\n  requires: {app: true}\n",
        1,
        (("hermes.yaml:3:5: gimp.app: must declare at least one of 'win32', 'darwin' or 'linux'"),),
        (None,),
    ),
    "version-kind-misspelt": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    win32:\n      presence: executable\n      location: "
            "'C:/Program Files/Blackmagic Design/DaVinci Resolve/Resolve.exe'\n      version: "
            "{kind: pe_resouce}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:23: resolve.app.win32.version.kind: must be 'none', 'pe_resource' "
                "or 'uninstall_registry' (got 'pe_resouce'; did you mean 'pe_resource'?)"
            ),
        ),
        ("did you mean 'pe_resource'?",),
    ),
    "plist-on-win32": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    win32:\n      presence: executable\n      location: "
            "'C:/Program Files/Blackmagic Design/DaVinci Resolve/Resolve.exe'\n      version: "
            "{kind: plist}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:23: resolve.app.win32.version.kind: kind 'plist' is only valid "
                "under app.darwin"
            ),
        ),
        (None,),
    ),
    "pe-resource-on-darwin": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    darwin:\n      presence: bundle\n      location: {kind: "
            "app_bundle, name: DaVinci Resolve.app}\n      version: {kind: pe_resource}\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:23: resolve.app.darwin.version.kind: kind 'pe_resource' is only "
                "valid under app.win32"
            ),
        ),
        (None,),
    ),
    "version-on-linux": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    linux:\n      presence: executable\n      location: "
            "/opt/resolve/bin/resolve\n      version: {kind: plist}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:23: resolve.app.linux.version.kind: kind 'plist' is only valid "
                "under app.darwin"
            ),
        ),
        (None,),
    ),
    "version-as-string": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    win32:\n      presence: executable\n      location: "
            "'C:/Program Files/Blackmagic Design/Fusion 18/Fusion.exe'\n      version: "
            "pe_resource\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:16: fusion.app.win32.version: must be a mapping with kind 'none', "
                "'pe_resource' or 'uninstall_registry' (got 'pe_resource'; write {kind: "
                "pe_resource})"
            ),
        ),
        ("write {kind: pe_resource}",),
    ),
    "misspelt-location": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executable, locations: /usr/bin/blender}\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            "hermes.yaml:3:5: blender.app.linux.location: is required",
            (
                "hermes.yaml:3:35: blender.app.linux.locations: unknown key (did you mean "
                "'location'?)"
            ),
        ),
        (
            None,
            "did you mean 'location'?",
        ),
    ),
    "misspelt-display-name": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    displayName: Blender\n    linux: {presence: executable, "
            "location: /usr/bin/blender}\n  requires: {app: true}\n"
        ),
        1,
        (("hermes.yaml:3:5: blender.app.displayName: unknown key (did you mean 'display_name'?)"),),
        ("did you mean 'display_name'?",),
    ),
    "misspelt-requires": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executable, location: /usr/bin/blender}\n  "
            "require: {app: true}\n"
        ),
        1,
        ("hermes.yaml:4:3: blender.require: unknown key (did you mean 'requires'?)",),
        ("did you mean 'requires'?",),
    ),
    "misspelt-min-version": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executable, location: /usr/bin/blender}\n  "
            "requires: {app: true, minVersion: '4.2'}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:25: blender.requires.minVersion: unknown key (did you mean "
                "'min_version'?)"
            ),
        ),
        ("did you mean 'min_version'?",),
    ),
    "misspelt-app-block": Mistake(
        "hermes.yaml",
        (
            "blender:\n  application:\n    linux: {presence: executable, location: "
            "/usr/bin/blender}\n  requires: {app: true}\n"
        ),
        1,
        (
            "hermes.yaml:2:3: blender.application: unknown key (expected 'app' or 'requires')",
            (
                "hermes.yaml:4:19: blender.requires.app: is true, but there is no app block (add "
                "an app block beside requires, or write app: false)"
            ),
        ),
        (
            "expected 'app' or 'requires'",
            "add an app block beside requires, or write app: false",
        ),
    ),
    "misspelt-liveness-key": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    win32:\n      presence: executable\n      location: "
            "'C:/Program Files/Blender Foundation/Blender 4.2/blender.exe'\n      livenes: "
            "{kind: static}\n  requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:6:7: blender.app.win32.livenes: unknown key (did you mean 'liveness'?)",),
        ("did you mean 'liveness'?",),
    ),
    "misspelt-install": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    win32:\n      presence: executable\n      location: "
            "'C:/Program Files/Blender Foundation/Blender 4.2/blender.exe'\n      installs: "
            "{winget: BlenderFoundation.Blender}\n  requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:6:7: blender.app.win32.installs: unknown key (did you mean 'install'?)",),
        ("did you mean 'install'?",),
    ),
    "display-name-under-os": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executable, location: /usr/bin/blender, "
            "display_name: Blender}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:63: blender.app.linux.display_name: unknown key (expected "
                "'presence', 'location', 'version', 'liveness', 'min_os_version' or 'install')"
            ),
        ),
        (
            (
                "expected 'presence', 'location', 'version', 'liveness', 'min_os_version' or "
                "'install'"
            ),
        ),
    ),
    "requires-app-yes": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux: {presence: executable, location: /usr/bin/kicad}\n  "
            "requires: {app: yes}\n"
        ),
        1,
        (("hermes.yaml:4:19: kicad.requires.app: must be true or false (got 'yes'; write true)"),),
        ("write true",),
    ),
    "requires-app-quoted": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux: {presence: executable, location: /usr/bin/kicad}\n  "
            "requires: {app: 'true'}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:19: kicad.requires.app: must be true or false (got 'true'; write "
                "true without quotes)"
            ),
        ),
        ("write true without quotes",),
    ),
    "requires-as-list": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux: {presence: executable, location: /usr/bin/kicad}\n  "
            "requires: [app]\n"
        ),
        1,
        ("hermes.yaml:4:13: kicad.requires: must be a mapping (got ['app'])",),
        (None,),
    ),
    "location-as-number": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux: {presence: executable, location: 42}\n  requires: {app: "
            "true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: kicad.app.linux.location: must be a path or a mapping with "
                "kind 'command', 'flatpak' or 'snap' (got 42)"
            ),
        ),
        (None,),
    ),
    "server-as-list": Mistake(
        "hermes.yaml",
        "kicad:\n  - app: {linux: {presence: executable, location: /usr/bin/kicad}}\n",
        1,
        (
            (
                "hermes.yaml:2:3: is not a declarations file: it must be a mapping of server "
                "name to {app, requires}, each server a mapping; none of its values is shown"
            ),
        ),
        (None,),
    ),
    "app-as-string": Mistake(
        "hermes.yaml",
        "kicad:\n  app: /usr/bin/kicad\n  requires: {app: true}\n",
        1,
        ("hermes.yaml:2:8: kicad.app: must be a mapping (got '/usr/bin/kicad')",),
        (None,),
    ),
    "min-version-without-app": Mistake(
        "hermes.yaml",
        "kicad:\n  requires: {min_version: '8.0'}\n",
        1,
        ("hermes.yaml:2:27: kicad.requires.min_version: needs app: true",),
        (None,),
    ),
    "app-true-without-app-block": Mistake(
        "hermes.yaml",
        "kicad:\n  requires: {app: true}\n",
        1,
        (
            (
                "hermes.yaml:2:19: kicad.requires.app: is true, but there is no app block (add "
                "an app block beside requires, or write app: false)"
            ),
        ),
        ("add an app block beside requires, or write app: false",),
    ),
    "min-version-with-v": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "Blender.app}, version: {kind: plist}}\n  requires: {app: true, min_version: "
            "'v4.2'}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:38: blender.requires.min_version: must be a dotted numeric "
                "version such as '2.3.0' (got 'v4.2')"
            ),
        ),
        (None,),
    ),
    "min-version-with-suffix": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "Blender.app}, version: {kind: plist}}\n  requires: {app: true, min_version: '4.2 "
            "LTS'}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:38: blender.requires.min_version: must be a dotted numeric "
                "version such as '2.3.0' (got '4.2 LTS')"
            ),
        ),
        (None,),
    ),
    "min-version-without-version-source": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/Blender Foundation/Blender 4.2/blender.exe'}\n  requires: {app: true, "
            "min_version: '4.2'}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:38: blender.requires.min_version: needs a version source: set "
                "version.kind in app.win32"
            ),
        ),
        (None,),
    ),
    "min-version-integer": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "Blender.app}, version: {kind: plist}}\n  requires: {app: true, min_version: 4}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:38: blender.requires.min_version: must be a string (got 4; quote "
                "it: '4', as YAML reads an unquoted 3.10 as the number 3.1)"
            ),
        ),
        ("quote it: '4', as YAML reads an unquoted 3.10 as the number 3.1",),
    ),
    "min-os-version-number": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "Blender.app}, min_os_version: 13.0}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:97: blender.app.darwin.min_os_version: must be a string (got "
                "13.0; quote it: '13.0', as YAML reads an unquoted 3.10 as the number 3.1)"
            ),
        ),
        ("quote it: '13.0', as YAML reads an unquoted 3.10 as the number 3.1",),
    ),
    "min-os-version-on-linux": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executable, location: /usr/bin/blender, "
            "min_os_version: '22.04'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:79: blender.app.linux.min_os_version: is not accepted under "
                "app.linux: Linux distributions share no OS version to compare against; set it "
                "under app.win32 or app.darwin (got '22.04')"
            ),
        ),
        (None,),
    ),
    "min-os-version-name": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "Blender.app}, min_os_version: Ventura}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:97: blender.app.darwin.min_os_version: must be a dotted numeric "
                "version such as '13.0' or '10.0.19041', each part at most 9 digits (got "
                "'Ventura')"
            ),
        ),
        (None,),
    ),
    "windows-backslash-path-on-linux": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executable, location: 'C:\\Program "
            "Files\\Blender\\blender.exe'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: blender.app.linux.location: must start with /, ~ or $VAR (got "
                "'C:\\Program Files\\Blender\\blender.exe')"
            ),
        ),
        (None,),
    ),
    "relative-windows-path": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    win32: {presence: executable, location: 'Program "
            "Files/Blender Foundation/blender.exe'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: blender.app.win32.location: must start at a drive root (C:\\ "
                "or C:/), or with ~, %VAR% or $VAR (got 'Program Files/Blender "
                "Foundation/blender.exe')"
            ),
        ),
        (None,),
    ),
    "posix-path-on-win32": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    win32: {presence: executable, location: /usr/bin/blender}\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: blender.app.win32.location: must start at a drive root (C:\\ "
                "or C:/), or with ~, %VAR% or $VAR (got '/usr/bin/blender')"
            ),
        ),
        (None,),
    ),
    "url-as-location": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executable, location: "
            "'https://download.blender.org/blender'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: blender.app.linux.location: must be a file path, not a URL "
                "(got 'https://download.blender.org/blender')"
            ),
        ),
        (None,),
    ),
    "parent-segment": Mistake(
        "hermes.yaml",
        (
            "blender:\n  app:\n    linux: {presence: executable, location: "
            "/opt/blender/../blender/blender}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: blender.app.linux.location: must not contain a '..' segment "
                "(got '/opt/blender/../blender/blender')"
            ),
        ),
        (None,),
    ),
    "app-bundle-path-as-name": Mistake(
        "hermes.yaml",
        (
            "vscode:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "/Applications/Visual Studio Code.app}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:67: vscode.app.darwin.location.name: must be a bare name without "
                "'/', '\\' or ':', and not '..' (got '/Applications/Visual Studio Code.app'; a "
                "bundle given by its path needs a path location: write location: "
                "'/Applications/Visual Studio Code.app')"
            ),
        ),
        (
            (
                "a bundle given by its path needs a path location: write location: "
                "'/Applications/Visual Studio Code.app'"
            ),
        ),
    ),
    "command-name-with-path": Mistake(
        "hermes.yaml",
        (
            "vscode:\n  app:\n    linux: {presence: executable, location: {kind: command, name: "
            "/usr/bin/code}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:67: vscode.app.linux.location.name: must be a bare name without "
                "'/', '\\' or ':', and not '..' (got '/usr/bin/code'; write the name alone, "
                "'code', or give the whole path as a path location)"
            ),
        ),
        ("write the name alone, 'code', or give the whole path as a path location",),
    ),
    "uninstall-without-file": Mistake(
        "hermes.yaml",
        (
            "vscode:\n  app:\n    win32: {presence: executable, location: {kind: "
            "uninstall_registry, display_name_prefix: Microsoft Visual Studio Code}}\n  "
            "requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:3:35: vscode.app.win32.location.file: is required",),
        (None,),
    ),
    "uninstall-absolute-file": Mistake(
        "hermes.yaml",
        (
            "vscode:\n  app:\n    win32: {presence: executable, location: {kind: "
            "uninstall_registry, display_name_prefix: Microsoft Visual Studio Code, file: "
            "'C:/Program Files/Microsoft VS Code/Code.exe'}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:129: vscode.app.win32.location.file: must be a relative path "
                "inside the install folder: no leading separator, no ':', no empty or '..' "
                "segment (got 'C:/Program Files/Microsoft VS Code/Code.exe'; write the path from "
                "the install folder, such as 'Code.exe')"
            ),
        ),
        ("write the path from the install folder, such as 'Code.exe'",),
    ),
    "device-name-in-path": Mistake(
        "hermes.yaml",
        (
            "vscode:\n  app:\n    win32: {presence: executable, location: "
            "'C:/Tools/con/code.exe'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: vscode.app.win32.location: must not have a segment that "
                "Windows opens as a device (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9, CONIN$ or "
                "CONOUT$, in any case, with any extension) (got 'C:/Tools/con/code.exe'; 'con' "
                "names the device CON)"
            ),
        ),
        ("'con' names the device CON",),
    ),
    "snap-with-app-id": Mistake(
        "hermes.yaml",
        (
            "vscode:\n  app:\n    linux: {presence: executable, location: {kind: snap, app_id: "
            "code}}\n  requires: {app: true}\n"
        ),
        1,
        (
            "hermes.yaml:3:35: vscode.app.linux.location.name: is required",
            (
                "hermes.yaml:3:58: vscode.app.linux.location.app_id: unknown key (expected "
                "'kind' or 'name')"
            ),
        ),
        (
            None,
            "expected 'kind' or 'name'",
        ),
    ),
    "darwin-path-to-binary-inside-bundle-presence-bundle": Mistake(
        "hermes.yaml",
        (
            "vscode:\n  app:\n    darwin: {presence: executable, location: {kind: app_bundle, "
            "name: Visual Studio Code.app}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:46: vscode.app.darwin.location: kind 'app_bundle' finds a bundle, "
                "but this block's presence is 'executable'"
            ),
        ),
        (None,),
    ),
    "install-apt": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux: {presence: executable, location: /usr/bin/kicad, "
            "install: {apt: kicad}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:61: kicad.app.linux.install: must be a mapping naming one package "
                "manager: 'brew', 'flatpak', 'snap' or 'url' (got {'apt': 'kicad'})"
            ),
        ),
        (None,),
    ),
    "install-winget-on-linux": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux: {presence: executable, location: /usr/bin/kicad, "
            "install: {winget: KiCad.KiCad}}\n  requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:3:70: kicad.app.linux.install: 'winget' is only valid under app.win32",),
        (None,),
    ),
    "install-brew-cask-on-win32": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/KiCad/8.0/bin/kicad.exe', install: {brew_cask: kicad}}\n  requires: {app: "
            "true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:98: kicad.app.win32.install: 'brew_cask' is only valid under "
                "app.darwin"
            ),
        ),
        (None,),
    ),
    "install-url-http": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/KiCad/8.0/bin/kicad.exe', install: {url: 'http://www.kicad.org/download'}}\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:104: kicad.app.win32.install.url: must be an https:// URL (got "
                "'http://www.kicad.org/download')"
            ),
        ),
        (None,),
    ),
    "install-url-no-scheme": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/KiCad/8.0/bin/kicad.exe', install: {url: www.kicad.org/download}}\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:104: kicad.app.win32.install.url: must be an https:// URL (got "
                "'www.kicad.org/download')"
            ),
        ),
        (None,),
    ),
    "install-two-managers-in-one": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "KiCad.app}, install: {brew_cask: kicad, url: 'https://www.kicad.org/download/'}}\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:88: kicad.app.darwin.install: must name one package manager (got "
                "'brew_cask' and 'url')"
            ),
        ),
        (None,),
    ),
    "install-flatpak-short-id": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    linux: {presence: executable, location: /usr/bin/kicad, "
            "install: {flatpak: kicad}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:80: kicad.app.linux.install.flatpak: must be a Flatpak "
                "application id such as 'com.vendor.Studio': at least three dot-separated parts "
                "of letters, digits and '_', none starting with a digit, '-' only in the last "
                "part; at most 255 characters (got 'kicad')"
            ),
        ),
        (None,),
    ),
    "install-as-string": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/KiCad/8.0/bin/kicad.exe', install: KiCad.KiCad}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:98: kicad.app.win32.install: must be a mapping naming one package "
                "manager: 'winget' or 'url' (got 'KiCad.KiCad')"
            ),
        ),
        (None,),
    ),
    "install-winget-name-not-id": Mistake(
        "hermes.yaml",
        (
            "kicad:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/KiCad/8.0/bin/kicad.exe', install: {winget: KiCad}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:107: kicad.app.win32.install.winget: must be a winget package "
                "identifier such as 'Vendor.Studio': two to eight dot-separated parts of "
                "letters, digits, '_', '+' or '-' (at most 32 each, 128 in all), not starting "
                "with '-' (got 'KiCad')"
            ),
        ),
        (None,),
    ),
    "liveness-kind-misspelt": Mistake(
        "hermes.yaml",
        (
            "ableton:\n  app:\n    win32:\n      presence: executable\n      location: "
            "'C:/Program Files/Ableton/Live 12 Suite/Program/Ableton Live 12 Suite.exe'\n      "
            "liveness: {kind: server-json, path: '%LOCALAPPDATA%/Ableton/mcp.json'}\n  requires: "
            "{app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:24: ableton.app.win32.liveness.kind: must be 'none', 'static', "
                "'interactive_session' or 'server_json' (got 'server-json'; did you mean "
                "'server_json'?)"
            ),
        ),
        ("did you mean 'server_json'?",),
    ),
    "liveness-without-path": Mistake(
        "hermes.yaml",
        (
            "ableton:\n  app:\n    win32:\n      presence: executable\n      location: "
            "'C:/Program Files/Ableton/Live 12 Suite/Program/Ableton Live 12 Suite.exe'\n      "
            "liveness: {kind: server_json}\n  requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:6:7: ableton.app.win32.liveness.path: is required",),
        (None,),
    ),
    "liveness-static-with-path": Mistake(
        "hermes.yaml",
        (
            "ableton:\n  app:\n    win32:\n      presence: executable\n      location: "
            "'C:/Program Files/Ableton/Live 12 Suite/Program/Ableton Live 12 Suite.exe'\n      "
            "liveness: {kind: static, path: '%LOCALAPPDATA%/Ableton/mcp.json'}\n  requires: "
            "{app: true}\n"
        ),
        1,
        ("hermes.yaml:6:32: ableton.app.win32.liveness.path: unknown key (expected 'kind')",),
        ("expected 'kind'",),
    ),
    "liveness-endpoint-url": Mistake(
        "hermes.yaml",
        (
            "ableton:\n  app:\n    darwin:\n      presence: bundle\n      location: {kind: "
            "app_bundle, name: Ableton Live 12 Suite.app}\n      liveness: {kind: server_json, "
            "path: '~/Library/Application Support/Ableton/mcp.json', endpoint_path: "
            "'http://127.0.0.1:9000/mcp'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:108: ableton.app.darwin.liveness.endpoint_path: must be a plain "
                "absolute path such as '/mcp': letters, digits and . _ ~ / - only, no '..' "
                "segment, query, fragment or leading '//' (got 'http://127.0.0.1:9000/mcp')"
            ),
        ),
        (None,),
    ),
    "liveness-star-in-path": Mistake(
        "hermes.yaml",
        (
            "ableton:\n  app:\n    darwin:\n      presence: bundle\n      location: {kind: "
            "app_bundle, name: Ableton Live 12 Suite.app}\n      liveness: {kind: server_json, "
            "path: '~/Library/Application Support/Ableton/Live */mcp.json'}\n  requires: {app: "
            "true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:43: ableton.app.darwin.liveness.path: must not contain '*' (got "
                "'~/Library/Application Support/Ableton/Live */mcp.json')"
            ),
        ),
        (None,),
    ),
    "liveness-as-string": Mistake(
        "hermes.yaml",
        (
            "ableton:\n  app:\n    darwin:\n      presence: bundle\n      location: {kind: "
            "app_bundle, name: Ableton Live 12 Suite.app}\n      liveness: server_json\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:17: ableton.app.darwin.liveness: must be a mapping with kind "
                "'none', 'static', 'interactive_session' or 'server_json' (got 'server_json'; "
                "write {kind: server_json})"
            ),
        ),
        ("write {kind: server_json}",),
    ),
    "liveness-bad-key-name": Mistake(
        "hermes.yaml",
        (
            "ableton:\n  app:\n    darwin:\n      presence: bundle\n      location: {kind: "
            "app_bundle, name: Ableton Live 12 Suite.app}\n      liveness: {kind: server_json, "
            "path: '~/Library/Ableton/mcp.json', url_key: 'server url'}\n  requires: {app: "
            "true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:82: ableton.app.darwin.liveness.url_key: must be a simple key "
                "name of letters, digits, '_', '.' or '-' (got 'server url')"
            ),
        ),
        (None,),
    ),
    "gpu-misspelt": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/Blackmagic Design/DaVinci Resolve/Resolve.exe'}\n  requires: {app: true, gpu: "
            "nvida}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:30: resolve.requires.gpu: must be 'nvidia' (got 'nvida'; did you "
                "mean 'nvidia'?)"
            ),
        ),
        ("did you mean 'nvidia'?",),
    ),
    "gpu-cuda": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/Blackmagic Design/DaVinci Resolve/Resolve.exe'}\n  requires: {app: true, gpu: "
            "cuda}\n"
        ),
        1,
        ("hermes.yaml:4:30: resolve.requires.gpu: must be 'nvidia' (got 'cuda')",),
        (None,),
    ),
    "arch-amd64": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/Blackmagic Design/DaVinci Resolve/Resolve.exe'}\n  requires: {app: true, "
            "arch: amd64}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:31: resolve.requires.arch: must be 'x86_64' or 'arm64' (got "
                "'amd64'; write 'x86_64')"
            ),
        ),
        ("write 'x86_64'",),
    ),
    "arch-aarch64": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    linux: {presence: executable, location: "
            "/opt/resolve/bin/resolve}\n  requires: {app: true, arch: aarch64}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:31: resolve.requires.arch: must be 'x86_64' or 'arm64' (got "
                "'aarch64'; write 'arm64')"
            ),
        ),
        ("write 'arm64'",),
    ),
    "min-version-on-linux-only": Mistake(
        "hermes.yaml",
        (
            "resolve:\n  app:\n    linux: {presence: executable, location: "
            "/opt/resolve/bin/resolve}\n  requires: {app: true, min_version: '19.0'}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:38: resolve.requires.min_version: cannot be checked: Linux has no "
                "version source and app declares only linux (remove min_version, or add a win32 "
                "or darwin block that reads a version)"
            ),
        ),
        ("remove min_version, or add a win32 or darwin block that reads a version",),
    ),
    "yaml-missing-space-after-colon": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    linux:\n      presence:executable\n      location: "
            "/opt/BlackmagicDesign/Fusion18/Fusion\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:15: is not valid YAML: mapping values are not allowed here (write "
                "a space after each key's ':', and quote a value that holds ': ')"
            ),
        ),
        ("write a space after each key's ':', and quote a value that holds ': '",),
    ),
    "yaml-bad-indent": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    linux:\n      presence: executable\n     location: "
            "/opt/BlackmagicDesign/Fusion18/Fusion\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:6: is not valid YAML: expected <block end>, but found '<block "
                "mapping start>' (while parsing a block mapping at line 3, column 5; the keys of "
                "one mapping must start in the same column: check the indentation)"
            ),
        ),
        ("the keys of one mapping must start in the same column: check the indentation",),
    ),
    "yaml-duplicate-key": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    linux: {presence: executable, location: /opt/Fusion/Fusion}\n  "
            "  linux: {presence: executable, location: /opt/Fusion18/Fusion}\n  requires: {app: "
            "true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:5: fusion.app.linux: duplicate key: keys must be unique in a "
                "mapping (first at line 3, column 5)"
            ),
        ),
        (None,),
    ),
    "yaml-no-server-name": Mistake(
        "hermes.yaml",
        (
            "app:\n  linux: {presence: executable, location: /opt/Fusion/Fusion}\nrequires: "
            "{app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:1:1: this file holds one declaration {app, requires} without a "
                "server name: add a server name above it, or check it with --single"
            ),
        ),
        (None,),
    ),
    "yaml-star-unquoted": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    win32:\n      presence: executable\n      location: "
            "*Fusion.exe\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:5:24: is not valid YAML: expected alphabetic or numeric character, "
                "but found '.' (while scanning an alias at line 5, column 17; a value starting "
                "with '*' must be quoted: '*.exe')"
            ),
        ),
        ("a value starting with '*' must be quoted: '*.exe'",),
    ),
    "yaml-at-sign": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    display_name: @Fusion\n    linux: {presence: executable, "
            "location: /opt/Fusion/Fusion}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:19: is not valid YAML: found character '@' that cannot start any "
                "token (while scanning for the next token; a value starting with '@' must be "
                "quoted)"
            ),
        ),
        ("a value starting with '@' must be quoted",),
    ),
    "yaml-null-location": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    linux:\n      presence: executable\n      location:\n  "
            "requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:5:7: fusion.app.linux.location: is required",),
        (None,),
    ),
    "yaml-empty-file": Mistake(
        "hermes.yaml",
        "",
        1,
        ("hermes.yaml:1:1: is empty: expected a mapping of server name to {app, requires}",),
        (None,),
    ),
    "yaml-list-at-top": Mistake(
        "hermes.yaml",
        "- fusion:\n    requires: {app: false}\n",
        1,
        (
            (
                "hermes.yaml:1:1: is not a declarations file: it must be a mapping of server "
                "name to {app, requires}, each server a mapping; none of its values is shown"
            ),
        ),
        (None,),
    ),
    "yaml-norway-presence": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    linux: {presence: executable, location: /opt/Fusion/Fusion}\n  "
            "requires: {app: on}\n"
        ),
        1,
        (("hermes.yaml:4:19: fusion.requires.app: must be true or false (got 'on'; write true)"),),
        ("write true",),
    ),
    "yaml-tab-inside-flow": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    linux: {presence: executable,\tlocation: /opt/Fusion/Fusion}\n "
            " requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:34: is not valid YAML: found character '\\t' that cannot start "
                "any token (while scanning for the next token; indent with spaces: YAML allows "
                "no tabs there)"
            ),
        ),
        ("indent with spaces: YAML allows no tabs there",),
    ),
    "yaml-server-name-with-tab": Mistake(
        "hermes.yaml",
        '"fusion\\tmcp":\n  requires: {app: false}\n',
        1,
        (
            (
                'hermes.yaml:1:1: ["fusion\\tmcp"]: must not contain control characters such as '
                "a tab or a line break (got 'fusion\\tmcp'; in double quotes '\\' starts an "
                "escape: use single quotes or '/')"
            ),
        ),
        ("in double quotes '\\' starts an escape: use single quotes or '/'",),
    ),
    "yaml-server-name-zero-width": Mistake(
        "hermes.yaml",
        "fusion\u200b:\n  requires: {app: false}\n",
        1,
        (
            (
                'hermes.yaml:1:1: ["fusion\\u200b"]: must not contain control characters such as '
                "a tab or a line break (got 'fusion\\u200b')"
            ),
        ),
        (None,),
    ),
    "yaml-display-name-prefix-escape": Mistake(
        "hermes.yaml",
        (
            "fusion:\n  app:\n    win32:\n      presence: executable\n      location: "
            '"C:/Program Files/Blackmagic Design/Fusion 18/Fusion.exe"\n      version: {kind: '
            'uninstall_registry, display_name_prefix: "Blackmagic\\tFusion"}\n  requires: {app: '
            "true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:6:64: fusion.app.win32.version.display_name_prefix: must not "
                "contain control characters such as a tab or a line break (got "
                "'Blackmagic\\tFusion'; in double quotes '\\' starts an escape: use single "
                "quotes or '/')"
            ),
        ),
        ("in double quotes '\\' starts an escape: use single quotes or '/'",),
    ),
    "json-single-quotes": Mistake(
        "hermes.json",
        "{'gimp': {'requires': {'app': false}}}\n",
        1,
        (
            (
                "hermes.json:1:2: is not valid JSON: expecting property name enclosed in double "
                "quotes (JSON keys and strings take double quotes, and JSON has no comments)"
            ),
        ),
        ("JSON keys and strings take double quotes, and JSON has no comments",),
    ),
    "json-comment": Mistake(
        "hermes.json",
        '{\n  // GIMP\n  "gimp": {"requires": {"app": false}}\n}\n',
        1,
        (
            (
                "hermes.json:2:3: is not valid JSON: expecting property name enclosed in double "
                "quotes (JSON keys and strings take double quotes, and JSON has no comments)"
            ),
        ),
        ("JSON keys and strings take double quotes, and JSON has no comments",),
    ),
    "json-unquoted-key": Mistake(
        "hermes.json",
        '{\n  gimp: {"requires": {"app": false}}\n}\n',
        1,
        (
            (
                "hermes.json:2:3: is not valid JSON: expecting property name enclosed in double "
                "quotes (JSON keys and strings take double quotes, and JSON has no comments)"
            ),
        ),
        ("JSON keys and strings take double quotes, and JSON has no comments",),
    ),
    "json-missing-comma": Mistake(
        "hermes.json",
        (
            '{\n  "gimp": {\n    "app": {"linux": {"presence": "executable", "location": '
            '"/usr/bin/gimp"}}\n    "requires": {"app": true}\n  }\n}\n'
        ),
        1,
        (
            (
                "hermes.json:4:5: is not valid JSON: expecting ',' delimiter (put a ',' between "
                "two items of a mapping or a list)"
            ),
        ),
        ("put a ',' between two items of a mapping or a list",),
    ),
    "json-backslash-path": Mistake(
        "hermes.json",
        (
            '{"gimp": {"app": {"win32": {"presence": "executable", "location": "C:\\Program '
            'Files\\GIMP 2\\bin\\gimp.exe"}}, "requires": {"app": true}}}\n'
        ),
        1,
        (
            (
                "hermes.json:1:70: is not valid JSON: invalid \\escape (in JSON '\\' starts an "
                "escape: write paths with '/' or '\\\\')"
            ),
        ),
        ("in JSON '\\' starts an escape: write paths with '/' or '\\\\'",),
    ),
    "json-tab-escape": Mistake(
        "hermes.json",
        (
            '{"gimp": {"app": {"win32": {"presence": "executable", "location": '
            '"C:\\tools\\gimp.exe"}}, "requires": {"app": true}}}\n'
        ),
        1,
        (
            (
                "hermes.json:1:76: is not valid JSON: invalid \\escape (in JSON '\\' starts an "
                "escape: write paths with '/' or '\\\\')"
            ),
        ),
        ("in JSON '\\' starts an escape: write paths with '/' or '\\\\'",),
    ),
    "json-true-as-string": Mistake(
        "hermes.json",
        (
            '{"gimp": {"app": {"linux": {"presence": "executable", "location": '
            '"/usr/bin/gimp"}}, "requires": {"app": "true"}}}\n'
        ),
        1,
        (
            (
                "hermes.json:1:106: gimp.requires.app: must be true or false (got 'true'; write "
                "true without quotes)"
            ),
        ),
        ("write true without quotes",),
    ),
    "json-trailing-comma-in-list": Mistake(
        "hermes.json",
        (
            '{"gimp": {"app": {"linux": {"presence": "executable", "location": '
            '["/usr/bin/gimp",]}}, "requires": {"app": true}}}\n'
        ),
        1,
        (
            (
                "hermes.json:1:83: is not valid JSON: trailing comma before ']' (remove it: JSON "
                "allows no comma after the last item)"
            ),
        ),
        ("remove it: JSON allows no comma after the last item",),
    ),
    "display-name-blank": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    display_name: ' '\n    linux: {presence: executable, location: "
            "/usr/bin/krita}\n  requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:3:19: krita.app.display_name: must not be blank (got ' ')",),
        (None,),
    ),
    "display-name-too-long": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    display_name: Krita Digital Painting Studio Krita Digital "
            "Painting Studio Krita Digital Painting Studio \n    linux: {presence: executable, "
            "location: /usr/bin/krita}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:19: krita.app.display_name: must be at most 80 characters long "
                "(got 'Krita Digital Painting Studio Krita D...g Studio Krita Digital Painting "
                "Studio')"
            ),
        ),
        (None,),
    ),
    "location-empty-list": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    linux: {presence: executable, location: []}\n  requires: {app: "
            "true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: krita.app.linux.location: must not be empty: give a path, a "
                "location mapping, or a list of them"
            ),
        ),
        (None,),
    ),
    "double-star-path": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    win32: {presence: executable, location: 'C:/Program "
            "Files/Krita*/**/krita.exe'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: krita.app.win32.location: must not contain '**'; '*' matches "
                "text within one folder (got 'C:/Program Files/Krita*/**/krita.exe')"
            ),
        ),
        (None,),
    ),
    "arch-twice": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    linux: {presence: executable, location: /usr/bin/krita}\n  "
            "requires: {app: true, arch: [x86_64, x86_64]}\n"
        ),
        1,
        ("hermes.yaml:4:40: krita.requires.arch[1]: is listed twice",),
        (None,),
    ),
    "min-version-empty": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "krita.app}, version: {kind: plist}}\n  requires: {app: true, min_version: ''}\n"
        ),
        1,
        (
            (
                "hermes.yaml:4:38: krita.requires.min_version: must be a dotted numeric version "
                "such as '2.3.0' (got '')"
            ),
        ),
        (None,),
    ),
    "snap-name-uppercase": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    linux: {presence: executable, location: /snap/bin/krita, "
            "install: {snap: Krita}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:78: krita.app.linux.install.snap: must be a Snap name such as "
                "'vendor-studio': 2 to 40 lowercase letters, digits and single hyphens, at least "
                "one letter, no hyphen first or last (got 'Krita')"
            ),
        ),
        (None,),
    ),
    "flatpak-remote-url": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    linux: {presence: executable, location: {kind: flatpak, app_id: "
            "org.kde.krita}, install: {flatpak: org.kde.krita, remote: "
            "'https://flathub.org/repo/flathub.flatpakrepo'}}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:127: krita.app.linux.install.remote: must be a Flatpak remote "
                "name such as 'flathub': letters, digits, '.', '_' and '-', not starting with "
                "'.' or '-'; at most 255 characters (got "
                "'https://flathub.org/repo/flathub.flatpakrepo')"
            ),
        ),
        (None,),
    ),
    "brew-cask-with-url": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    darwin: {presence: bundle, location: {kind: app_bundle, name: "
            "krita.app}, install: {brew_cask: 'https://formulae.brew.sh/cask/krita'}}\n  "
            "requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:100: krita.app.darwin.install.brew_cask: must be a Homebrew cask "
                "token such as 'vendor-studio' or 'vendor-studio@beta': lowercase letters, "
                "digits, '-' and '_', an optional '@' suffix, optionally after 'user/tap/'; at "
                "most 128 characters (got 'https://formulae.brew.sh/cask/krita')"
            ),
        ),
        (None,),
    ),
    "server-name-blank": Mistake(
        "hermes.yaml",
        "' ':\n  requires: {app: false}\n",
        1,
        ("hermes.yaml:1:1: [\" \"]: must not be blank (got ' ')",),
        (None,),
    ),
    "version-uninstall-without-prefix": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    win32:\n      presence: executable\n      location: 'C:/Program "
            "Files/Krita (x64)/bin/krita.exe'\n      version: {kind: uninstall_registry}\n  "
            "requires: {app: true}\n"
        ),
        1,
        ("hermes.yaml:6:7: krita.app.win32.version.display_name_prefix: is required",),
        (None,),
    ),
    "unc-on-win32": Mistake(
        "hermes.yaml",
        (
            "krita:\n  app:\n    win32: {presence: executable, location: "
            "'//server/share/krita.exe'}\n  requires: {app: true}\n"
        ),
        1,
        (
            (
                "hermes.yaml:3:45: krita.app.win32.location: must not start with two separators: "
                "UNC, device and network paths are not allowed (got '//server/share/krita.exe')"
            ),
        ),
        (None,),
    ),
}

FIRST_HINTS: dict[str, tuple[str | None, ...]] = {
    "escape-makes-a-tab": ("in double quotes '\\' starts an escape: use single quotes or '/'",),
    "unknown-escape": ("in double quotes '\\' starts an escape: use single quotes or '/'",),
    "zero-width-space": (None,),
    "tag-character": (None,),
    "bundle-on-linux": (None,),
    "bundle-without-app": ("write 'GIMP.app'",),
    "bundle-in-subfolder": (
        "a bundle in a subfolder needs a path location, such as '/Applications/Vendor/GIMP.app'",
    ),
    "powershell-variable": ("write '%ProgramFiles%/GIMP/gimp.exe'",),
    "flatpak-location-id": (None,),
    "unquoted-percent": (
        "a value starting with '%' must be quoted: '%ProgramFiles%/Vendor/vendor.exe'",
    ),
    "tab-indentation": ("indent with spaces: YAML allows no tabs there",),
    "json-trailing-comma": ("remove it: JSON allows no comma after the last item",),
    "network-path-shown-as-written": (None,),
    "version-as-number": ("quote it: '3.6', as YAML reads an unquoted 3.10 as the number 3.1",),
    "command-as-path": ("to find a command on PATH use {kind: command, name: gimp}",),
    "store-id-as-winget": (
        "a Microsoft Store id is no winget id: use a url: hint to the Store page",
    ),
    "requires-inside-app": (
        (
            "expected 'win32', 'darwin', 'linux' or 'display_name'; 'requires' belongs beside "
            "'app', under the server name"
        ),
    ),
}
"""The ``--json`` hints of the mistakes ``tests.test_author_mistakes`` names."""


def test_the_corpus_holds_at_least_seventy_mistakes() -> None:
    assert len(CORPUS) + len(MISTAKES) >= 70
    assert set(FIRST_HINTS) == set(MISTAKES)
    assert not set(CORPUS) & set(MISTAKES)


@pytest.mark.parametrize("mistake", CORPUS.values(), ids=list(CORPUS))
def test_check_prints_each_mistake_with_its_fix(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mistake: Mistake
) -> None:
    path = tmp_path / mistake.file
    path.write_text(mistake.text, encoding="utf-8")
    status, printed = check(capsys, tmp_path, str(path))
    assert (status, tuple(printed.splitlines())) == (mistake.status, mistake.printed)


def _json_issues(
    capsys: pytest.CaptureFixture[str], folder: Path, path: Path
) -> list[dict[str, Any]]:
    status, printed = check(capsys, folder, "--json", str(path))
    assert status == 1
    (report,) = json.loads(printed)["files"]
    issues: list[dict[str, Any]] = report["issues"]
    return issues


@pytest.mark.parametrize(
    ("file", "text", "hints"),
    [
        *((m.file, m.text, m.hints) for m in CORPUS.values()),
        *((MISTAKES[name][0], MISTAKES[name][1], hints) for name, hints in FIRST_HINTS.items()),
    ],
    ids=[*CORPUS, *FIRST_HINTS],
)
def test_json_gives_each_hint_apart_and_the_message_ends_with_it(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    file: str,
    text: str,
    hints: tuple[str | None, ...],
) -> None:
    path = tmp_path / file
    path.write_text(text, encoding="utf-8")
    issues = _json_issues(capsys, tmp_path, path)
    assert tuple(issue["hint"] for issue in issues) == hints
    for issue in issues:
        if issue["hint"] is not None:
            assert issue["message"].endswith(f"{issue['hint']})")
