"""Keys of search (issue 10; the inverted index of book chapter 7, sharded for Redis Cluster)::

search:{s3}:redis    ZSET  status id -> status id; the statuses with id % SEARCH_SHARDS == 3 that contain
                     the word "redis" (``text.search_words``). One set per word per shard: the words of
                     one status all land in its shard's slot, and a query intersects them shard by shard,
                     each intersection touching one slot (store/scripts/search_shard.lua, a pure read)
                     > ZREVRANGE search:{s3}:redis 0 1
                     9011 8995
search:users:        ZSET  lexicographic, every score 0: "<lowercased login or display name>\\0<uid>"
                     > ZRANGEBYLEX search:users: "[ali" "(ali\\xff" LIMIT 0 3
                     "alice\\x0042"  "alice liddell\\x0042"
search:tags:         ZSET  lexicographic, every score 0: each tag ever used on a public post
                     > ZRANGEBYLEX search:tags: "[red" "(red\\xff"
                     "redis"  "reddit"
"""

from __future__ import annotations

from timelines import limits

SEARCH_USERS = "search:users:"
SEARCH_TAGS = "search:tags:"


def search_shard(status_id: int | str) -> int:
    """The shard of the word index that holds status ``status_id``."""
    return int(status_id) % limits.SEARCH_SHARDS


def search_word(shard: int, word: str) -> str:
    """The statuses of ``shard`` that contain ``word``."""
    return f"search:{{s{shard}}}:{word}"
