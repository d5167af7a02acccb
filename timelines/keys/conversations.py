"""Keys of conversations: replies and threads::

    replies:{9001}   ZSET  reply id -> posted; the direct replies of status 9001 (its ``reply_count`` is set
                     from this set's size in the script that changes it)
                     > ZRANGE replies:{9001} 0 -1
                     9005 9010
    thread:{9001}    HASH  reply id -> parent id, for every reply in the conversation whose root is 9001;
                     deleted replies stay in it, so the shape of a thread (and its cursors) never moves
                     > HGETALL thread:{9001}
                     9005 9001  9010 9001  9012 9005

A reply's hash names its parent (``in_reply_to``) and the conversation's root (``root``); the thread map lives
in the root's slot, the replies set in the parent's.
"""

from __future__ import annotations


def replies(status_id: int | str) -> str:
    return f"replies:{{{status_id}}}"


def thread(root_id: int | str) -> str:
    return f"thread:{{{root_id}}}"
