"""Keys of the follower graph (book 8.3)::

followers:{42}   ZSET  follower uid -> time they followed
following:{42}   ZSET  followed uid -> time of following
                 > ZREVRANGE following:{42} 0 -1 WITHSCORES
                 7 1763800100.2  9 1763800050.9
"""

from __future__ import annotations


def followers(uid: int) -> str:
    return f"followers:{{{uid}}}"


def following(uid: int) -> str:
    return f"following:{{{uid}}}"
