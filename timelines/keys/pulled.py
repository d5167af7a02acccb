"""Keys of hybrid fan-out (issue 23): the posts of accounts with more followers than
``SOCIALSITE_FANOUT_PULL_THRESHOLD`` are not pushed into their followers' homes but merged in when a home is read::

pulled:{42}      ZSET  status id -> status id; the posts and reposts of user 42 that were not pushed, newest
                 HOME_TIMELINE_SIZE kept (scored by id, so max_id/since_id are score ranges)
                 > ZREVRANGEBYSCORE pulled:{42} (9001 -inf LIMIT 0 2
                 8990 8954
pulled:authors   ZSET  uid -> posted time of their newest pulled post: every account whose posts a home read
                 may have to merge (the read takes the most recent MAX_MERGED_PER_READ its reader follows)
                 > ZREVRANGE pulled:authors 0 1 WITHSCORES
                 42 1763800000.5  7 1763700000.1
"""

from __future__ import annotations

PULLED_AUTHORS = "pulled:authors"


def pulled_posts(uid: int | str) -> str:
    return f"pulled:{{{uid}}}"
