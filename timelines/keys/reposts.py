"""Keys of reposts. A repost is a status of its own (``repost_of`` names the original), so it has an id, a
place in its author's profile and home, and a deletion notice on the streams::

    reposts:{9001}       ZSET  reposter uid -> posted time of their repost; who reposted status 9001 (its
                         ``repost_count`` is set from this set's size in the script that changes it)
    user:reposts:{42}    HASH  original id -> repost id; user 42's own reposts (one per original)
                         > HGET user:reposts:{42} 9001
                         9050
    home:reposts:{7}     HASH  original id -> the repost that stands for it in home:{7}; an original already in
                         that home, as itself or through another repost, is not added again (Mastodon's reblog
                         deduplication)
    list:reposts:{3}     HASH  the same for list:statuses:{3}
"""

from __future__ import annotations


def reposters(status_id: int | str) -> str:
    return f"reposts:{{{status_id}}}"


def user_reposts(uid: int | str) -> str:
    return f"user:reposts:{{{uid}}}"


def home_reposts(uid: int | str) -> str:
    return f"home:reposts:{{{uid}}}"


def list_reposts(list_id: int | str) -> str:
    return f"list:reposts:{{{list_id}}}"
