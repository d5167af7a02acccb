"""Keys of statuses (book listing 8.2)::

    status:id:       HASH  last -> last status id, clock -> last posted time in microseconds; both advance
                     in one script so status ids and posted times are ordered alike
    status:{9001}    HASH  message, posted, id, uid, login, name, plus extra data such as location "lat,lon",
                     stored compactly (store/status_hash.py: no id, posted in integer microseconds, one-letter
                     names for message M, posted P, login L, name N, location G); readers get the long form
                     > HGETALL status:{9001}
                     G "51.5,-0.12"  M "hello"  P 1763800000500000  uid 42  L alice  N "Alice Liddell"
                     written before that layout: message "hello"  posted 1763800000.5  id 9001  uid 42 ...

status:versions:{9001}  LIST  the earlier versions of an edited status, newest first (LPUSH), one JSON object
                     each: its text, when it was written (seconds) and the logins it mentioned. The current
                     version is the hash itself; the hash's ``edits`` counts the entries here (at most
                     ``limits.MAX_STATUS_VERSIONS`` - 1) and ``edited_at`` is the time of the last edit. Same
                     hash tag as ``status:{9001}``, so an edit is one script on one slot (store/edits.py)
                     > LRANGE status:versions:{9001} 0 -1
                     {"message":"helo","time":1763800000.5,"mentions":[]}

Because status ids and ``posted`` grow together, every timeline ZSET is ordered by id as well as by time,
which is what makes ``max_id``/``since_id`` cursors exact (see store/scripts/timeline_page.lua).
"""

from __future__ import annotations

STATUS_ID_COUNTER = "status:id:"


def status(status_id: int | str) -> str:
    return f"status:{{{status_id}}}"


def status_versions(status_id: int | str) -> str:
    """The earlier versions of status ``status_id``, newest first (issue 19's edits)."""
    return f"status:versions:{{{status_id}}}"
