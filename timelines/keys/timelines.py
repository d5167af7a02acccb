"""Keys of a user's timelines (book 8.1.2 and 8.2)::

profile:{42}     ZSET  status id -> posted; every status the user wrote (never trimmed)
home:{42}        ZSET  status id -> posted; the user's own and followed users' statuses, newest
                 HOME_TIMELINE_SIZE kept (trimmed on every insert)
                 > ZREVRANGE home:{42} 0 2 WITHSCORES
                 9001 1763800000.5  8990 1763799990.1  8954 1763799950.7
profile:held:{42}
                 ZSET  status id -> posted; the statuses of profile:{42} that hold a field the policy may
                 judge a status by (store.status_hash.HELD_FIELDS: a visibility other than public, the older
                 private flag, a repost's original author), which
                 a follow's copy judges one by one (store.copies), and the member 0, scored with the posted
                 time after which the set is complete (-inf: all of them). Made by the first copy of the
                 profile on one server (a cluster's copy reads the statuses instead); kept by every status
                 added to or removed from the profile.
home:marker:{42} HASH  the home's read marker, where an app last stopped reading it (Mastodon's markers):
                 last_read_id, version (counts the moves), updated (Unix time)
                 > HGETALL home:marker:{42}
                 last_read_id 9001  version 3  updated 1763800000.5
"""

from __future__ import annotations

from collections.abc import Callable


def profile_timeline(uid: int) -> str:
    return f"profile:{{{uid}}}"


def profile_held(uid: int) -> str:
    return f"profile:held:{{{uid}}}"


def home_timeline(uid: int | str) -> str:
    return f"home:{{{uid}}}"


def home_marker(uid: int) -> str:
    return f"home:marker:{{{uid}}}"


TIMELINES: dict[str, Callable[[int], str]] = {"home": home_timeline, "profile": profile_timeline}


def timeline(name: str, uid: int) -> str:
    """The key of the named timeline (``"home"`` or ``"profile"``) of ``uid``."""
    try:
        return TIMELINES[name](uid)
    except KeyError:
        raise ValueError(f"Unknown timeline {name!r}; expected one of {sorted(TIMELINES)}.") from None
