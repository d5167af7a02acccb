"""Keys of bookmarks (issue 20: a private list of saved posts)::

bookmarks:{42}   ZSET  status id -> when user 42 bookmarked it, in integer microseconds, strictly increasing
                 per person (store.bookmarks), so the score is also the cursor of a page of bookmarks
                 > ZREVRANGE bookmarks:{42} 0 1 WITHSCORES
                 9001 1763800100200412  8954 1763800050901377
"""

from __future__ import annotations


def bookmarks_of(uid: int | str) -> str:
    return f"bookmarks:{{{uid}}}"
