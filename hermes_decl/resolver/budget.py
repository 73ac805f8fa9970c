"""One evaluation's work budget: names listed, places checked and candidates, over all locations.

Every bound of a single pattern or listing holds on its own, but a declaration (or an overrides
file) with many locations could still add them up; the budget bounds their sum, and a location
reached past it is said in the trace as an ``incomplete`` candidate, never read as "absent".
"""

from __future__ import annotations

MAX_NAMES_LISTED = 1_000_000
"""The most listed names one evaluation examines, over every ``*`` pattern it searches."""

MAX_PLACES_CHECKED = 4_096
"""The most places one evaluation asks the host about (a file or bundle there or not)."""

MAX_CANDIDATES = 4_096
"""The most candidates one evaluation produces before it stops looking."""

MAX_TRACE = 256
"""The most candidates an ``Availability`` keeps in its trace; it counts the others."""


class WorkBudget:
    """What one evaluation has spent so far; shared by every locator of that evaluation."""

    __slots__ = ("candidates", "names_listed", "places_checked")

    def __init__(self) -> None:
        self.names_listed = 0
        self.places_checked = 0
        self.candidates = 0

    def spent(self) -> str | None:
        """Which bound the evaluation reached, in words; None while there is work left."""
        if self.names_listed >= MAX_NAMES_LISTED:
            return f"the evaluation examined {MAX_NAMES_LISTED:,} listed names"
        if self.places_checked >= MAX_PLACES_CHECKED:
            return f"the evaluation checked {MAX_PLACES_CHECKED:,} places"
        if self.candidates >= MAX_CANDIDATES:
            return f"the evaluation produced {MAX_CANDIDATES:,} candidates"
        return None
