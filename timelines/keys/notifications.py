"""Keys of notifications::

notification:id:          STRING  last notification id (INCR)
notifications:{42}        ZSET  notification JSON -> notification id; newest MAX_NOTIFICATIONS kept
                          > ZREVRANGE notifications:{42} 0 0
                          {"id":311,"type":"like","actor":7,"status":9001,"time":1763800100.2}
notifications:read:{42}   STRING  id of the newest notification user 42 has seen; the unread count is the
                          number of entries scored above it, so it is exact by construction
"""

from __future__ import annotations

NOTIFICATION_ID_COUNTER = "notification:id:"


def notifications(uid: int | str) -> str:
    return f"notifications:{{{uid}}}"


def notifications_read(uid: int | str) -> str:
    return f"notifications:read:{{{uid}}}"


def notifications_unread(uid: int | str) -> str:
    return f"notifications:unread:{{{uid}}}"
