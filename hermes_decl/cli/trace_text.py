"""The places an evaluation looked at (``Availability.trace``), as lines people read.

One line per place: which location produced it (``location[i]`` of the declaration, or
``override[i]`` of the user overrides file), its kind, the place, what was found and the version
read, then how the place was reached and any reason. A location's run of known folders where
nothing was found is one line naming the folders, so a missing command reads in a few lines.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hermes_decl.resolver.app import Candidate

_VIA_TEXT = {
    "search_path": "search path",
    "known_folder": "known folder",
    "uninstall_entry": "uninstall entries",
}


def trace_lines(trace: Sequence[Candidate]) -> list[str]:
    """The trace as lines, in the order the places were looked at."""
    return list(_lines(trace))


def _label(candidate: Candidate) -> str:
    source = "override" if candidate.source == "overrides" else "location"
    return f"{source}[{candidate.index}] {candidate.kind}"


def _is_empty_known_folder(candidate: Candidate) -> bool:
    return (
        candidate.via == "known_folder"
        and candidate.outcome == "absent"
        and candidate.path is not None
    )


def _lines(trace: Sequence[Candidate]) -> Iterator[str]:
    position = 0
    while position < len(trace):
        candidate = trace[position]
        if _is_empty_known_folder(candidate):
            end = position
            while (
                end < len(trace)
                and _is_empty_known_folder(trace[end])
                and (trace[end].source, trace[end].index) == (candidate.source, candidate.index)
            ):
                end += 1
            if end - position > 1:
                run = [str(c.path) for c in trace[position:end]]
                name = _split(run[0])[1]
                folders = ", ".join(_split(path)[0] for path in run)
                yield f"{_label(candidate)}: {name}: absent from the known folders {folders}"
                position = end
                continue
        yield _line(candidate)
        position += 1


def _split(path: str) -> tuple[str, str]:
    """A place's folder and name (either separator)."""
    cut = max(path.rfind("/"), path.rfind("\\"))
    return path[:cut], path[cut + 1 :]


def _line(candidate: Candidate) -> str:
    notes: list[str] = []
    outcome: str = candidate.outcome
    if candidate.via == "search_path" and outcome == "absent":
        outcome = "absent from the search path"
    elif candidate.via == "uninstall_entry" and candidate.entry is not None:
        notes.append(f"uninstall entry {candidate.entry.display_name!r}")
    elif candidate.via is not None:
        notes.append(_VIA_TEXT.get(candidate.via, candidate.via))
    if candidate.detail:
        notes.append(candidate.detail)
    version = ""
    if candidate.version:
        version = f"  version {candidate.version}"
    if candidate.version_detail:
        notes.append(f"version: {candidate.version_detail}")
    extra = f"  ({'; '.join(notes)})" if notes else ""
    place = candidate.path or "-"
    return f"{_label(candidate)}: {place}: {outcome}{version}{extra}"
