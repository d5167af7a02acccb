"""Keys of idle timelines (issue 23): when each person was last seen, and how many homes are dropped::

seen:{seen3}     ZSET  uid -> when the user was last seen (epoch seconds), written at most once an hour per
                 user and process (services.idle.note_seen); one of IDLE_SEEN_SHARDS shards (uid % shards),
                 each its own slot, so no one key holds every user. A user leaves it when their home is dropped
                 and comes back on their next visit.
                 > ZRANGEBYSCORE seen:{seen3} -inf (1761200000 LIMIT 0 3
                 3 1761100000  19 1761150000  35 1761190000
idle:homes       STRING  how many homes are idle-dropped now (the dashboard's gauge; audit_timelines recounts it)
                 > GET idle:homes
                 1204

Besides these, ``user:{42}`` holds ``seen`` (the same time, so the drop can check it atomically in the user's own
slot) and, while the home is dropped, ``idle`` (when it was dropped); ``list:{7}`` holds ``idle`` while its
timeline is dropped. Delivery, reposts and refills write nothing into a timeline whose owner holds ``idle``.
"""

from __future__ import annotations

IDLE_HOMES_COUNTER = "idle:homes"
SEEN_FIELD = "seen"
IDLE_FIELD = "idle"


def seen_shard(shard: int) -> str:
    return f"seen:{{seen{shard}}}"
