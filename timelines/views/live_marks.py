"""The mark a live page's URL carries of what the page was rendered with (``streaming.live_params.rendered``):
each entry of its first page with its status's number of edits. On its first connect the stream compares it with
the timeline as it is then, so a post deleted or edited between the render and the connection does not stay on
the page (it would otherwise learn only of the posts newer than ``since_id``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def rendered_mark(entries: Iterable[Any]) -> str:
    """``entry.edits`` pairs joined by commas (``41.0,37.2``), newest first, as the page shows them."""
    return ",".join(f"{entry.entry_id}.{entry.edits}" for entry in entries)
