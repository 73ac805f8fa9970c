"""The live availability benchmark compares like with like: its floor finds what resolving finds."""

from __future__ import annotations

from pathlib import Path

from bench import live_availability
from hermes_decl.resolver.availability import availability


def test_the_hand_written_floor_finds_each_application_where_the_resolver_does(
    tmp_path: Path,
) -> None:
    live_availability.tree(tmp_path)
    host = live_availability.host(str(tmp_path))
    decls = live_availability.declarations()
    found = live_availability._hand_evaluator(host)
    alone = [availability(decl, host=host) for decl in decls]
    assert found == [v.path if v.state == "available" else None for v in alone]
    assert found == live_availability._resolver(host, decls)
    assert sum(path is not None for path in found) == 119
    assert found[:4] == [
        "/opt/vendor0/bin/tool",
        "/usr/bin/tool1",
        "/opt/suite-1.2/app2/bin/run",
        "/var/lib/flatpak/exports/bin/org.example.Tool3",
    ]
