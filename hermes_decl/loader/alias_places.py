"""Where each alias stood, in the nodes libyaml's C composer built, which keeps no alias's place.

The C composer puts the anchored node itself where an alias stood, so that node's marks say
where the anchor is, not the alias. The alias lies in the text between the nodes beside it,
where nothing but blanks, line breaks, comments, flow and block indicators, anchors and aliases
can be: that gap is read, and one that holds anything else, or another count of aliases than
the nodes say, is left to the Python composer (``_Unsure``), which records each alias itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import yaml

from hermes_decl.loader.composers import AliasedChildren, _Unsure
from hermes_decl.loader.document import Position
from hermes_decl.loader.gaps import UnreadableGap, gap_pieces
from hermes_decl.loader.tabs import libyaml_shift

_GAP_PIECE = re.compile(
    r"[ \t\r\n\x85\u2028\u2029]+"  # blanks and line breaks
    r"|[-?:,\[\]{}]"  # indicators
    r"|[&*][0-9A-Za-z_-]+"  # an anchor (of the collection the gap opens) or an alias
    r"|#[^\r\n\x85\u2028\u2029]*"  # a comment, when a blank or a line break comes before it
)


AliasPlaces = dict[tuple[int, int], Position]
"""Where each alias stood, keyed as the Python composer keys them: the id of the collection
holding it, and its index in a list or the id of its key in a mapping."""


def alias_places(text: str, aliased: AliasedChildren) -> AliasPlaces:
    """Where each aliased child of these collections stood in ``text`` (``_Unsure`` if unsure)."""
    offset = libyaml_shift(text)
    places: AliasPlaces = {}
    for parent, indexes in aliased:
        if isinstance(parent, yaml.MappingNode):
            _in_mapping(text, offset, parent, indexes, places)
        elif isinstance(parent, yaml.SequenceNode):
            _in_sequence(text, offset, parent, indexes, places)
    return places


def _in_mapping(
    text: str, offset: int, mapping: yaml.MappingNode, indexes: list[int], places: AliasPlaces
) -> None:
    """The places of a mapping's aliased values, each between its key and the next key."""
    if any(index % 2 == 0 for index in indexes):
        raise _Unsure  # an aliased key: its own marks are the anchor's, the gap before unknown
    pairs = mapping.value
    for index in indexes:
        pair = index // 2
        key = pairs[pair][0]
        upper = pairs[pair + 1][0].start_mark if pair + 1 < len(pairs) else mapping.end_mark
        [place] = _aliases_between(text, offset, key.end_mark, upper, 1)
        places[(id(mapping), id(key))] = place


def _in_sequence(
    text: str, offset: int, sequence: yaml.SequenceNode, indexes: list[int], places: AliasPlaces
) -> None:
    """The places of a list's aliased items, each run of them between the items around it."""
    items = sequence.value
    for run in _runs(indexes):
        first, last = run[0], run[-1]
        lower = items[first - 1].end_mark if first > 0 else sequence.start_mark
        upper = items[last + 1].start_mark if last + 1 < len(items) else sequence.end_mark
        found = _aliases_between(text, offset, lower, upper, len(run))
        for index, place in zip(run, found, strict=True):
            places[(id(sequence), index)] = place


def _runs(indexes: Sequence[int]) -> list[list[int]]:
    """Ascending indexes grouped into runs of consecutive ones."""
    runs: list[list[int]] = []
    for index in indexes:
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def _aliases_between(
    text: str, offset: int, lower: yaml.Mark, upper: yaml.Mark, count: int
) -> list[Position]:
    """The places of the ``count`` aliases in the gap from ``lower`` to ``upper``, counted on from
    ``lower`` as the gap is read, once."""
    found: list[Position] = []
    try:
        for first, at, line, line_start in gap_pieces(text, _GAP_PIECE, lower, upper, offset):
            if first == "*":
                found.append((line + 1, at - line_start + 1))
    except UnreadableGap:
        raise _Unsure from None
    if len(found) != count:
        raise _Unsure
    return found
