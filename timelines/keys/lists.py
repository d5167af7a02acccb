"""Keys of named lists of users (the book's exercises "Lists of users" and "Updating lists").

A list is "a different type of follower", keyed by its own id, so its hash, members and timeline share the
list's slot::

    list:id:           STRING  last list id (INCR)
    list:{7}           HASH  id, uid (owner), name, members, created; ``members`` is set from the size of
                       list:in:{7} inside the script that changes it, so it cannot drift
                       > HGETALL list:{7}
                       id 7  uid 42  name "Climbers"  members 3  created 1763800000.1
    lists:{42}         ZSET  list id -> created; the lists user 42 owns (counted in user:{42} ``lists``)
    list:in:{7}        ZSET  member uid -> time added; whose statuses list 7 shows
    list:out:{99}      ZSET  list id -> time added; the lists user 99 is in (counted in user:{99} ``listed``);
                       the fan-out reads it as it reads followers:{99}
    list:statuses:{7}  ZSET  status id -> posted; the list's timeline, trimmed to HOME_TIMELINE_SIZE
                       > ZREVRANGE list:statuses:{7} 0 1
                       9001 8954
"""

from __future__ import annotations

LIST_ID_COUNTER = "list:id:"


def user_list(list_id: int) -> str:
    return f"list:{{{list_id}}}"


def lists_of(uid: int) -> str:
    """The lists ``uid`` owns."""
    return f"lists:{{{uid}}}"


def list_members(list_id: int) -> str:
    return f"list:in:{{{list_id}}}"


def listed_in(uid: int) -> str:
    """The lists ``uid`` is a member of."""
    return f"list:out:{{{uid}}}"


def list_timeline(list_id: int) -> str:
    return f"list:statuses:{{{list_id}}}"
