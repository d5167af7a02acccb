"""Keys of privacy and safety: follow requests, blocks and mutes, each kept on both sides so that a decision
about one author and many recipients (a fan-out) and one recipient and many authors (a page) are each one
set lookup::

    follow:requests:{42}   ZSET  requester uid -> time; pending requests to follow private user 42
    follow:requested:{7}   ZSET  target uid -> time; the requests user 7 is waiting on ("Requested")
    blocks:{42}            ZSET  uid -> time; whom user 42 blocks
    blocked:by:{7}         ZSET  uid -> time; who blocks user 7
    mutes:{42}             ZSET  uid -> time; whom user 42 mutes
    muted:by:{7}           ZSET  uid -> time; who mutes user 7

An account's own state lives in ``user:{42}``: ``private`` (1 while only approved followers may see its
posts), ``suspended`` and ``limited`` (moderation), and ``default_visibility`` (what the post box starts on;
``timelines.visibility``). A status stores its ``visibility`` when it is not public; one written before
visibilities existed while its author was private carries ``private`` 1 instead, read as ``private``. Posts keep
the visibility they were written with.
"""

from __future__ import annotations


def follow_requests(uid: int | str) -> str:
    return f"follow:requests:{{{uid}}}"


def follow_requested(uid: int | str) -> str:
    return f"follow:requested:{{{uid}}}"


def blocks(uid: int | str) -> str:
    return f"blocks:{{{uid}}}"


def blocked_by(uid: int | str) -> str:
    return f"blocked:by:{{{uid}}}"


def mutes(uid: int | str) -> str:
    return f"mutes:{{{uid}}}"


def muted_by(uid: int | str) -> str:
    return f"muted:by:{{{uid}}}"
