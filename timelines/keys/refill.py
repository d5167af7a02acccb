"""Keys of refills (the book's exercise "Refilling timelines")::

    refill:home:{42}           STRING  number of the latest refill run of home:{42}; a run that finds a
    refill:list:statuses:{7}   newer number stops, since the newer run covers everything it would do

The run counter shares its timeline's slot (the timeline key's hash tag is kept).
"""

from __future__ import annotations


def refill_run(timeline_key: str) -> str:
    """The run counter of refills of ``timeline_key`` (same slot as the timeline)."""
    return f"refill:{timeline_key}"
