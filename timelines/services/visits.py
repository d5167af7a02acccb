"""Which visits this process has written (``services.idle.note_seen``): uid -> when, so a person's page views and
API calls write their last-seen time at most once per ``IDLE_SEEN_WRITE_EVERY_SECONDS`` per process. Kept apart
from ``services.idle`` so that creating a user (``services.users``) can count as a visit without importing the
refills."""

from __future__ import annotations

import threading
from collections import OrderedDict

from timelines import limits

# How many visits each process remembers; beyond it the oldest are forgotten, which only costs an early write.
SEEN_MEMORY = 100_000

_written: OrderedDict[int, float] = OrderedDict()
# A web process serves requests on several threads (socialsite/django_handler.py).
_lock = threading.Lock()


def due(uid: int, now: float) -> bool:
    """Whether a visit of ``uid`` at ``now`` should be written."""
    with _lock:
        last = _written.get(uid)
    return last is None or not 0 <= now - last < limits.IDLE_SEEN_WRITE_EVERY_SECONDS


def remember(uid: int, when: float) -> None:
    with _lock:
        _written[uid] = when
        _written.move_to_end(uid)
        while len(_written) > SEEN_MEMORY:
            _written.popitem(last=False)


def forget_all() -> None:
    """Forget every written visit (tests whose Redis was emptied reuse the same uids)."""
    with _lock:
        _written.clear()
