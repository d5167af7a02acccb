"""Keys of likes::

likes:{42}       ZSET  status id -> time of the like; what user 42 liked, newest like first
                 > ZREVRANGE likes:{42} 0 1 WITHSCORES
                 9001 1763800100.2  8954 1763800050.9
likers:{9001}    ZSET  uid -> time of the like; who liked status 9001 (its ``like_count`` is set from this
                 set's size in the script that changes it)
"""

from __future__ import annotations


def likes_of(uid: int | str) -> str:
    return f"likes:{{{uid}}}"


def likers(status_id: int | str) -> str:
    return f"likers:{{{status_id}}}"
